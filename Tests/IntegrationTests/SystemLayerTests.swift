import Foundation
import TestSupport
import Testing

/// One machine's policy for every user: real users, each with their own session bus and
/// openurld, and one system configuration in a temporary `XDG_CONFIG_DIRS`.
@Suite(.serialized) struct SystemLayerTests {
    static let system = """
        [[rules]]
        name = "Intranet"
        match.domain = "intranet.example"
        open = "managed.desktop"
        locked = true

        [[rules]]
        name = "Video"
        match.domain = "video.example"
        open = "managed.desktop"
        recommended = true

        [[sitelist]]
        name = "Edge site list"
        path = "edge-sites.xml"
        format = "emie-v2"
        open = "managed.desktop"

        [[sitelist]]
        name = "Chrome LBS list"
        path = "/SYSTEM/chrome-urls.txt"
        format = "lines"
        open = "managed.desktop"

        [default]
        open = "browser.desktop"
        """

    /// Microsoft's v.2 schema, as the Enterprise Mode Site List Manager writes it.
    static func edgeList(version: Int, extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <site-list version="\(version)">
          <created-by>
            <tool>EMIESiteListManager</tool>
            <version>10.0.14357.1004</version>
            <date-created>01/01/2026 10:00:00</date-created>
          </created-by>
          <site url="erp.example">
            <compat-mode>IE8Enterprise</compat-mode>
            <open-in>IE11</open-in>
          </site>
          <site url="erp.example/modern">
            <compat-mode>Default</compat-mode>
            <open-in>MSEdge</open-in>
          </site>
          \(extra)
        </site-list>
        """
    }

    /// Chrome's BrowserSwitcherUrlList, one rule a line.
    static let chromeList = "# Legacy Browser Support\nhr.example\n!public.hr.example\nwiki.example/old/\n"

    static let user = """
        [[rules]]
        name = "Mine"
        match.domain = ["intranet.example", "video.example", "hr.example"]
        open = "browser.desktop"
        """

    static let remembered = """
        [[rules]]
        name = "Remembered: intranet.example"
        match.domain = "intranet.example"
        open = "browser.desktop"
        """

    /// The machine with its system configuration and two users whose daemons run.
    static func machine() throws -> (SystemMachine, [TestUser]) {
        let machine = try SystemMachine()
        try machine.write(system.replacingOccurrences(of: "/SYSTEM", with: machine.systemFolder), to: machine.systemFolder + "/config.toml")
        try machine.write(edgeList(version: 1), to: machine.systemFolder + "/edge-sites.xml")
        try machine.write(chromeList, to: machine.systemFolder + "/chrome-urls.txt")
        var users: [TestUser] = []
        for _ in 0..<2 {
            let user = try machine.addUser()
            // As a user with umask 022 makes them: a folder and a file everyone may read.
            try user.write(Self.user, to: ".config/openurld/config.toml", mode: 0o644, directoryMode: 0o755)
            try user.write(Self.remembered, to: ".config/openurld/remembered.toml")
            try user.startBus()
            // Activates the user's openurld and shows its rules, each with where it comes from.
            let rules = try user.run([machine.tool, "rules"])
            #expect(rules.status == 0, "\(rules)")
            users.append(user)
        }
        return (machine, users)
    }

    /// Routes `url` as a click would (`openurl URL`, through the user's daemon) and returns the launch.
    static func click(_ user: TestUser, _ machine: SystemMachine, _ url: String) throws -> String? {
        let before = user.launches().count
        let result = try user.run([machine.openurl, url])
        #expect(result.status == 0, "\(user.name) \(url): \(result)")
        return user.waitForLaunches(before + 1).dropFirst(before).first
    }

    @Test func lockedRulesWinForEveryUserAndRecommendedOnesLose() throws {
        let (machine, users) = try Self.machine()
        for user in users {
            // Locked: before the user's rule and the remembered answer.
            #expect(try Self.click(user, machine, "https://intranet.example/a") == "managed https://intranet.example/a")
            // Recommended: the user's rule wins.
            #expect(try Self.click(user, machine, "https://video.example/v") == "browser https://video.example/v")
            let disable = try user.run([machine.tool, "rules", "disable", "Intranet"])
            #expect(disable.status == 4, "\(disable)")
            #expect(disable.stderr.contains("rule \"Intranet\" is locked by the system configuration (\(machine.systemFolder)/config.toml:1)"), "\(disable)")
            let rules = try user.run([machine.tool, "rules"]).stdout
            #expect(rules.contains("1\ton \tIntranet\topen managed.desktop\tsystem \(machine.systemFolder)/config.toml:1, locked"), "\(rules)")
            #expect(rules.contains("remembered\ton \tRemembered: intranet.example\topen browser.desktop\tremembered \(user.home)/.config/openurld/remembered.toml:1"), "\(rules)")
            let explained = try user.run([machine.tool, "test", "https://intranet.example/"]).stdout
            #expect(explained.contains("rule:      Intranet (system \(machine.systemFolder)/config.toml:1, locked)"), "\(explained)")
        }
    }

    @Test func siteListsInTheirDocumentedFormatsRouteTheirSitesAndReloadInEveryDaemon() throws {
        let (machine, users) = try Self.machine()
        let expected: [(String, String)] = [
            ("https://erp.example/orders", "managed"), ("https://intranet2.erp.example/", "managed"), ("https://erp.example/modern/x", "browser"),
            ("https://hr.example/pay", "managed"), ("https://public.hr.example/", "browser"), ("https://wiki.example/old/page", "managed"),
            ("https://wiki.example/new", "browser"),
        ]
        for user in users {
            for (url, target) in expected {
                // hr.example: the site list is a system rule, so it comes before the second user's own rule.
                #expect(try Self.click(user, machine, url) == "\(target) \(url)")
            }
            let status = try user.run([machine.tool, "status"]).stdout
            #expect(status.contains("system site list Edge site list: \(machine.systemFolder)/edge-sites.xml: emie-v2 list version 1, 2 entries"), "\(status)")
            #expect(status.contains("system site list Chrome LBS list: \(machine.systemFolder)/chrome-urls.txt: lines list, 3 entries"), "\(status)")
        }
        // The administrator's tooling replaces the list; every daemon reloads by itself.
        let monitors = try users.map { try $0.monitor() }
        try machine.write(Self.edgeList(version: 2, extra: "<site url=\"crm.example\"><open-in>IE11</open-in></site>"),
                          to: machine.systemFolder + "/edge-sites.xml")
        for (user, monitor) in zip(users, monitors) {
            #expect(monitor.nextLine(containing: "ConfigReloaded") != nil, "\(user.name)'s daemon did not reload")
            #expect(try Self.click(user, machine, "https://crm.example/") == "managed https://crm.example/")
            #expect(try user.run([machine.tool, "status"]).stdout.contains("emie-v2 list version 2, 3 entries"))
        }
    }

    @Test func aBrokenSystemFileKeepsItsRulesAndTellsTheUserToAskTheAdministrator() throws {
        let (machine, users) = try Self.machine()
        let monitors = try users.map { try $0.monitor() }
        try machine.write(Self.system.replacingOccurrences(of: "/SYSTEM", with: machine.systemFolder).replacingOccurrences(of: "locked = true", with: "locked = \"yes\""),
                          to: machine.systemFolder + "/config.toml")
        for (user, monitor) in zip(users, monitors) {
            #expect(monitor.nextLine(containing: "ConfigReloaded") != nil)
            // The last good version of the file stays in force: still locked.
            #expect(try Self.click(user, machine, "https://intranet.example/b") == "managed https://intranet.example/b")
            let status = try user.run([machine.tool, "status"])
            #expect(status.status != 0, "\(status)")
            #expect(status.stdout.contains("BROKEN  system configuration: the system configuration has an error (ask your administrator)"), "\(status)")
            #expect(status.stdout.contains("\(machine.systemFolder)/config.toml:5:"), "\(status)")
            let log = (try? String(contentsOfFile: user.home + "/.local/state/openurld/log", encoding: .utf8)) ?? ""
            #expect(log.contains("the system configuration has an error (ask your administrator)"), "\(log)")
            // Only the system's: the user's own check passes, and says so.
            let check = try user.run([machine.tool, "check"])
            #expect(check.status == 0, "\(check)")
            #expect(check.stderr.contains("the system configuration has an error (ask your administrator)"))
        }
        let adminCheck = try Command.run([machine.tool, "check", "--system"], environment: machine.sessionEnvironment.merging(["HOME": machine.root]) { $1 })
        #expect(adminCheck.status == 3, "\(adminCheck)")
        #expect(adminCheck.stderr.contains("\(machine.systemFolder)/config.toml:5:10: rules.locked: expected true or false"), "\(adminCheck)")
    }

    @Test func oneUserCannotReadAnothersStateAndNoUserChangesTheSystemLayer() throws {
        let (machine, users) = try Self.machine()
        let systemBefore = machine.snapshot(machine.configDir)
        for user in users { _ = try Self.click(user, machine, "https://example.org/\(user.name)") }
        let (first, second) = (users[0], users[1])
        _ = eventually(timeout: 10) { FileManager.default.fileExists(atPath: first.home + "/.local/state/openurld/recent.tsv") }
        for relative in [".local/state/openurld/recent.tsv", ".local/state/openurld/log", ".config/openurld/remembered.toml", ".config/openurld/config.toml"] {
            let read = try second.run(["cat", first.home + "/" + relative])
            #expect(read.status != 0 && read.stdout.isEmpty, "\(second.name) read \(first.name)'s \(relative): \(read)")
        }
        for (relative, mode) in [(".local/state/openurld", 0o700), (".local/state/openurld/recent.tsv", 0o600), (".local/state/openurld/log", 0o600),
                                 (".config/openurld", 0o700)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: first.home + "/" + relative)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(relative)")
            #expect((attributes[.ownerAccountName] as? String) == first.name, "\(relative)")
        }
        let recent = try second.run([machine.tool, "recent", "--json"]).stdout
        #expect(!recent.contains(first.name) && recent.contains(second.name), "\(recent)")
        #expect(machine.snapshot(machine.configDir) == systemBefore)
    }
}
