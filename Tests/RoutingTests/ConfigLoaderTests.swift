import Testing
@testable import ConfigLanguage
@testable import RoutingCore
@testable import TOML

/// The example config from the design, used by several suites.
let designConfig = #"""
[settings]
clipboard = "auto"
picker = ["fuzzel", "--dmenu"]
clean = true
unwrap = true
dedupe_ms = 1500

[default]
open = "firefox.desktop"

[apps.work]
desktop = "google-chrome.desktop"
args = ["--profile-directory=Profile 1", "{url}"]

[apps.private]
exec = ["firefox", "--private-window", "{url}"]

[[rewrite]]
match.domain = "twitter.com"
replace = { from = "^https://(www\\.)?twitter\\.com/", to = "https://x.com/" }

[[rules]]
name = "Work mail in Outlook on the web"
match.scheme = "mailto"
match.to = "*@corp.example.com"
open = "outlook"

[[rules]]
name = "Other mail: copy the address"
match.scheme = "mailto"
copy = "{to}"

[[rules]]
name = "Zoom meetings in the app"
match.domain = "zoom.us"
match.path = "/j/*"
open = "Zoom.desktop"

[[rules]]
name = "Links from Slack at work"
match.opener = "slack"
open = "work"

[[rules]]
match.domain = ["facebook.com", "fb.com"]
discard = true

[[rules]]
match.domain = "example.org"
ask = ["firefox.desktop", "work", "copy"]
"""#

@Suite struct ConfigLoaderTests {
    @Test func loadsTheDesignExample() throws {
        let config = try ConfigLoader.load(text: designConfig, path: "config.toml")
        #expect(config.rules.count == 6)
        #expect(config.rewrites.count == 1)
        #expect(config.apps["work"] == .desktop(id: "google-chrome.desktop", args: ["--profile-directory=Profile 1", "{url}"]))
        #expect(config.apps["private"] == .exec(["firefox", "--private-window", "{url}"]))
        #expect(config.settings.picker == ["fuzzel", "--dmenu"])
        #expect(config.settings.dedupeMilliseconds == 1500)
        #expect(config.defaultAction == .open(.desktopEntry(id: "firefox.desktop", action: nil)))
        #expect(config.rules[0].action == .open(.webmail("outlook")))
        #expect(config.rules[5].action == .ask([.open(.desktopEntry(id: "firefox.desktop", action: nil)), .open(.app("work")), .copy]))
    }

    @Test func emptyFileMeansDefaults() throws {
        let config = try ConfigLoader.load(text: "", path: "c.toml")
        #expect(config.rules.isEmpty)
        #expect(config.defaultAction == .system)
    }

    /// Each broken config and the exact `file:line:column: message` it must produce.
    @Test(arguments: [
        ("a = ", "c.toml:1:5: "),
        ("[[rules]]\nopne = \"firefox.desktop\"\n", "c.toml:2:1: unknown key \"opne\" in [[rules]]; did you mean \"open\"?"),
        ("[[rules]]\nmatch.domain = 3\ndiscard = true\n", "c.toml:2:16: match.domain: expected a string or a list of strings, found an integer"),
        ("[[rules]]\nmatch.domain = \"x.org\"\n", "c.toml:1:1: [[rules]] #1 has no action; give one of open, copy, ask, discard, system"),
        ("[[rules]]\nopen = \"a.desktop\"\ncopy = true\n", "c.toml:1:1: [[rules]] #1 has 2 actions (open and copy); give exactly one"),
        ("[[rules]]\nmatch.regex = \"a(b\"\ndiscard = true\n", "c.toml:2:15: match.regex: invalid regex: missing closing parenthesis at offset 3"),
        ("[[rules]]\nmatch.path = \"[ab\"\ndiscard = true\n", "c.toml:2:14: match.path: glob \"[ab\" has a [ with no closing ]"),
        ("[[rules]]\nopen = \"wrok\"\n[apps.work]\nexec = [\"x\", \"{url}\"]\n", "c.toml:2:8: unknown target \"wrok\": expected a desktop id"),
        ("[[rules]]\nopen = \"gmial\"\n", "did you mean \"gmail\"?"),
        ("[[rules]]\nname = \"a\"\ndiscard = true\n[[rules]]\nname = \"a\"\ndiscard = true\n", "c.toml:5:8: duplicate rule name \"a\" (first used at line 2)"),
        ("[settings]\nclipboard = \"xclp\"\n", "c.toml:2:13: settings.clipboard: unknown backend \"xclp\""),
        ("[settings]\ndedupe_ms = -1\n", "c.toml:2:13: settings.dedupe_ms: expected an integer from 0 to 60000, found -1"),
        ("[settings]\nclean = \"yes\"\n", "c.toml:2:9: settings.clean: expected true or false, found a string"),
        ("[[rules]]\ncopy = \"{too}\"\n", "c.toml:2:8: copy: unknown placeholder {too}"),
        ("[[rules]]\ndiscard = false\n", "c.toml:2:11: discard = false is not an action"),
        ("[[rules]]\nmatch.scheme = \"https:\"\ndiscard = true\n", "match.scheme: \"https:\" is not a scheme"),
        ("[[rules]]\nmatch.domain = \"https://x.org/\"\ndiscard = true\n", "match.domain: \"https://x.org/\" is not a domain"),
        ("[[rules]]\nmatch.colour = \"x\"\ndiscard = true\n", "unknown key \"colour\" in match"),
        ("[apps.x]\nargs = [\"a\"]\n", "[apps.x]: expected desktop = \"ID.desktop\" or exec"),
        ("[webmail.corp]\ncompose = \"not a url {to}\"\n", "webmail.corp.compose: expected a URL template"),
        ("[[rewrite]]\nmatch.domain = \"x.org\"\n", "[[rewrite]] #1: expected replace"),
        ("rules = 3\n", "c.toml:1:9: rules: expected [[rules]] tables, found an integer"),
        ("[sttings]\n", "unknown key \"sttings\" in the top level; did you mean \"settings\"?"),
    ])
    func reportsPreciseErrors(text: String, expected: String) {
        do {
            // A target naming nothing installed loads (the rest of the config stands) and is reported.
            let missing = try ConfigLoader.load(text: text, path: "c.toml").missingAppsError
            #expect(missing?.description.contains(expected) == true, "loaded a broken config: \(missing?.description ?? "no error")")
        } catch {
            #expect(error.description.contains(expected), "got: \(error.description)")
        }
    }

    @Test func reportsEveryErrorNotJustTheFirst() {
        let text = "[[rules]]\nopne = \"x\"\n[[rules]]\nmatch.domain = 1\ndiscard = true\n[settings]\nclean = 2\n"
        do {
            _ = try ConfigLoader.load(text: text, path: "c.toml")
            Issue.record("loaded a broken config")
        } catch {
            let lines = error.diagnostics.map { $0.position.line }
            #expect(lines == [1, 2, 4, 7], "\(error.description)")
        }
    }

    @Test(arguments: [
        ("binary", String(decoding: [0, 1, 2, 0xFF, 0xFE, 7, 8] as [UInt8], as: UTF8.self)),
        ("deeply nested", String(repeating: "a = [", count: 5000)),
        ("deep tables", "x = " + String(repeating: "{a = ", count: 3000) + "1" + String(repeating: "}", count: 3000)),
    ])
    func hostileConfigsFailCleanly(name: String, text: String) {
        #expect(throws: ConfigError.self) { try ConfigLoader.load(text: text, path: "c.toml") }
    }

    @Test func tenThousandRulesLoad() throws {
        var text = ""
        for i in 0..<10_000 { text += "[[rules]]\nname = \"r\(i)\"\nmatch.domain = \"d\(i).example\"\ndiscard = true\n" }
        let config = try ConfigLoader.load(text: text, path: "c.toml")
        #expect(config.rules.count == 10_000)
    }

    @Test func recentSettingIsBoundedAndTyposAreSuggested() throws {
        #expect(try ConfigLoader.load(text: "[settings]\nrecent = 0\n", path: "c").settings.recent == 0)
        #expect(try ConfigLoader.load(text: "", path: "c").settings.recent == 200)
        #expect(throws: (any Error).self) { try ConfigLoader.load(text: "[settings]\nrecent = -1\n", path: "c") }
        do {
            _ = try ConfigLoader.load(text: "[settings]\nrecnet = 5\n", path: "c")
            Issue.record("a typo was accepted")
        } catch {
            #expect("\(error)".contains("did you mean \"recent\""), "\(error)")
        }
    }
}
