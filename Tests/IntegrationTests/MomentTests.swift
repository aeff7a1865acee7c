import DBus
import Foundation
import TestSupport
import Testing

/// Issue 24 end to end: rules that know the moment, through the daemon and in embedded mode,
/// against real parts: python3-dbusmock's NetworkManager, Xvfb with openbox and a real window,
/// xdotool holding Shift, a browser that is already running.
@Suite(.serialized) struct MomentTests {
    /// The `Moment` property, as `openurl status` reads it.
    static func moment(_ harness: DaemonHarness) throws -> [String: String] {
        let value: DBusValue?
        do {
            value = try harness.call("Get", [.string(DaemonHarness.interface), .string("Moment")], interface: "org.freedesktop.DBus.Properties").first
        } catch {
            return ["error": "\(error)"]
        }
        var out: [String: String] = [:]
        for entry in value?.dictionaryEntries ?? [] { if let key = entry.key.string { out[key] = entry.value.string } }
        return out
    }

    /// Routes `url` through the daemon as a user's click does; returns the recorded argv.
    static func click(_ harness: DaemonHarness, _ url: String, expecting count: Int) throws -> [String] {
        let result = try harness.run([harness.openurl, url])
        #expect(result.status == 0, "\(result)")
        let records = harness.browser.waitForRecords(count)
        return records.count >= count ? records[count - 1] : []
    }

    /// Waits until the daemon's view of the network says `text` (it follows NetworkManager's signals).
    static func waitForNetwork(_ harness: DaemonHarness, _ key: String = "network", containing text: String) throws -> Bool {
        try eventually(timeout: 10) { try moment(harness)[key]?.contains(text) == true }
    }

    static let networkConfig = """
        [apps.vpn]
        exec = ["BROWSER", "--vpn", "{url}"]
        [apps.cafe]
        exec = ["BROWSER", "--cafe", "{url}"]

        [[rules]]
        name = "vpn"
        match.vpn = "Corp*"
        open = "vpn"

        [[rules]]
        name = "cafe"
        match.network = "Cafe"
        open = "cafe"

        [[rules]]
        name = "office"
        match.network = "Office*"
        match.not = { vpn = true }
        open = "work.desktop"

        [default]
        open = "browser.desktop"
        """

    @Test func theDaemonFollowsNetworkManager() throws {
        let nm = try MockNetworkManager()
        let harness = try DaemonHarness(name: "nm", session: ["DBUS_SYSTEM_BUS_ADDRESS": nm.address])
        try harness.writeConfig(Self.networkConfig.replacingOccurrences(of: "BROWSER", with: harness.browser.executable))
        #expect(try Self.click(harness, "https://x.example/1", expecting: 1) == ["https://x.example/1"])
        #expect(try Self.waitForNetwork(harness, containing: "no active connection"), "\((try? Self.moment(harness)) ?? [:])")

        let wifi = try nm.addWiFi(ssid: "Office-5G")
        let active = try nm.connect(device: wifi.device, accessPoint: wifi.accessPoint, ssid: "Office-5G")
        #expect(try Self.waitForNetwork(harness, containing: "Office-5G"), "\((try? Self.moment(harness)) ?? [:])")
        #expect(try Self.click(harness, "https://x.example/2", expecting: 2) == ["--work", "https://x.example/2"])

        // A VPN comes up: the VPN rule wins, and "office" (not on VPN) no longer holds.
        let vpn = try nm.connectVPN("Corp VPN")
        #expect(try Self.waitForNetwork(harness, "vpn", containing: "Corp VPN"), "\((try? Self.moment(harness)) ?? [:])")
        #expect(try Self.click(harness, "https://x.example/3", expecting: 3) == ["--vpn", "https://x.example/3"])
        try nm.disconnect(device: wifi.device, active: vpn)
        #expect(try Self.waitForNetwork(harness, "vpn", containing: "none active"))

        // The SSID changes while the daemon runs (roaming): the rule on the new SSID holds.
        try nm.setSSID(wifi.accessPoint, "Cafe")
        #expect(try Self.waitForNetwork(harness, containing: "SSID \"Cafe\""), "\((try? Self.moment(harness)) ?? [:])")
        #expect(try Self.click(harness, "https://x.example/4", expecting: 4) == ["--cafe", "https://x.example/4"])

        try nm.disconnect(device: wifi.device, active: active)
        #expect(try Self.waitForNetwork(harness, containing: "no active connection"))
        #expect(try Self.click(harness, "https://x.example/5", expecting: 5) == ["https://x.example/5"])
    }

    @Test func embeddedModeReadsNetworkManagerItself() throws {
        let nm = try MockNetworkManager()
        let harness = try DaemonHarness(name: "nmembedded", session: ["DBUS_SYSTEM_BUS_ADDRESS": nm.address])
        try harness.writeConfig(Self.networkConfig.replacingOccurrences(of: "BROWSER", with: harness.browser.executable))
        let tool = try BuiltProduct.path("openurl-tool")
        let extra = ["DBUS_SYSTEM_BUS_ADDRESS": nm.address]
        #expect(try harness.run([tool, "--no-daemon", "https://y.example/1"], extra: extra).status == 0)
        #expect(harness.browser.waitForRecords(1).last == ["https://y.example/1"])
        let wifi = try nm.addWiFi(ssid: "Office-5G")
        _ = try nm.connect(device: wifi.device, accessPoint: wifi.accessPoint, ssid: "Office-5G")
        #expect(try harness.run([tool, "--no-daemon", "https://y.example/2"], extra: extra).status == 0)
        #expect(harness.browser.waitForRecords(2).last == ["--work", "https://y.example/2"])
        // openurl test reads it too, and shows what each condition saw.
        let test = try harness.run([tool, "test", "https://y.example/3"], extra: extra)
        #expect(test.stdout.contains(#"rule office: matched (held: network (saw "Office-5G" (802-11-wireless, SSID "Office-5G")), not {vpn (saw no VPN)})"#), "\(test)")
    }

    @Test func withoutNetworkManagerCheckAndStatusSayWhy() throws {
        let empty = try PrivateBus()
        let harness = try DaemonHarness(name: "nonm", session: ["DBUS_SYSTEM_BUS_ADDRESS": empty.address])
        try harness.writeConfig(Self.networkConfig.replacingOccurrences(of: "BROWSER", with: harness.browser.executable))
        let check = try harness.run([harness.openurl, "check"], extra: ["DBUS_SYSTEM_BUS_ADDRESS": empty.address])
        #expect(check.status == 0)
        #expect(check.stderr.contains("warning: match.network and match.vpn: NetworkManager is not running on the system bus"), "\(check)")
        // Without NetworkManager no network condition holds: the default decides.
        #expect(try Self.click(harness, "https://z.example/1", expecting: 1) == ["https://z.example/1"])
        let status = try harness.run([harness.openurl, "status"])
        #expect(status.stdout.contains("network: unknown: NetworkManager is not running on the system bus"), "\(status.stdout)")
    }

    @Test func testTakesTheMomentAsOptions() throws {
        let harness = try DaemonHarness(name: "testmoment")
        try harness.writeConfig("""
            [[rules]]
            name = "evening"
            match.time = "18:00-23:00"
            match.days = "mon-fri"
            discard = true
            [[rules]]
            name = "corp"
            match.vpn = "Corp*"
            match.window = "*Jira*"
            match.modifiers = ["shift"]
            match.opener = "org.mozilla.Thunderbird"
            copy = true
            [[rules]]
            name = "home"
            match.any = [{ network = "Home" }, { vpn = true }]
            system = true
            """)
        let tool = try BuiltProduct.path("openurl-tool")
        let evening = try harness.run([tool, "test", "--at", "2026-12-01 18:30", "https://a.example/"])
        #expect(evening.stdout.contains("rule evening: matched (held: time (saw tue 2026-12-01 18:30), days (saw tue 2026-12-01 18:30))"), "\(evening)")
        let weekend = try harness.run([tool, "test", "--at", "2026-12-05 18:30", "https://a.example/"])
        #expect(weekend.stdout.contains("rule evening: no, days (saw sat 2026-12-05 18:30) did not match"), "\(weekend)")
        let corp = try harness.run([tool, "test", "--at", "2026-12-05 10:00", "--vpn-name", "Corp VPN", "--window", "PROJ-1 - Jira", "--modifiers", "shift",
                                    "--opener", "org.mozilla.Thunderbird", "--json", "https://a.example/"])
        #expect(corp.stdout.contains(#""decision":"copy""#) && corp.stdout.contains(#""rule":"corp""#), "\(corp)")
        let home = try harness.run([tool, "test", "--at", "2026-12-05 10:00", "--network", "Home", "https://a.example/"])
        #expect(home.stdout.contains("decision:  system") && home.stdout.contains("rule home: matched"), "\(home)")
        let unknownKeys = try harness.run([tool, "test", "--at", "2026-12-05 10:00", "--vpn-name", "Corp VPN", "https://a.example/"])
        #expect(unknownKeys.stdout.contains("window (unknown: not given (openurl test --window TITLE))"), "\(unknownKeys)")
        let bad = try harness.run([tool, "test", "--at", "tomorrow", "https://a.example/"])
        #expect(bad.status == 2 && bad.stderr.contains("--at \"tomorrow\": expected a local date and time"), "\(bad)")
    }

    /// A window manager that sets _NET_ACTIVE_WINDOW, a real window with a title, and Shift
    /// held with xdotool: the daemon reads the click's display as the click arrives.
    @Test func windowTitleAndHeldKeysFromTheClicksDisplay() throws {
        let harness = try DaemonHarness(name: "x11", withDesktopSession: true)
        try harness.writeConfig("""
            [apps.shift]
            exec = ["\(harness.browser.executable)", "--shift", "{url}"]
            [settings]
            shift_asks = true
            [[rules]]
            name = "held"
            match.modifiers = "shift"
            match.domain = "held.example"
            open = "shift"
            [[rules]]
            name = "chat"
            match.window = "Projekt*Chat"
            open = "work.desktop"
            [default]
            open = "browser.desktop"
            """)
        guard ChildProcess.findExecutable("openbox") != nil else { throw HarnessError("openbox not found: install openbox (apt-get install openbox)") }
        // openbox needs its rc.xml and GTK its GSettings schemas: the system's, which the
        // isolated XDG directories lack.
        var gtk = harness.environment
        gtk["XDG_DATA_DIRS"] = "/usr/local/share:/usr/share"
        gtk["XDG_CONFIG_DIRS"] = "/etc/xdg"
        let openbox = try ChildProcess(["openbox", "--sm-disable"], environment: gtk, captureOutput: false, logPath: harness.desktop.root + "/openbox.log")
        defer { openbox.terminate(grace: 1) }
        let window = try ChildProcess(["zenity", "--info", "--title", "Projekt Ü — Chat", "--text", "hello"], environment: gtk, captureOutput: false,
                                      logPath: harness.desktop.root + "/zenity.log")
        defer { window.terminate(grace: 1) }
        let search = try harness.run(["xdotool", "search", "--sync", "--name", "Projekt"], timeout: 20)
        let id = search.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(!id.isEmpty, "\(search)")
        _ = try harness.run(["xdotool", "windowactivate", "--sync", id])
        #expect(openbox.poll() == nil, "openbox exited: \((try? String(contentsOfFile: harness.desktop.root + "/openbox.log", encoding: .utf8)) ?? "")")
        #expect(try eventually(timeout: 10) { try Self.moment(harness)["x11"]?.contains("Projekt Ü — Chat") == true }, "\((try? Self.moment(harness)) ?? [:])")

        #expect(try Self.click(harness, "https://any.example/1", expecting: 1) == ["--work", "https://any.example/1"])
        let tool = try BuiltProduct.path("openurl-tool")
        #expect(try harness.run([tool, "--no-daemon", "https://any.example/2"]).status == 0)
        #expect(harness.browser.waitForRecords(2).last == ["--work", "https://any.example/2"])

        _ = try harness.run(["xdotool", "keydown", "shift"])
        defer { _ = try? harness.run(["xdotool", "keyup", "shift"]) }
        #expect(try Self.click(harness, "https://held.example/3", expecting: 3) == ["--shift", "https://held.example/3"])
        #expect(try harness.run([tool, "--no-daemon", "https://held.example/4"]).status == 0)
        #expect(harness.browser.waitForRecords(4).last == ["--shift", "https://held.example/4"])
        // shift_asks: with Shift held, any other link is asked about (Explain shows the decision).
        let explained = try harness.call("Explain", [.string("https://any.example/5"), .vardict([:])]).first?.dictionary
        #expect(explained?["decision"]?.string == "ask", "\(String(describing: explained))")
        #expect(explained?["trace"]?.stringArray?.contains("shift is held and [settings] shift_asks = true: asking") == true)
    }

    @Test func onWaylandWindowAndKeysAreUnknownAndCheckSaysSo() throws {
        let harness = try DaemonHarness(name: "wayland")
        try harness.writeConfig("[[rules]]\nmatch.window = \"*\"\ndiscard = true\n")
        let check = try harness.run([harness.openurl, "check"], extra: ["WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"])
        #expect(check.stderr.contains("match.window, match.modifiers and shift_asks: a Wayland session"), "\(check)")
    }

    /// `open = ["google-chrome:Work", "firefox:Work Stuff"]`: the first whose browser runs.
    @Test func theBrowserAlreadyRunning() throws {
        let (harness, home) = try BrowserProfileTests.harness("[default]\nopen = [\"google-chrome:Work\", \"firefox:Work Stuff\"]\n", name: "running")
        #expect(try Self.click(harness, "https://r.example/1", expecting: 1) == ["--chrome", "--profile-directory=Profile 1", "https://r.example/1"])
        let running = try harness.browser.startRunning(as: "firefox", in: harness.desktop.root)
        defer { running.terminate(grace: 1) }
        #expect(try Self.click(harness, "https://r.example/2", expecting: 2) == ["--firefox", "--profile", home.firefoxWorkDirectory, "https://r.example/2"])
        let tool = try BuiltProduct.path("openurl-tool")
        #expect(try harness.run([tool, "--no-daemon", "https://r.example/3"]).status == 0)
        #expect(harness.browser.waitForRecords(3).last == ["--firefox", "--profile", home.firefoxWorkDirectory, "https://r.example/3"])
        let test = try harness.run([tool, "test", "https://r.example/4"])
        #expect(test.stdout.contains("google-chrome:Work is not running (no google-chrome or google-chrome-stable); firefox:Work Stuff runs (firefox)"), "\(test)")
    }
}
