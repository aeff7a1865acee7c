import DBus

/// The desktop's colour scheme, from the settings portal (`org.freedesktop.appearance`
/// `color-scheme`: 1 prefers dark, 2 light), which GNOME, KDE and the others serve. GTK 4.8 without
/// libadwaita reads only the theme's name, so the window asks itself.
enum ColorScheme {
    static let portal = "org.freedesktop.portal.Desktop"

    /// True for dark, false for light, nil when the desktop states no preference or no portal
    /// runs. A portal not running is not started for this: the window would wait for it.
    static func prefersDark() -> Bool? {
        guard let connection = try? DBusConnection.session(),
              let owned = try? connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                                method: "NameHasOwner", arguments: [.string(portal)], timeout: 1).first?.bool,
              owned,
              let reply = try? connection.call(destination: portal, path: "/org/freedesktop/portal/desktop", interface: "org.freedesktop.portal.Settings",
                                                method: "Read", arguments: [.string("org.freedesktop.appearance"), .string("color-scheme")], timeout: 0.5).first
        else { return nil }
        switch reply.uint32 {
        case 1: return true
        case 2: return false
        default: return nil
        }
    }
}
