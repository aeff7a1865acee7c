import DBus
import Foundation
import TestSupport
import Testing

/// The daemon's start compiles ClearURLs patterns on first use: a bad pattern in the catalogue
/// skips its provider (the others still clean) and is logged once; a reload checks every pattern
/// and keeps the rules in use when one is bad.
@Suite struct ClearURLsStartupTests {
    static let catalogue = #"""
    {"providers": {
      "good": {"urlPattern": "^https?://shop\\.example", "rules": ["track"]},
      "bad": {"urlPattern": "^https?://shop\\.example", "rules": ["ok", "b[ad"]}
    }}
    """#

    func finalURL(_ harness: DaemonHarness, _ url: String) throws -> String? {
        try harness.call("Explain", [.string(url), .vardict([:])]).first?.dictionary?["final_url"]?.string
    }

    @Test func aBadPatternAtStartSkipsItsProviderAndIsLoggedOnce() throws {
        let harness = try DaemonHarness(name: "lazy-clearurls")
        let rules = harness.desktop.root + "/clearurls.json"
        try Self.catalogue.write(toFile: rules, atomically: true, encoding: .utf8)
        try harness.writeConfig("[settings]\nclearurls = \"\(rules)\"\n\n[default]\nopen = \"browser.desktop\"\n")
        // The start loads it (the bad pattern is not compiled yet); "good" cleans, "bad" is skipped.
        #expect(try finalURL(harness, "https://shop.example/p?track=1&ok=2") == "https://shop.example/p?ok=2")
        #expect(try finalURL(harness, "https://shop.example/q?track=1") == "https://shop.example/q")
        let log = harness.desktop.stateHome + "/openurld/log"
        let warning = "settings.clearurls: provider \"bad\": rules[1]: missing terminating ] for character class at offset 10"
        #expect(eventually { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(warning) }, "no warning in \(log)")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.components(separatedBy: warning).count == 2, "logged more than once:\n\(text)")

        // A reload checks every pattern: the bad one is an error and the rules in use stay.
        do {
            _ = try harness.call("Reload")
            Issue.record("Reload accepted a catalogue with a bad pattern")
        } catch let error as DBusError {
            #expect(error.message.contains("settings.clearurls: \(rules): provider \"bad\": rules[1]"), "\(error.message)")
        }
        #expect(try finalURL(harness, "https://shop.example/r?track=1") == "https://shop.example/r")
    }
}
