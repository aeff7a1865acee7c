import Foundation
import TestSupport
import Testing

/// The files a desktop's own settings leave after the user picked the recording browser
/// (`browser.desktop`) as the default, each written the way that desktop writes it.
enum PriorState {
    static let types = ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto"]

    static func write(_ desktop: DesktopPathTests.Desktop, _ harness: DaemonHarness) throws {
        let config = harness.desktop.configHome
        switch desktop {
        case .gnome:
            // GNOME Settings calls g_app_info_set_as_default_for_type, as `gio mime` does; a
            // distribution's gnome-mimeapps.list in the user's dir overrides the plain list there.
            try gioMime(harness)
            try "[Default Applications]\nx-scheme-handler/https=browser.desktop;\n"
                .write(toFile: config + "/gnome-mimeapps.list", atomically: true, encoding: .utf8)
        case .kde:
            // System Settings writes mimeapps.list with trailing `;`; older Plasma and
            // `xdg-settings` left BrowserApplication; KMail's setup left a Thunderbird profile.
            try """
                [Added Associations]
                x-scheme-handler/http=browser.desktop;
                x-scheme-handler/https=browser.desktop;
                x-scheme-handler/mailto=browser.desktop;

                [Default Applications]
                x-scheme-handler/http=browser.desktop;
                x-scheme-handler/https=browser.desktop;
                x-scheme-handler/mailto=browser.desktop;

                """.write(toFile: config + "/mimeapps.list", atomically: true, encoding: .utf8)
            try """
                [General]
                BrowserApplication=browser.desktop
                ColorScheme=BreezeLight

                [KDE]
                LookAndFeelPackage=org.kde.breeze.desktop

                """.write(toFile: config + "/kdeglobals", atomically: true, encoding: .utf8)
            try "[Defaults]\nProfile=Default\n\n[PROFILE_Default]\nEmailClient=\(try thunderbird(harness))\nTerminalClient=false\n"
                .write(toFile: config + "/emaildefaults", atomically: true, encoding: .utf8)
        case .xfce:
            // Settings > Default Applications writes helpers.rc naming X-XFCE-Helper entries.
            let helpers = harness.desktop.dataHome + "/xfce4/helpers"
            try FileManager.default.createDirectory(atPath: helpers, withIntermediateDirectories: true)
            let browser = harness.browser.executable
            try xfceHelper(name: "Recording Browser", category: "WebBrowser", command: browser, argument: "\"%s\"")
                .write(toFile: helpers + "/recording-browser.desktop", atomically: true, encoding: .utf8)
            try xfceHelper(name: "Recording Mail", category: "MailReader", command: browser, argument: "\"mailto:%s\"")
                .write(toFile: helpers + "/recording-mail.desktop", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: config + "/xfce4", withIntermediateDirectories: true)
            try "WebBrowser=recording-browser\nMailReader=recording-mail\nTerminalEmulator=xfce4-terminal\n"
                .write(toFile: config + "/xfce4/helpers.rc", atomically: true, encoding: .utf8)
            try gioMime(harness)
        case .lxqt:
            // LXQt's settings write the user list; a desktop-specific list overrides it there.
            try gioMime(harness)
            try "[Default Applications]\nx-scheme-handler/https=browser.desktop\nx-scheme-handler/mailto=browser.desktop\n"
                .write(toFile: config + "/lxqt-mimeapps.list", atomically: true, encoding: .utf8)
        case .unset:
            for type in types {
                let result = try harness.run(["xdg-mime", "default", "browser.desktop", type])
                #expect(result.status == 0, "\(result)")
            }
        }
    }

    /// `gio mime TYPE browser.desktop` for each type: GLib's own writer.
    static func gioMime(_ harness: DaemonHarness) throws {
        for type in types {
            let result = try harness.run(["gio", "mime", type, "browser.desktop"])
            #expect(result.status == 0, "\(result)")
        }
    }

    /// A `thunderbird` on PATH that is the recording browser, so xdg-email's shortcut for a
    /// Thunderbird profile is seen.
    static func thunderbird(_ harness: DaemonHarness) throws -> String {
        let bin = harness.desktop.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin + "/thunderbird", withDestinationPath: harness.browser.executable)
        return bin + "/thunderbird"
    }

    static func xfceHelper(name: String, category: String, command: String, argument: String) -> String {
        """
        [Desktop Entry]
        Version=1.0
        Type=X-XFCE-Helper
        Name=\(name)
        X-XFCE-Category=\(category)
        X-XFCE-Binaries=\(command);
        X-XFCE-Commands=\(command);
        X-XFCE-CommandsWithParameter=\(command) \(argument);

        """
    }
}
