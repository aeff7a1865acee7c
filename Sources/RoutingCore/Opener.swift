/// Who a link came from: any of these can be matched by `match.opener`.
public struct Opener: Sendable, Equatable {
    /// The desktop id of the app (`org.gnome.Evolution.desktop`), if known.
    public var desktopID: String?
    /// The Flatpak app id (`com.slack.Slack`), if known.
    public var flatpakID: String?
    /// The process name (`slack`), if known.
    public var processName: String?
    /// The Snap name (`firefox` of `snap.firefox.firefox-….scope`), if known.
    public var snapID: String?

    /// Creates an opener description.
    public init(desktopID: String? = nil, flatpakID: String? = nil, processName: String? = nil, snapID: String? = nil) {
        self.desktopID = desktopID
        self.flatpakID = flatpakID
        self.processName = processName
        self.snapID = snapID
    }

    /// Every name the opener is known by; a desktop id counts with and without `.desktop`.
    public var names: [String] {
        var names: [String] = []
        if let desktopID {
            names.append(desktopID)
            names.append(desktopID.hasSuffix(".desktop") ? String(desktopID.dropLast(8)) : desktopID + ".desktop")
        }
        if let flatpakID, !names.contains(flatpakID) { names.append(flatpakID) }
        if let snapID, !names.contains(snapID) { names.append(snapID) }
        if let processName, !names.contains(processName) { names.append(processName) }
        return names
    }
}
