import DBus
import Foundation
import TestSupport
import Testing

/// Issue 23 through the real daemon: a warned link opens with a notification naming the
/// look-alike, an ask, a held link with Open anyway (and in `recent`), the real Debian uBlock
/// lists, link text from Markdown and HTML, `Open`'s `context`, and the chooser's ASCII title.
@Suite(.serialized) struct SafetyIntegrationTests {
    static func config(_ settings: String = "") -> String {
        """
        [settings]
        dedupe_ms = 0
        \(settings)

        [default]
        open = "browser.desktop"

        [[rules]]
        name = "Pay"
        match.domain = "paypal.com"
        open = "work.desktop"

        [[rules]]
        name = "Bank"
        match.domain = "bank.example"
        open = "work.desktop"
        """
    }

    /// The notifications openurld sent, once `count` of them are there (closed first, so dunst
    /// files them in its history).
    func shown(_ server: NotificationServer, count: Int) throws -> [DunstHistoryEntry] {
        try server.closeAll()
        _ = try server.waitForHistory { $0.filter { $0.appName == "openurld" }.count >= count }
        try server.closeAll()
        return try server.history().filter { $0.appName == "openurld" }
    }

    func open(_ harness: DaemonHarness, _ url: String, context: [(String, DBusValue)] = []) throws -> [String: DBusValue] {
        let options: [(String, DBusValue)] = context.isEmpty ? [] : [("context", .vardict(pairs: context))]
        return try harness.call("Open", [.string(url), .vardict(pairs: options)]).first?.dictionary ?? [:]
    }

    func recent(_ harness: DaemonHarness) throws -> [[String: DBusValue]] {
        try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
    }

    /// Picks `key` on the notification that offers it, as a user would from dunst's menu.
    func choose(_ server: NotificationServer, _ key: String, label: String) -> Bool {
        var chosen = false
        _ = eventually(timeout: 5) {
            if !chosen, (try? server.chooseAction(key: key)) != nil { chosen = server.lastMenu.contains { $0.contains(label) } }
            return chosen
        }
        return chosen
    }

    @Test func aWarnedLinkOpensWithANotificationNamingTheLookAlike() throws {
        let harness = try DaemonHarness(config: Self.config(), name: "safetywarn", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let reply = try open(harness, "https://paypa1.com/login")
        #expect(reply["outcome"]?.string == "done")
        #expect(reply["safety"]?.dictionary?["verdict"]?.string == "warn")
        #expect(harness.browser.waitForRecords(1) == [["https://paypa1.com/login"]])
        let notes = try shown(server, count: 1)
        let note = try #require(notes.first, "no notification")
        #expect(note.summary == "Careful: Opened paypa1.com in Recording Browser", "\(notes.map(\.summary))")
        // dunst reads markup, so the body was sent escaped once.
        let body = note.body.replacingOccurrences(of: "&#39;", with: "'")
        #expect(body.contains("paypa1.com: looks like paypal.com, which your rule 'Pay' opens in work.desktop"), "\(note.body)")
        // A Unicode look-alike is named in ASCII, title and body.
        _ = try open(harness, "https://p\u{430}ypal.com/")
        let idn = try shown(server, count: 2).first { $0.summary.contains("xn--") }
        #expect(idn?.summary == "Careful: Opened xn--pypal-4ve.com in Recording Browser", "\((try? server.history().map(\.summary)) ?? [])")
        #expect(idn.map { !$0.body.contains("\u{430}") } == true)
    }

    /// Issue 32: the daemon maps ICU (2.7 MB) only once a host needs it. ASCII links, look-alike
    /// checks included, leave it unloaded; the first Unicode host loads it and is judged as before.
    @Test func icuIsLoadedOnlyWhenAUnicodeHostNeedsIt() throws {
        let harness = try DaemonHarness(config: Self.config(), name: "safetyicu")
        func icuMapped() throws -> [String] {
            let maps = try String(contentsOfFile: "/proc/\(try harness.daemonPID())/maps", encoding: .utf8)
            return Array(Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) }.filter { $0.hasPrefix("libicu") }))
        }
        #expect(try open(harness, "https://paypa1.com/login")["safety"]?.dictionary?["verdict"]?.string == "warn")
        #expect(try open(harness, "https://www.example.org/")["outcome"]?.string == "done")
        let before = try icuMapped()
        #expect(before.isEmpty, "ICU was loaded for ASCII hosts: \(before)")
        let idn = try open(harness, "https://p\u{430}ypal.com/")
        #expect(idn["safety"]?.dictionary?["verdict"]?.string == "warn", "\(idn)")
        let loaded = try icuMapped()
        #expect(loaded.contains { $0.hasPrefix("libicuuc") } && loaded.contains { $0.hasPrefix("libicui18n") }, "\(loaded)")
    }

    @Test func safetyAskTurnsAWarnedLinkIntoAQuestion() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"ask\"\nask_with = \"notification\""), name: "safetyask", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let reply = try open(harness, "https://paypa1.com/a")
        #expect(reply["decision"]?.string == "ask")
        #expect(reply["outcome"]?.string == "asking")
        #expect(reply["choices"]?.stringArray?.first == "browser.desktop")
        #expect(choose(server, "browser.desktop", label: "Careful: open paypa1.com with"), "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [["https://paypa1.com/a"]])
        #expect(eventually { (try? recent(harness).first?["outcome"]?.string) == "done" })
    }

    @Test func aHeldLinkOpensAnywayAndIsInRecent() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"block\""), name: "safetyhold", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let url = "https://paypa1.com/held"
        let reply = try open(harness, url)
        #expect(reply["decision"]?.string == "held")
        #expect(reply["target"]?.string == "browser.desktop")
        #expect(reply["outcome"]?.string?.hasPrefix("held: paypa1.com: looks like paypal.com") == true, "\(reply)")
        let held = try #require(try recent(harness).first)
        #expect(held["url"]?.string == url)
        #expect(held["outcome"]?.string?.hasPrefix("held: ") == true)
        // `openurl recent` tells the truth.
        let listed = try harness.run([harness.openurl, "recent"])
        #expect(listed.stdout.contains("held: paypa1.com"), "\(listed)")
        // The daemon's own record: held, and no launch (each launch would be a `done` entry).
        let before = try harness.outcomes(of: url)
        #expect(before.count == 1 && before.first?.hasPrefix("held: ") == true, "\(before)")
        #expect(harness.browser.records().isEmpty, "a held link must not open")
        #expect(choose(server, "open-anyway", label: "Open anyway"), "menu: \(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Link held: paypa1.com may mislead") }, "\(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        #expect(eventually { (try? recent(harness).first?["outcome"]?.string) == "done" }, "\((try? recent(harness)) ?? [])")
    }

    @Test func reopeningAHeldLinkOpensIt() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"block\""), name: "safetyreopen")
        let reply = try open(harness, "https://paypa1.com/again")
        let id = try #require(reply["id"]?.uint32)
        #expect(reply["decision"]?.string == "held")
        let result = try harness.run([harness.openurl, "reopen", "\(id)"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://paypa1.com/again"]])
    }

    /// The sites opened lately are known domains: read from recent.tsv when the daemon starts,
    /// and added as links open.
    @Test func sitesOpenedLatelyBecomeKnownDomains() throws {
        let harness = try DaemonHarness(config: Self.config(), name: "safetyvisited")
        let state = harness.desktop.stateHome + "/openurld"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let line = ["1", "1700000000.0", "https://www.google.com/", "https://www.google.com/", "open", "browser.desktop", "", "", "done"]
        let discarded = ["2", "1700000001.0", "https://goggle.example/", "https://goggle.example/", "discard", "", "", "", "done"]
        try (line.joined(separator: "\t") + "\n" + discarded.joined(separator: "\t") + "\n").write(toFile: state + "/recent.tsv", atomically: true, encoding: .utf8)
        func verdict(_ url: String) throws -> [String: DBusValue] {
            try harness.call("Explain", [.string(url), .vardict([:])]).first?.dictionary?["safety"]?.dictionary ?? [:]
        }
        // Read beside the loop at start: wait for it.
        #expect(eventually { (try? verdict("https://goog1e.com/")["verdict"]?.string) == "warn" }, "\((try? verdict("https://goog1e.com/")) ?? [:])")
        #expect(try verdict("https://goog1e.com/")["summary"]?.string == "goog1e.com: looks like google.com, which you opened recently")
        #expect(try verdict("https://www.google.com/")["verdict"]?.string == "safe")
        // A discarded link is no site you visit.
        #expect(try verdict("https://gogg1e.example/")["verdict"]?.string == "safe")
        // A click that opens adds its site at once.
        #expect(try verdict("https://news.ycornbinator.com/")["verdict"]?.string == "safe")
        #expect(try open(harness, "https://news.ycombinator.com/item?id=1")["outcome"]?.string == "done")
        #expect(try verdict("https://news.ycornbinator.com/")["summary"]?.string == "news.ycornbinator.com: looks like ycombinator.com, which you opened recently")
        // A reload keeps them.
        #expect(try harness.run([harness.openurl, "reload"]).status == 0)
        #expect(try verdict("https://news.ycornbinator.com/")["verdict"]?.string == "warn")
    }

    /// A URL the URLhaus list names, and a host the badware list names, as they are in the
    /// installed package today.
    static func listed() throws -> (url: String, host: String) {
        let assets = "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net/assets"
        guard let urlhaus = try? String(contentsOfFile: assets + "/thirdparties/urlhaus-filter/urlhaus-filter-online.txt", encoding: .utf8),
              let badware = try? String(contentsOfFile: assets + "/ublock/badware.min.txt", encoding: .utf8) else {
            Issue.record("install Debian's webext-ublock-origin-firefox (the uBlock Origin lists)")
            throw HarnessError("webext-ublock-origin-firefox missing")
        }
        // `||host/path^$all`: a URL entry; `||host^$doc` (or `||host^`): a whole host.
        let url = urlhaus.split(separator: "\n").lazy.compactMap { line -> String? in
            guard line.hasPrefix("||"), let caret = line.firstIndex(of: "^"), line[..<caret].contains("/"),
                  !line[..<caret].contains("*") else { return nil }
            return "http://" + line.dropFirst(2)[..<caret]
        }.first
        let host = badware.split(separator: "\n").lazy.compactMap { line -> String? in
            guard line.hasPrefix("||"), let caret = line.firstIndex(of: "^"), !line[..<caret].contains("/"), !line[..<caret].contains("*"),
                  line[caret...] == "^" || line[caret...].hasPrefix("^$doc") || line[caret...].hasPrefix("^$all") else { return nil }
            return String(line.dropFirst(2)[..<caret])
        }.first
        return (try #require(url, "no URL entry in URLhaus's list"), try #require(host, "no host entry in the badware list"))
    }

    @Test func theDebianUBlockListsBlockWhatTheyName() throws {
        let (url, host) = try Self.listed()
        let harness = try DaemonHarness(config: Self.config(), name: "safetylists")
        // `openurl test --json` names the list; the daemon holds the link.
        let tested = try harness.run([harness.openurl, "test", "--json", url])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(tested.stdout.utf8)) as? [String: Any], "\(tested)")
        let safety = try #require(object["safety"] as? [String: Any])
        #expect(safety["verdict"] as? String == "block", "\(url): \(safety)")
        #expect((safety["block"] as? [String: Any])?["list"] as? String == "URLhaus malicious URLs", "\(safety)")
        #expect(object["decision"] as? String == "held")
        let reply = try open(harness, url)
        #expect(reply["decision"]?.string == "held")
        #expect(reply["outcome"]?.string?.contains("listed in URLhaus malicious URLs") == true, "\(reply)")
        let badware = try open(harness, "https://\(host)/")
        #expect(badware["safety"]?.dictionary?["block"]?.dictionary?["list"]?.string == "uBlock filters – Badware risks", "\(host): \(badware)")
        // Held, by the daemon's own record (a launch would be a `done` entry), so nothing opened.
        #expect(try harness.outcomes(of: url).allSatisfy { $0.hasPrefix("held: ") })
        #expect(try harness.outcomes(of: "https://\(host)/").allSatisfy { $0.hasPrefix("held: ") })
        #expect(harness.browser.records().isEmpty)
        // `openurl check` reads and counts both lists; `blocklists = []` turns them off.
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.status == 0 && check.stdout.contains("block list: URLhaus malicious URLs (") && check.stdout.contains("block list: uBlock filters – Badware risks ("), "\(check)")
        try harness.writeConfig(Self.config("blocklists = []"))
        #expect(try harness.run([harness.openurl, "reload"]).status == 0)
        #expect(try open(harness, url)["decision"]?.string == "open")
    }

    /// A daemon stopped right after the decision that read Debian's lists lets their compiled
    /// form be written before it exits (with its name already free), so the next start reads
    /// them instead of parsing them, and no `….snapshot.new-PID` is left behind.
    @Test func aDaemonStoppedRightAfterReadingTheListsLeavesThemCompiled() throws {
        let (url, host) = try Self.listed()
        let harness = try DaemonHarness(config: Self.config(), name: "safetysnapshots")
        #expect(try open(harness, url)["decision"]?.string == "held")
        #expect(try open(harness, "https://\(host)/")["decision"]?.string == "held")
        let pid = pid_t(try harness.daemonPID())
        kill(pid, SIGTERM)
        let start = Date()
        while FileManager.default.fileExists(atPath: "/proc/\(pid)"), Date().timeIntervalSince(start) < 10 { usleep(2_000) }
        let directory = harness.desktop.home + "/.cache/openurld/blocklists"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        #expect(names.filter { $0.hasSuffix(".snapshot") }.count == 2, "\(directory): \(names)")
        #expect(!names.contains { $0.contains(".new-") }, "\(names)")
    }

    @Test func aBlockListThatCannotBeReadIsAnErrorAtItsLine() throws {
        let harness = try DaemonHarness(name: "safetybadlist")
        let list = harness.desktop.root + "/mine.txt"
        try "# my hosts\n0.0.0.0 tracker.example\n||evil.example^\n".write(toFile: list, atomically: true, encoding: .utf8)
        try harness.writeConfig("[settings]\nblocklists = [\"\(list)\", \"missing.txt\"]\n")
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.status == 3, "\(check)")
        #expect(check.stderr.contains("config.toml:2:\(19 + list.count): settings.blocklists: \(harness.desktop.configHome)/openurld/missing.txt: cannot be read"), "\(check)")
        try harness.writeConfig("[settings]\nblocklists = [\"\(list)\"]\n")
        let good = try harness.run([harness.openurl, "check"])
        #expect(good.status == 0 && good.stdout.contains("block list: mine.txt (\(list)): 2 hosts, 0 URLs"), "\(good)")
        let tested = try harness.run([harness.openurl, "test", "https://www.tracker.example/x"])
        #expect(tested.stdout.contains("decision:  held") && tested.stdout.contains("listed in mine.txt (0.0.0.0 tracker.example)"), "\(tested)")
        let status = try harness.run([harness.openurl, "status"])
        #expect(status.stdout.contains("block list: mine.txt (\(list)): 2 hosts"), "\(status.stdout)")
    }

    @Test(arguments: [
        ("see [paypal.com](https://evil.example/login)", "paypal.com"),
        ("<p><a href=\"https://evil.example/login\">www.paypal.com</a></p>", "www.paypal.com"),
        ("paypal.com <https://evil.example/login>", "paypal.com"),
    ])
    func extractReportsLinkText(text: String, linkText: String) throws {
        let harness = try DaemonHarness(config: Self.config(), name: "safetyextract")
        let file = harness.desktop.root + "/text.txt"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try harness.run([harness.openurl, "extract", "--json", file])
        // The shown text may itself read as a link (linkify finds paypal.com too): take the target's line.
        let objects = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let object = try #require(objects.first { $0["url"] as? String == "https://evil.example/login" }, "\(result)")
        #expect(object["link_text"] as? String == linkText, "\(object)")
        // The same text through the verdict: the link says paypal.com but goes to evil.example.
        let tested = try harness.run([harness.openurl, "test", "--json", "--link-text", linkText, "https://evil.example/login"])
        #expect(tested.stdout.contains("\"kind\":\"link-text-mismatch\""), "\(tested)")
    }

    @Test func openTakesTheLinkTextAsContextAndOpenTextFindsIt() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"block\""), name: "safetycontext")
        let explained = try harness.call("Explain", [.string("https://evil.example/"), .vardict(pairs: [
            ("context", .vardict(pairs: [("link-text", .string("paypal.com")), ("origin-url", .string("https://mail.example/inbox"))])),
        ])]).first?.dictionary ?? [:]
        let safety = explained["safety"]?.dictionary ?? [:]
        #expect(safety["verdict"]?.string == "warn", "\(explained)")
        #expect(safety["reasons"]?.array?.first?.dictionary?["kind"]?.string == "link-text-mismatch")
        #expect(safety["origin_url"]?.string == "https://mail.example/inbox")
        #expect(explained["trace"]?.stringArray?.contains { $0.hasPrefix("safety: warn: evil.example: the link says paypal.com") } == true)
        // Without the context the same link is safe.
        #expect(try open(harness, "https://evil.example/")["decision"]?.string == "open")
        #expect(harness.browser.waitForRecords(1).count == 1)
        // OpenText passes each link's Markdown text to the verdict: this one is held.
        let routed = try harness.call("OpenText", [.string("pay here: [paypal.com](https://evil.example/pay)"), .vardict([:])])
        #expect(routed.first?.stringArray?.contains("https://evil.example/pay") == true, "\(routed)")
        #expect(eventually { (try? recent(harness).contains { $0["outcome"]?.string?.hasPrefix("held: evil.example: the link says paypal.com") == true }) == true },
                "\((try? recent(harness)) ?? [])")
        #expect(!harness.browser.records().contains(["https://evil.example/pay"]))
        // A wrong type is refused, not crashed on.
        #expect(throws: DBusError.self) {
            try harness.call("Open", [.string("https://evil.example/"), .vardict(pairs: [("context", .string("paypal.com"))])])
        }
    }

    /// The verdict reaches the window: `ßank.example` passes the IDN rules, but it looks like
    /// bank.example, which a rule names, so the title shows it in ASCII.
    @Test func theChoosersTitleIsASCIIForALookAlike() throws {
        for tool in ["xdotool"] where (try? Command.run(["sh", "-c", "command -v \(tool)"], environment: ProcessInfo.processInfo.environment))?.status != 0 {
            Issue.record("\(tool) is not installed (Debian package \(tool))")
            return
        }
        let harness = try DaemonHarness(config: Self.config("safety = \"ask\""), name: "safetychooser", withDesktopSession: true)
        let reply = try open(harness, "https://\u{DF}ank.example/")
        #expect(reply["outcome"]?.string == "asking")
        var window: String?
        _ = try eventually(timeout: 15) {
            window = try harness.run(["xdotool", "search", "--onlyvisible", "--name", "^Open link"]).stdout.split(separator: "\n").first.map(String.init)
            return window != nil
        }
        let id = try #require(window, "the chooser window never appeared")
        let title = try harness.run(["xdotool", "getwindowname", id]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(title == "Open link — xn--ank-4ka.example", "\(title)")
        #expect(try harness.run(["xdotool", "windowfocus", "--sync", id, "key", "Escape"]).status == 0)
        #expect(eventually { (try? recent(harness).first?["outcome"]?.string) == "cancelled" })
    }
}
