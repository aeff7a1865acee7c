import BrowserCompanion
import Foundation
import Testing

/// The browser a host serves, read from a /proc tree made for the test.
@Suite struct HostBrowserTests {
    static let names: [(String, String?)] = [
        ("firefox-esr", "firefox"), ("firefox-esr.desktop", "firefox"), ("firefox", "firefox"), ("chromium", "chromium"),
        ("chromium.desktop", "chromium"), ("google-chrome-stable", "google-chrome"), ("surf", nil), ("browser.desktop", nil),
    ]

    @Test(arguments: names)
    func knownBrowsersByEntryOrProgram(_ name: String, _ key: String?) {
        #expect(HostBrowser.knownKey(name) == key)
    }

    /// A fake /proc/PID with `exe`, `cmdline` and `fd` links.
    func process(_ root: String, pid: Int32, exe: String, arguments: [String], openFiles: [String]) throws {
        let base = root + "/\(pid)"
        try FileManager.default.createDirectory(atPath: base + "/fd", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/exe", withDestinationPath: exe)
        try Data(arguments.joined(separator: "\0").utf8 + [0]).write(to: URL(fileURLWithPath: base + "/cmdline"))
        for (index, file) in openFiles.enumerated() {
            try FileManager.default.createSymbolicLink(atPath: base + "/fd/\(index + 3)", withDestinationPath: file)
        }
    }

    @Test func firefoxsProfileIsTheOneItHoldsLocked() throws {
        let root = NSTemporaryDirectory() + "hostbrowser-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try process(root, pid: 42, exe: "/usr/lib/firefox-esr/firefox-esr", arguments: ["/usr/lib/firefox-esr/firefox-esr"],
                    openFiles: ["/dev/null", "/home/u/.config/mozilla/firefox/abc.Work/.parentlock", "/home/u/.config/mozilla/firefox/abc.Work/places.sqlite"])
        let browser = HostBrowser.read(pid: 42, procRoot: root, environment: ["HOME": "/home/u"])
        #expect(browser == HostBrowser(pid: 42, program: "firefox-esr", key: "firefox", profile: "/home/u/.config/mozilla/firefox/abc.Work"))
    }

    @Test func firefoxsProfileArgumentWins() throws {
        let root = NSTemporaryDirectory() + "hostbrowser-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try process(root, pid: 43, exe: "/usr/lib/firefox-esr/firefox-esr", arguments: ["firefox-esr", "--profile", "/p/Work"], openFiles: [])
        #expect(HostBrowser.read(pid: 43, procRoot: root, environment: [:]).profile == "/p/Work")
    }

    @Test func chromiumsProfileIsKnownOnlyWhenOneIsOpen() throws {
        let root = NSTemporaryDirectory() + "hostbrowser-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let userData = root + "/config/chromium"
        for profile in ["Work", "Personal"] {
            try FileManager.default.createDirectory(atPath: userData + "/" + profile, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: userData + "/" + profile + "/Preferences"))
        }
        try process(root, pid: 50, exe: "/usr/lib/chromium/chromium", arguments: ["/usr/lib/chromium/chromium", "--user-data-dir=\(userData)"],
                    openFiles: [userData + "/Local State", userData + "/Work/History", userData + "/Work/Cookies"])
        #expect(HostBrowser.read(pid: 50, procRoot: root, environment: [:]).profile == "Work")
        try process(root, pid: 51, exe: "/usr/lib/chromium/chromium", arguments: ["/usr/lib/chromium/chromium"],
                    openFiles: [userData + "/Work/History", userData + "/Personal/History"])
        let both = HostBrowser.read(pid: 51, procRoot: root, environment: ["XDG_CONFIG_HOME": root + "/config"])
        #expect(both.key == "chromium")
        #expect(both.profile == nil)
        #expect(both.userData == userData)
        // $CHROME_CONFIG_HOME stands in for $XDG_CONFIG_HOME, as discovery reads it.
        let chrome = HostBrowser.read(pid: 51, procRoot: root, environment: ["CHROME_CONFIG_HOME": root + "/config", "XDG_CONFIG_HOME": "/elsewhere"])
        #expect(chrome.userData == userData && chrome.profile == nil)
    }

    @Test func aChromiumProfileIsTheOneWhoseExtensionStorageHoldsTheInstance() throws {
        let root = NSTemporaryDirectory() + "hostbrowser-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let id = "hpnkcnnaigafnfpajjilndogjkikpgce"
        let instance = "5b0f3c2e-8a41-4c1e-9d7a-2f6e1b9c0d33"
        for (profile, value) in [("Work", "other-0000-1111"), ("Personal", instance), ("Default", "")] {
            let storage = root + "/\(profile)/Local Extension Settings/\(id)"
            try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
            // LevelDB's log: a record header, then the key and the JSON value in plain bytes.
            try Data([0x1f, 0x9c, 0x02, 0x00, 0x01] + Array("instance\"\(value)\"".utf8)).write(to: URL(fileURLWithPath: storage + "/000003.log"))
        }
        #expect(HostBrowser.chromiumProfile(holding: instance, extensionID: id, userData: root) == "Personal")
        #expect(HostBrowser.chromiumProfile(holding: "not-there-at-all", extensionID: id, userData: root) == nil)
        #expect(HostBrowser.chromiumProfile(holding: "short", extensionID: id, userData: root) == nil)
        #expect(HostBrowser.chromiumProfile(holding: instance, extensionID: "../x", userData: root) == nil)
        // Two profiles holding it (a copied profile): not told.
        try FileManager.default.copyItem(atPath: root + "/Personal", toPath: root + "/Copy")
        #expect(HostBrowser.chromiumProfile(holding: instance, extensionID: id, userData: root) == nil)
    }
}
