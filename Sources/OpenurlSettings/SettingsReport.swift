import CGtkLoader
import JSON
import Platform

/// `--report FILE`: after each change the window writes what it shows, read back from its
/// widgets (label texts, switch states, which can be moved), as one JSON object. Tests drive the
/// real window with the keyboard and read this; a person can diff it too. Written whole by rename.
struct SettingsReport {
    let path: String

    func write(_ ui: SettingsUI) {
        let page = SettingsUI.pageNames.indices.contains(ui.currentPage) ? SettingsUI.pageNames[ui.currentPage] : ""
        let report = JSONValue.object([
            ("page", .string(page)), ("status", .string(ui.statusText)),
            ("dark", .bool(openurl_gtk_prefers_dark_theme() != 0)), ("scheme", .string(ui.colorScheme)),
            ("rules", ui.rules.json), ("try", ui.tryLink.json), ("recent", ui.recent.json),
            ("remembered", ui.remembered.json), ("defaults", ui.defaults.json),
        ])
        try? FileSystem.writeAtomically(Array((report.text + "\n").utf8), to: path, mode: 0o600)
    }
}
