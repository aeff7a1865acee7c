import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31 case 6 against the real daemon: a Chromium `Local State` of 100,000 profiles once
/// kept the daemon from owning its name for minutes (each profile looked up by a scan of all the
/// others) while a click waited 40 s; a site list past its 200,000 entries was refused whole.
/// Now both are read in time linear in their size, cut at their limits, and what was skipped is
/// said once, by `openurl check` and in the log.
@Suite(.serialized) struct ScaleLimitsTests {
    /// `google-chrome.desktop` running the recording browser, and a `Local State` listing
    /// `count` profiles (`Default`, `Profile 1`, …, named `Person N`) of which the first three
    /// directories and the last exist.
    static func installChrome(_ harness: DaemonHarness, profiles count: Int) throws {
        try harness.desktop.writeDesktopEntry(id: "google-chrome.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Google Chrome", exec: "\(harness.browser.executable) --chrome %U",
            mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"], extra: "Categories=Network;WebBrowser;\n"))
        let chrome = harness.desktop.configHome + "/google-chrome"
        func directory(_ index: Int) -> String { index == 0 ? "Default" : "Profile \(index)" }
        var text = #"{"browser":{"enabled_labs_experiments":[]},"profile":{"info_cache":{"#
        for index in 0..<count {
            text += (index == 0 ? "" : ",") + #""\#(directory(index))":{"name":"Person \#(index)","is_using_default_name":true,"avatar_icon":"chrome://theme/IDR_PROFILE_AVATAR_26"}"#
        }
        text += #"},"last_used":"Default","profiles_order":["#
        text += (0..<count).map { "\"\(directory($0))\"" }.joined(separator: ",") + "]}}"
        try FileManager.default.createDirectory(atPath: chrome, withIntermediateDirectories: true)
        try text.write(toFile: chrome + "/Local State", atomically: true, encoding: .utf8)
        for index in [0, 1, 2, count - 1] {
            try FileManager.default.createDirectory(atPath: chrome + "/" + directory(index), withIntermediateDirectories: true)
        }
    }

    static func occurrences(of text: String, in log: String) -> Int { log.components(separatedBy: text).count - 1 }

    @Test func aHundredThousandProfilesOwnTheNameInSecondsAndTheFirstThousandAreKept() throws {
        let harness = try DaemonHarness(config: "[default]\nopen = \"google-chrome:Person 2\"\n", name: "profiles100k")
        try Self.installChrome(harness, profiles: 100_000)
        let started = Date()
        let daemon = try ChildProcess([harness.openurld], environment: harness.environment)
        defer { _ = daemon.terminate(grace: 2) }
        // A click sent while the daemon starts: it once took 40.7 s (embedded mode did the same work).
        let click = Locked<(seconds: Double, status: Int32)?>(nil)
        Thread {
            let before = Date()
            let result = try? harness.run([harness.openurl, "https://example.org/meanwhile"], timeout: 120)
            click.value = (Date().timeIntervalSince(before), result?.status ?? -1)
        }.start()
        try harness.waitUntilServing(timeout: 120)
        let owned = Date().timeIntervalSince(started)
        #expect(eventually(timeout: 120) { click.value != nil })
        print("100,000 profiles: the name owned after \(owned) s; the click meanwhile answered in \(click.value?.seconds ?? -1) s")
        #expect(owned < 3, "the daemon owned its name \(owned) s after it started")
        #expect(click.value?.status == 0 && (click.value?.seconds ?? 99) < 5, "\(String(describing: click.value))")
        // Opened once, in the profile the config names.
        #expect(harness.browser.waitForRecords(1) == [["--chrome", "--profile-directory=Profile 2", "https://example.org/meanwhile"]])

        // check says what was skipped; the profile past the limit is not a target.
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.status == 0, "\(check)")
        let warning = "Local State lists 100000 profiles; the first 1000 (in the file's order) are used and the other 99000 skipped"
        #expect(check.stderr.contains("warning: google-chrome.desktop: ") && check.stderr.contains(warning), "\(check.stderr.prefix(2000))")
        let apps = try harness.run([harness.openurl, "apps", "--json"])
        #expect(apps.stdout.contains("google-chrome:Person 2") && !apps.stdout.contains("google-chrome:Person 99999"))
        try harness.writeConfig("[default]\nopen = \"google-chrome:Person 99999\"\n")
        let past = try harness.run([harness.openurl, "check"])
        #expect(past.status != 0 && past.stderr.contains("only the first 1000 profiles its list names are read, 99000 were skipped"),
                "\(past.stderr.prefix(2000))")
        #expect(past.stderr.count < 4000, "the error lists every profile: \(past.stderr.count) bytes")

        // The log says it once, however often the config loads (a daemon the click's activation
        // started beside this one, which then lost the name, may have said it too).
        let before = Fault.log(harness)
        #expect(Self.occurrences(of: warning, in: before) >= 1, "\(before.suffix(3000))")
        _ = try harness.call("Reload")
        try harness.writeConfig("[default]\nopen = \"google-chrome:Person 1\"\n")
        _ = try harness.call("Reload")
        let after = String(Fault.log(harness).dropFirst(before.count))
        #expect(after.contains("loaded ") && Self.occurrences(of: warning, in: after) == 0, "\(after.suffix(3000))")
    }

    @Test func aSiteListPastItsLimitKeepsTheFirstEntriesAndSaysHowManyItSkipped() throws {
        let harness = try DaemonHarness(name: "sitelistlimit")
        let directory = harness.desktop.configHome + "/openurld"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // 200,005 entries: the last five are past the limit.
        try ("# managed\n" + (0..<200_005).map { "site\($0).example\n" }.joined()).write(toFile: directory + "/sites.txt", atomically: true, encoding: .utf8)
        try harness.writeConfig("""
            [[sitelist]]
            name = "big"
            path = "sites.txt"
            format = "lines"
            open = "work.desktop"
            [default]
            open = "browser.desktop"
            """)
        func target(_ url: String) throws -> String? {
            try harness.call("Explain", [.string(url), .vardict([:])]).first?.dictionary?["target"]?.string
        }
        // Once the whole list was refused for its length; now its first 200,000 switch.
        #expect(try target("https://site0.example/") == "work.desktop")
        #expect(try target("https://site199999.example/") == "work.desktop")
        #expect(try target("https://site200000.example/") == "browser.desktop")
        let note = "5 entries past the first 200000 skipped (from line 200002 on); the first 200000 are in force"
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("200000 entries") && check.stdout.contains(note), "\(check.stdout)")
        #expect(check.stderr.contains("warning: \(directory)/sites.txt: \(note)"), "\(check.stderr)")
        _ = try harness.call("Reload")
        #expect(Self.occurrences(of: note, in: Fault.log(harness)) == 1, "\(Fault.log(harness).suffix(2000))")
    }
}
