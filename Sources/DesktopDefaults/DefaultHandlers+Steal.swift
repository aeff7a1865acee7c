import Launching
import Platform

/// A setting `install` took over that another app has since changed (a browser's "make me the
/// default", `xdg-settings`, a desktop's settings panel).
public struct StolenSetting: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Its section (nil: before the first header).
    public var section: String?
    /// Its key.
    public var key: String
    /// The value it has now.
    public var current: String
    /// The app it names, as a person would call it (`Firefox`).
    public var appName: String
    /// The desktop id it names, when it names one (mimeapps.list, BrowserApplication).
    public var desktopID: String?
    /// The schemes the setting decides.
    public var schemes: [String]

    /// Identifies this steal (file, key and new value), so it is reported once.
    public var identity: String { [path, section ?? "", key, current].joined(separator: "\u{1F}") }
}

extension DefaultHandlers {
    /// The recorded settings whose value is no longer openurld's, and a user mimeapps list that
    /// now overrides us without being recorded (a new `DESKTOP-mimeapps.list`). Settings the user
    /// chose to keep are left out.
    public func stolenSettings() -> [StolenSetting] {
        guard let record = TakeoverRecord.read(recordFile, userList: paths.userMimeappsList) else { return [] }
        var result: [StolenSetting] = []
        var texts: [String: KeyFileText] = [:]
        for edit in record.edits where !record.isKept(edit.path, edit.section, edit.key) {
            if texts[edit.path] == nil { texts[edit.path] = KeyFileText.read(edit.path) }
            guard let text = texts[edit.path], let value = text.value(section: edit.section, key: edit.key), !value.isEmpty else { continue }
            let isMime = edit.key.hasPrefix("x-scheme-handler/")
            let currentID = isMime ? (MimeAppsList.ids(in: "=" + value).first ?? "") : value
            guard currentID != edit.value else { continue }
            result.append(describeSteal(edit: edit, current: value, currentID: currentID, isMime: isMime))
        }
        let section = TakeoverPlan.defaultsSection
        for type in Self.handledTypes {
            guard let (id, file) = currentDefaultAndFile(for: type), id != Self.ourDesktopID, file.hasPrefix(paths.configHome + "/"),
                  record.edit(file, section, type) == nil, !record.isKept(file, section, type) else { continue }
            let edit = TakeoverRecord.Edit(path: file, section: section, key: type, original: nil, value: Self.ourDesktopID, createdSection: false)
            result.append(describeSteal(edit: edit, current: id, currentID: id, isMime: true))
        }
        return result
    }

    private func describeSteal(edit: TakeoverRecord.Edit, current: String, currentID: String, isMime: Bool) -> StolenSetting {
        var schemes: [String]
        var name = currentID
        var desktopID: String?
        switch edit.key {
        case "WebBrowser", "MailReader":
            schemes = edit.key == "WebBrowser" ? ["http", "https"] : ["mailto"]
            let helpers = ([paths.dataHome] + paths.dataDirs).map { $0 + "/xfce4/helpers/\(currentID).desktop" }
            if let entry = helpers.lazy.compactMap(KeyFileText.read).first, let helperName = entry.value(section: "Desktop Entry", key: "Name") {
                name = helperName
            }
        case "EmailClient":
            schemes = ["mailto"]
            name = Path.lastComponent(currentID.split(separator: " ").first.map(String.init) ?? currentID)
        default:
            schemes = isMime ? [String(edit.key.dropFirst("x-scheme-handler/".count))] : ["http", "https"]
            let id = currentID.hasPrefix("!") ? String(currentID.dropFirst()) : currentID
            if let entry = entries.entry(id: id) {
                name = entry.name
                desktopID = id
            }
        }
        return StolenSetting(path: edit.path, section: edit.section, key: edit.key, current: current, appName: name,
                             desktopID: desktopID, schemes: schemes)
    }

    /// Sets openurld's value again in each of `settings` (the notification's "Take back"),
    /// recording a file that was not recorded yet as install does.
    public func takeBack(_ settings: [StolenSetting]) throws {
        var record = TakeoverRecord.read(recordFile, userList: paths.userMimeappsList) ?? TakeoverRecord()
        var targets: [Target] = []
        for setting in settings {
            let value = record.edit(setting.path, setting.section, setting.key)?.value ?? Self.ourDesktopID
            let edit = TakeoverEdit(path: setting.path, section: setting.section, key: setting.key, value: value,
                                    purpose: .init(key: setting.key))
            if let index = targets.firstIndex(where: { $0.path == setting.path }) { targets[index].edits.append(edit) }
            else { targets.append(Target(path: setting.path, edits: [edit])) }
        }
        try apply(targets, to: &record)
        try record.write(recordFile, mode: recordMode)
    }

    /// Leaves `settings` to the app that took them (the notification's "Keep"): they are no longer
    /// openurld's, uninstall leaves them alone, and `system` hands links to that app.
    public func keep(_ settings: [StolenSetting]) throws {
        guard var record = TakeoverRecord.read(recordFile, userList: paths.userMimeappsList) else { return }
        for setting in settings {
            record.edits.removeAll { $0.path == setting.path && $0.section == setting.section && $0.key == setting.key }
            if !record.isKept(setting.path, setting.section, setting.key) { record.kept.append((setting.path, setting.section, setting.key)) }
            markLoose(&record, setting.path)
            guard let id = setting.desktopID else { continue }
            for scheme in setting.schemes {
                let type = "x-scheme-handler/" + scheme
                if let index = record.previous.firstIndex(where: { $0.type == type }) { record.previous[index].id = id }
                else { record.previous.append((type, id)) }
            }
        }
        try record.write(recordFile, mode: recordMode)
    }

    /// Someone else wrote `path`: uninstall may only put back our own lines there.
    private func markLoose(_ record: inout TakeoverRecord, _ path: String) {
        if let index = record.files.firstIndex(where: { $0.path == path }) { Self.markLoose(&record.files[index]) }
    }

    /// `loose`, or `loose-absent` for a file install created (removed on uninstall once empty).
    static func markLoose(_ file: inout TakeoverRecord.File) {
        if !file.state.hasPrefix("loose") { file.state = file.state == "absent" ? "loose-absent" : "loose" }
    }
}
