import Foundation
import TestSupport
import Testing

/// `openurl install --system` and `uninstall --system` against a temporary `/etc/xdg` and
/// `/usr/share` (the machine's `XDG_CONFIG_DIRS` and `XDG_DATA_DIRS`), run as root.
@Suite(.serialized) struct SystemInstallTests {
    /// What an administrator's machine already has: system defaults for the desktops.
    static func prepare(_ machine: SystemMachine) throws {
        try machine.write("# Site defaults\n[Default Applications]\ntext/plain=gedit.desktop\nx-scheme-handler/https=browser.desktop;\nx-scheme-handler/http=browser.desktop\n",
                          to: machine.configDir + "/mimeapps.list")
        try machine.write("[Default Applications]\nx-scheme-handler/https=browser.desktop\n", to: machine.configDir + "/gnome-mimeapps.list")
        try machine.write("WebBrowser=firefox\nTerminalEmulator=xfce4-terminal\n", to: machine.configDir + "/xfce4/helpers.rc")
        try machine.write("[General]\nBrowserApplication=firefox.desktop\nColorScheme=Breeze\n", to: machine.configDir + "/kdeglobals")
    }

    /// Root's environment for the commands: the machine's directories, a home of its own.
    static func rootEnvironment(_ machine: SystemMachine) -> [String: String] {
        machine.sessionEnvironment.merging(["HOME": machine.root + "/root-home", "XDG_STATE_HOME": machine.root + "/root-state"]) { $1 }
    }

    @Test func installMakesXdgOpenOfANewUserReachOpenurldAndUninstallRestoresByteForByte() throws {
        let machine = try SystemMachine()
        try Self.prepare(machine)
        let before = (machine.snapshot(machine.configDir), machine.snapshot(machine.dataDir))
        let install = try Command.run([machine.tool, "install", "--system"], environment: Self.rootEnvironment(machine))
        #expect(install.status == 0, "\(install)")
        for file in ["mimeapps.list", "gnome-mimeapps.list", "xfce4/helpers.rc", "kdeglobals"] {
            #expect(install.stdout.contains("changed \(machine.configDir)/\(file)"), "\(file): \(install)")
        }
        let mimeapps = try String(contentsOfFile: machine.configDir + "/mimeapps.list", encoding: .utf8)
        #expect(mimeapps.contains("x-scheme-handler/https=io.github.openurld.desktop") && mimeapps.contains("text/plain=gedit.desktop"), "\(mimeapps)")
        #expect(try String(contentsOfFile: machine.configDir + "/xfce4/helpers.rc", encoding: .utf8).contains("WebBrowser=openurld-browser"))
        #expect(try String(contentsOfFile: machine.configDir + "/kdeglobals", encoding: .utf8).contains("BrowserApplication=io.github.openurld.desktop"))
        #expect(FileManager.default.fileExists(atPath: machine.dataDir + "/xfce4/helpers/openurld-browser.desktop"))

        // A user made after the install, who never ran openurl install.
        let user = try machine.addUser()
        try user.startBus()
        #expect(try user.run([machine.tool, "rules"]).status == 0)
        let opened = try user.run(["xdg-open", "https://reach.example/x"])
        #expect(opened.status == 0, "\(opened)")
        // openurld decided (its default is system) and handed the link to the system's previous default.
        #expect(user.waitForLaunches(1) == ["browser https://reach.example/x"])
        let recent = try user.run([machine.tool, "recent", "--json"]).stdout
        #expect(recent.contains("\"url\":\"https://reach.example/x\"") && recent.contains("\"decision\":\"system\""), "\(recent)")

        // The user's own install still works on top, and gives back only the user's file.
        let mine = try user.run([machine.tool, "install"])
        #expect(mine.status == 0, "\(mine)")
        #expect(try user.run(["xdg-mime", "query", "default", "x-scheme-handler/https"]).stdout == "io.github.openurld.desktop\n")
        #expect(try user.run([machine.tool, "uninstall"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: user.home + "/.config/mimeapps.list"))

        let uninstall = try Command.run([machine.tool, "uninstall", "--system"], environment: Self.rootEnvironment(machine))
        #expect(uninstall.status == 0, "\(uninstall)")
        let after = (machine.snapshot(machine.configDir), machine.snapshot(machine.dataDir))
        #expect(after.0 == before.0, "\(Set(after.0.keys).symmetricDifference(before.0.keys))")
        #expect(after.1 == before.1, "\(Set(after.1.keys).symmetricDifference(before.1.keys))")
    }

    @Test func installRefusesWithoutRootOrWithoutOpenurldInstalledSystemWide() throws {
        let bare = try SystemMachine(withOpenurld: false)
        let before = bare.snapshot(bare.configDir)
        let refused = try Command.run([bare.tool, "install", "--system"], environment: Self.rootEnvironment(bare))
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.stderr.contains("io.github.openurld.desktop is not installed system-wide (in none of \(bare.dataDir)/applications)"), "\(refused)")
        #expect(bare.snapshot(bare.configDir) == before)

        let machine = try SystemMachine()
        let user = try machine.addUser()
        let asUser = try user.run([machine.tool, "install", "--system"])
        #expect(asUser.status == 4 && asUser.stderr.contains("run it as root (sudo openurl install --system)"), "\(asUser)")
        let nothing = try Command.run([machine.tool, "uninstall", "--system"], environment: Self.rootEnvironment(machine))
        #expect(nothing.status == 0 && nothing.stdout.contains("nothing to restore"), "\(nothing)")
    }
}
