import Foundation
import Testing
@testable import Launching
import TestSupport
@testable import Catalog
@testable import RoutingCore

/// Issue 21, case 1: Firefox 147 and later (Debian's firefox-esr 153 included) keep
/// `profiles.ini` in `$XDG_CONFIG_HOME/mozilla/firefox` when `~/.mozilla` does not exist; a
/// home that still has `~/.mozilla` keeps the old place. Discovery reads the place the browser
/// itself uses, for native, Flatpak and Snap installs and the other Firefox-family browsers.
@Suite struct FirefoxProfileLocationTests {
    /// Where a `profiles.ini` is written, relative to HOME (`~`) or XDG_CONFIG_HOME (`$C`).
    struct Layout: CustomStringConvertible, Sendable {
        var name: String
        /// The browser's desktop entry: id, Exec and extra lines.
        var entry: (id: String, exec: String, extra: String)
        /// Profile lists: directory (`~/…` or `$C/…`) and the one profile's name in it.
        var lists: [(directory: String, profile: String)]
        /// Directories that exist besides them (`~/.mozilla` alone makes Firefox keep the old place).
        var alsoExisting: [String] = []
        var environment: [String: String] = [:]
        /// The profile discovery must offer, and where its list was read.
        var expected: (profile: String, directory: String)

        var description: String { name }
    }

    static let native = (id: "firefox-esr.desktop", exec: "/usr/lib/firefox-esr/firefox-esr %u", extra: "")
    static let flatpak = (id: "org.mozilla.firefox.desktop", exec: "$BIN/flatpak run --branch=stable --arch=x86_64 --command=firefox --file-forwarding org.mozilla.firefox @@u %u @@",
                          extra: "X-Flatpak=org.mozilla.firefox\n")
    static let snap = (id: "firefox_firefox.desktop", exec: "env BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop /snap/bin/firefox %u",
                       extra: "X-SnapInstanceName=firefox\n")
    static let librewolf = (id: "librewolf.desktop", exec: "$BIN/librewolf %u", extra: "")

    static let layouts: [Layout] = [
        Layout(name: "XDG only (firefox-esr -CreateProfile on a new account)", entry: native,
               lists: [("$C/mozilla/firefox", "Work")], expected: ("Work", "$C/mozilla/firefox")),
        Layout(name: "legacy only", entry: native, lists: [("~/.mozilla/firefox", "Old")], expected: ("Old", "~/.mozilla/firefox")),
        Layout(name: "both: ~/.mozilla exists, so Firefox keeps it", entry: native,
               lists: [("~/.mozilla/firefox", "Old"), ("$C/mozilla/firefox", "New")], expected: ("Old", "~/.mozilla/firefox")),
        Layout(name: "MOZ_LEGACY_HOME=1", entry: native, lists: [("~/.mozilla/firefox", "Old"), ("$C/mozilla/firefox", "New")],
               environment: ["MOZ_LEGACY_HOME": "1"], expected: ("Old", "~/.mozilla/firefox")),
        Layout(name: "~/.mozilla without a profile list: the XDG list is read", entry: native,
               lists: [("$C/mozilla/firefox", "New")], alsoExisting: ["~/.mozilla/native-messaging-hosts"], expected: ("New", "$C/mozilla/firefox")),
        Layout(name: "Flatpak XDG", entry: flatpak, lists: [("~/.var/app/org.mozilla.firefox/config/mozilla/firefox", "Boxed")],
               expected: ("Boxed", "~/.var/app/org.mozilla.firefox/config/mozilla/firefox")),
        Layout(name: "Flatpak legacy", entry: flatpak, lists: [("~/.var/app/org.mozilla.firefox/.mozilla/firefox", "Boxed")],
               expected: ("Boxed", "~/.var/app/org.mozilla.firefox/.mozilla/firefox")),
        Layout(name: "Snap XDG", entry: snap, lists: [("~/snap/firefox/current/.config/mozilla/firefox", "Snapped")],
               expected: ("Snapped", "~/snap/firefox/current/.config/mozilla/firefox")),
        Layout(name: "LibreWolf XDG", entry: librewolf, lists: [("$C/librewolf", "Wolf")], expected: ("Wolf", "$C/librewolf")),
    ]

    @Test(arguments: layouts)
    func discoveryReadsTheProfileListTheBrowserUses(layout: Layout) throws {
        let desktop = try IsolatedDesktop(name: "ffxdg")
        let expand = { (path: String) -> String in
            path.hasPrefix("~/") ? desktop.home + path.dropFirst() : path.hasPrefix("$C/") ? desktop.configHome + path.dropFirst(2) : path
        }
        // Programs that are not installed here (flatpak, librewolf) stand in as links to true:
        // discovery skips entries whose program does not exist.
        let bin = desktop.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for program in ["flatpak", "librewolf"] { try FileManager.default.createSymbolicLink(atPath: bin + "/" + program, withDestinationPath: "/bin/true") }
        try desktop.writeDesktopEntry(id: layout.entry.id, contents: IsolatedDesktop.desktopEntry(
            name: "Firefox ESR", exec: layout.entry.exec.replacingOccurrences(of: "$BIN", with: bin), mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"],
            extra: "Categories=Network;WebBrowser;\n" + layout.entry.extra))
        for (index, list) in layout.lists.enumerated() {
            let directory = expand(list.directory)
            let profile = "p\(index).\(list.profile)"
            try FileManager.default.createDirectory(atPath: directory + "/" + profile, withIntermediateDirectories: true)
            try "[Profile0]\nName=\(list.profile)\nIsRelative=1\nPath=\(profile)\nDefault=1\n\n[General]\nStartWithLastProfile=1\nVersion=2\n"
                .write(toFile: directory + "/profiles.ini", atomically: true, encoding: .utf8)
        }
        for directory in layout.alsoExisting {
            try FileManager.default.createDirectory(atPath: expand(directory), withIntermediateDirectories: true)
        }
        let environment = desktop.environment.merging(layout.environment) { $1 }
        var paths = XDGPaths(environment: environment)
        paths.systemExportDirs = []
        let catalog = AppDiscovery(paths: paths, environment: environment).catalog()
        let browser = try #require(catalog.browsers.first, "\(catalog)")
        #expect(browser.profiles.map(\.name) == [layout.expected.profile])
        #expect(browser.profileDirectory == expand(layout.expected.directory))
        // The target a rule writes resolves to that profile's directory.
        guard case .success(let target) = catalog.resolve(browser: browser.id, profile: layout.expected.profile) else {
            Issue.record("\(browser.id):\(layout.expected.profile) did not resolve")
            return
        }
        #expect(target.arguments.last?.hasPrefix(expand(layout.expected.directory) + "/") == true, "\(target.arguments)")
    }
}
