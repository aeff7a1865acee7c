import Launching
import Platform

/// The xdg-desktop-portal backends installed (`xdg-desktop-portal/portals/*.portal`) and the one
/// that would put a question to the user for the OpenURI portal: the backend implementing
/// `org.freedesktop.impl.portal.AppChooser` for the session's desktop (`UseIn`, as
/// xdg-desktop-portal 1.16 chooses).
public struct PortalBackends {
    /// One backend's file.
    public struct Backend: Sendable, Equatable {
        /// The file's name without `.portal` (`gtk`, `gnome`, `kde`).
        public var name: String
        /// Its bus name.
        public var busName: String
        /// The desktops it is for, lowercased.
        public var useIn: [String]
        /// Whether it implements the app chooser.
        public var choosesApps: Bool
    }

    /// Every backend found.
    public var backends: [Backend]

    /// Reads the backends under the data directories.
    public init(paths: XDGPaths) {
        var found: [Backend] = []
        for directory in ([paths.dataHome] + paths.dataDirs).map({ $0 + "/xdg-desktop-portal/portals" }) {
            for file in ((try? FileSystem.listDirectory(directory)) ?? []).sorted() where file.hasSuffix(".portal") {
                guard let text = FileSystem.utf8Text(directory + "/" + file) else { continue }
                let keys = KeyFileText(text: text)
                let name = String(file.dropLast(".portal".count))
                guard !found.contains(where: { $0.name == name }) else { continue }
                let list = { (key: String) in (keys.value(section: "portal", key: key) ?? "").split(separator: ";").map { $0.trimmingCharacters() } }
                found.append(Backend(name: name, busName: keys.value(section: "portal", key: "DBusName") ?? "",
                                     useIn: list("UseIn").map { $0.lowercased() },
                                     choosesApps: list("Interfaces").contains("org.freedesktop.impl.portal.AppChooser")))
            }
        }
        backends = found
    }

    /// The backend that asks for `desktops`: one made for the desktop, else any that chooses apps.
    public func appChooser(desktops: [String]) -> Backend? {
        let choosers = backends.filter(\.choosesApps)
        return choosers.first { !Set($0.useIn).isDisjoint(with: desktops) } ?? choosers.first
    }

    /// A phrase for the row: which backend would ask, and when.
    public func describe(desktops: [String]) -> String {
        guard let chooser = appChooser(desktops: desktops) else {
            return "no backend chooses apps, so the portal opens the default without asking"
        }
        return "its app chooser is the \(chooser.name) backend (\(chooser.busName)), which asks the user first only when the portal has no default to use"
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String { String(self).trimmingWhitespace() }
}
