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
    }
}
