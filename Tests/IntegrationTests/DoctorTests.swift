import Foundation
import JSON
import TestSupport
import Testing

/// `openurl doctor` with the real tools (xdg-utils under each desktop's detection, gio, the
/// portal, sensible-browser, python3 -m webbrowser, exo-open, kde-open5) in an isolated home:
/// what goes around openurld before `--fix`, what reaches it after, every file back after
/// `openurl uninstall`, and a recording browser that no probe ever reaches.
@Suite(.serialized) struct DoctorTests {
    /// One row of `openurl doctor --json`.
    struct Row {
        var verdict: String
        var milliseconds: Double?
        var program: String?
        var why: String
    }

    /// Runs `openurl doctor --json`; its rows by path.
    static func doctor(_ harness: DaemonHarness, _ options: [String] = [], extra: [String: String]) throws -> (status: Int32, rows: [String: Row], output: String) {
        let result = try harness.run([harness.openurl, "doctor", "--json"] + options, extra: extra, timeout: 60)
        var rows: [String: Row] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let object = try? JSONValue(parsing: String(line)), let path = object["path"]?.string else { continue }
            rows[path] = Row(verdict: object["verdict"]?.string ?? "", milliseconds: Self.number(object["milliseconds"]),
                             program: object["program"]?.string, why: object["why"]?.string ?? "")
        }
        return (result.status, rows, result.stdout + result.stderr)
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let whole)?: return Double(whole)
        case .fraction(let fraction)?: return fraction
        default: return nil
        }
    }

    static let tools = [("sensible-browser", "sensible-utils"), ("python3", "python3"), ("exo-open", "exo-utils"), ("kde-open5", "kde-cli-tools"),
                        ("update-alternatives", "dpkg")]

    @Test func beforeFixTheAlternativesGoAroundAfterItTheyReachAndUninstallGivesEveryFileBack() throws {
        for (program, package) in Self.tools where ChildProcess.findExecutable(program) == nil {
            throw HarnessError("\(program) not found: install \(package) (apt-get install \(package))")
        }
        let harness = try DesktopPathTests.harness(.gnome, name: "doctor", serviceDirectories: ["/usr/share/dbus-1/services"])
        try DesktopPathTests().installEntry(harness)
        try PriorState.write(.gnome, harness)
        // The user's ~/.profile sends $BROWSER to the recording browser; ~/.local/bin comes first
        // on PATH, as Debian's ~/.profile puts it.
        let home = harness.desktop.home
        try "export BROWSER=\(harness.browser.executable)\n".write(toFile: home + "/.profile", atomically: true, encoding: .utf8)
        let bin = home + "/.local/bin"
        let extra = ["PATH": bin + ":" + (harness.environment["PATH"] ?? "/usr/bin:/bin"), "BROWSER": harness.browser.executable,
                     "HOME": home]
        let snapshot = try FileTree(harness.desktop)
        #expect(try harness.run([harness.openurl, "install"], extra: extra).status == 0)

        let before = try Self.doctor(harness, extra: extra)
        #expect(before.status == 1, "\(before.output)")
        for path in ["gio open", "xdg-open (GNOME, this session)", "xdg-open (none)", "xdg-open (KDE)", "xdg-open (XFCE)", "xdg-open (LXQt)",
                     "xdg-open (MATE)", "xdg-email", "exo-open", "kde-open5", "Flatpak and Snap apps (the OpenURI portal)"] {
            #expect(before.rows[path]?.verdict == "reaches", "\(path): \(before.output)")
            #expect(before.rows[path]?.milliseconds != nil, "\(path) was probed: \(before.output)")
        }
        #expect(before.rows["x-www-browser"]?.verdict == "goes-around", "\(before.output)")
        let browserRow = before.rows["$BROWSER"]
        #expect(browserRow?.verdict == "goes-around" && browserRow?.program == harness.browser.executable, "\(before.output)")
        #expect(browserRow?.why.contains(home + "/.profile:1") == true, "the file that sets it is named: \(before.output)")
        for path in ["sensible-browser", "python3 -m webbrowser"] {
            #expect(before.rows[path]?.program == harness.browser.executable, "\(path) honours $BROWSER: \(before.output)")
        }
        // The paths that go around were not run: nothing reached the browser they lead to.
        #expect(harness.browser.records().isEmpty, "no probe launches an app: \(harness.browser.records())")
        // Each probe is recorded as one, and `recent` leaves them out unless asked.
        let recent = try harness.run([harness.openurl, "recent"])
        #expect(recent.stdout.contains("no links routed yet"), "\(recent)")
        let probes = try harness.run([harness.openurl, "recent", "--probes", "--json"])
        let outcomes = probes.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }.map { $0["outcome"]?.string ?? "" }
        #expect(outcomes.count == before.rows.values.filter { $0.milliseconds != nil }.count && outcomes.allSatisfy { $0 == "probe" }, "\(probes)")

        let fix = try harness.run([harness.openurl, "doctor", "--fix"], extra: extra, timeout: 60)
        #expect(fix.stdout.contains("fixed: \(bin)/x-www-browser"), "\(fix)")
        #expect(fix.stdout.contains("fixed: \(harness.desktop.configHome)/environment.d/90-openurld-browser.conf"), "\(fix)")
        #expect(fix.stdout.contains("note: $BROWSER is also set in \(home)/.profile:1"), "\(fix)")
        #expect(FileManager.default.isExecutableFile(atPath: bin + "/x-www-browser"))

        // The next login has the environment.d entry's BROWSER.
        let conf = try String(contentsOfFile: harness.desktop.configHome + "/environment.d/90-openurld-browser.conf", encoding: .utf8)
        let next = conf.split(separator: "\n").first { $0.hasPrefix("BROWSER=") }.map { String($0.dropFirst("BROWSER=".count)) } ?? ""
        #expect(FileManager.default.isExecutableFile(atPath: next), "\(conf)")
        var login = extra
        login["BROWSER"] = next
        let after = try Self.doctor(harness, extra: login)
        for path in ["x-www-browser", "sensible-browser", "$BROWSER", "python3 -m webbrowser", "gio open"] {
            #expect(after.rows[path]?.verdict == "reaches" && after.rows[path]?.milliseconds != nil, "\(path) after --fix: \(after.output)")
        }
        #expect(harness.browser.records().isEmpty, "no probe launches an app: \(harness.browser.records())")

        #expect(try harness.run([harness.openurl, "uninstall"], extra: extra).status == 0)
        let differences = try FileTree(harness.desktop).differences(from: snapshot)
        #expect(differences == [], "uninstall gives back every file: \(differences)")
        #expect(!FileManager.default.fileExists(atPath: bin + "/x-www-browser") && !FileManager.default.fileExists(atPath: bin + "/sensible-browser"))
    }

    /// A probe link goes through the handler like any click and is recorded, never opened, never
    /// taken for a duplicate, and `recent` hides it unless asked.
    @Test func aProbeIsRecordedNeverOpenedAndHiddenFromRecent() throws {
        let harness = try DaemonHarness(config: "[default]\nopen = \"work.desktop\"\n", name: "probe")
        for _ in 0..<2 {
            let result = try harness.run([harness.openurl, "https://openurld.invalid/probe/handler-1"])
            #expect(result.status == 0, "\(result)")
        }
        #expect(try harness.outcomes(of: "https://openurld.invalid/probe/handler-1") == ["probe", "probe"])
        #expect(try harness.run([harness.openurl, "mailto:probe-mail-1@openurld.invalid"]).status == 0)
        #expect(try harness.outcomes(of: "mailto:probe-mail-1@openurld.invalid") == ["probe"])
        usleep(300_000)
        #expect(harness.browser.records().isEmpty, "a probe is never launched")
        #expect(try harness.run([harness.openurl, "recent"]).stdout.contains("no links routed yet"))
        #expect(try harness.run([harness.openurl, "recent", "--probes"]).stdout.contains("openurl doctor probe"))
        // A link that only looks like one is routed as usual.
        #expect(try harness.run([harness.openurl, "https://openurld.invalid.example.org/probe/x"]).status == 0)
        #expect(harness.browser.waitForRecords(1).first?.first == "--work")
    }

    /// A desktop list written after install (a browser's "make me the default" on GNOME) goes
    /// around openurld; `--fix` takes it over as install would, and uninstall gives it back.
    @Test func fixTakesOverADesktopListTheTakeoverMissed() throws {
        let harness = try DesktopPathTests.harness(.gnome, name: "doctor-missed")
        try DesktopPathTests().installEntry(harness)
        try PriorState.gioMime(harness)
        #expect(try harness.run([harness.openurl, "install"]).status == 0)
        let list = harness.desktop.configHome + "/gnome-mimeapps.list"
        let written = "[Default Applications]\nx-scheme-handler/https=browser.desktop;\n"
        try written.write(toFile: list, atomically: true, encoding: .utf8)
        let before = try Self.doctor(harness, extra: [:])
        let gnome = before.rows["xdg-open (GNOME, this session)"]
        #expect(gnome?.verdict == "goes-around" && gnome?.why.contains(list) == true, "\(before.output)")
        #expect(before.rows["gio open"]?.verdict == "goes-around", "\(before.output)")
        let fix = try harness.run([harness.openurl, "doctor", "--fix"], timeout: 60)
        #expect(fix.stdout.contains("fixed: \(list) names openurld"), "\(fix)")
        let after = try Self.doctor(harness, extra: [:])
        #expect(after.rows["xdg-open (GNOME, this session)"]?.verdict == "reaches" && after.rows["gio open"]?.milliseconds != nil, "\(after.output)")
        #expect(harness.browser.records().isEmpty, "no probe launches an app")
        #expect(try harness.run([harness.openurl, "uninstall"]).status == 0)
        #expect(try String(contentsOfFile: list, encoding: .utf8) == written, "uninstall gives the list back as the browser wrote it")
    }

    /// Without a session bus nothing can be probed: the rows are still worked out, and the
    /// doctor says why it proved none of them.
    @Test func withoutABusItSaysNothingWasProbed() throws {
        let harness = try DaemonHarness(name: "doctor-nobus")
        let result = try harness.run([harness.openurl, "doctor"], extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no session bus: nothing was probed"), "\(result)")
        #expect(result.stdout.contains("gio open"), "\(result)")
    }

    @Test func systemFixNeedsRootAndFix() throws {
        let harness = try DaemonHarness(name: "doctor-usage")
        let usage = try harness.run([harness.openurl, "doctor", "--system"])
        #expect(usage.status == 2 && usage.stderr.contains("--system goes with --fix"), "\(usage)")
        let machine = try SystemMachine()
        let user = try machine.addUser()
        let refused = try user.run([machine.openurl, "doctor", "--fix", "--system"])
        #expect(refused.status == 4 && refused.stderr.contains("run it as root"), "\(refused)")
    }

    /// As root: the x-www-browser alternative names openurl (sensible-browser, which runs
    /// /usr/bin/x-www-browser by path, then reaches openurld), and `uninstall --system` gives
    /// dpkg's record back byte for byte.
    @Test func systemFixTakesTheBrowserAlternativeAndUninstallGivesItBack() throws {
        guard geteuid() == 0 else { throw HarnessError("the alternatives are the system's: run this as root (CI does)") }
        let admin = "/var/lib/dpkg/alternatives/x-www-browser"
        guard let recorded = FileManager.default.contents(atPath: admin) else {
            throw HarnessError("\(admin) missing: install a browser that provides x-www-browser (apt-get install firefox-esr)")
        }
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/etc/alternatives/x-www-browser")
        let harness = try DaemonHarness(config: "[default]\nopen = \"work.desktop\"\n", name: "doctor-system", withDesktopSession: true)
        try DesktopPathTests().installEntry(harness)
        #expect(try harness.run([harness.openurl, "install"]).status == 0)
        let system = harness.desktop.root + "/etc-xdg"
        try FileManager.default.createDirectory(atPath: system, withIntermediateDirectories: true)
        let rootExtra = ["XDG_CONFIG_DIRS": system, "XDG_DATA_DIRS": harness.desktop.root + "/share"]
        let fix = try harness.run([harness.openurl, "doctor", "--fix", "--system"], extra: rootExtra, timeout: 60)
        let openurl = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/alternatives/x-www-browser")) ?? ""
        defer {
            // Whatever happened, the machine's alternative must not stay ours.
            if openurl != link { _ = try? Command.run(["update-alternatives", "--remove", "x-www-browser", openurl]) }
            _ = try? Command.run(["update-alternatives", "--remove", "gnome-www-browser", openurl])
        }
        #expect(fix.stdout.contains("the x-www-browser alternative now points at"), "\(fix)")
        #expect(openurl.hasSuffix("/openurl") && openurl != link, "\(openurl)")
        let doctor = try Self.doctor(harness, extra: ["BROWSER": ""])
        #expect(doctor.rows["sensible-browser"]?.verdict == "reaches" && doctor.rows["sensible-browser"]?.milliseconds != nil, "\(doctor.output)")
        #expect(harness.browser.records().isEmpty, "no probe launches an app")

        let uninstall = try harness.run([harness.openurl, "uninstall", "--system"], extra: rootExtra)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/etc/alternatives/x-www-browser") == link)
        #expect(FileManager.default.contents(atPath: admin) == recorded, "dpkg's record of the alternative is as before")
    }
}
