import Launching
import Platform

/// Whether clicks on one path reach openurld, what decides it, and how to fix it.
public struct PathStatus: Sendable, Equatable {
    /// The verdict for a path.
    public enum Verdict: String, Sendable {
        /// Clicks there reach openurld.
        case ok
        /// Clicks there go elsewhere, or are lost.
        case broken
        /// The path is not in use here (no such desktop or tool).
        case unused
        /// Worth knowing, but no click is lost.
        case note
    }

    /// Which path (`xdg-open, gio open, GIO apps, portal: https`).
    public var path: String
    /// The verdict.
    public var verdict: Verdict
    /// What the path does now and which file decides it.
    public var detail: String
    /// What to run to fix it.
    public var fix: String?
}

/// Checks every path a click can take to a handler (see `TakeoverPlan`), from the files a
/// desktop reads, without changing anything.
public struct PathCheck {
    /// The XDG locations (with `XDG_CURRENT_DESKTOP`).
    public var paths: XDGPaths
    /// The environment clicks start in (`PATH`, `BROWSER`, `MAILER`).
    public var environment: [String: String]

    /// Checks with the given locations and environment.
    public init(paths: XDGPaths, environment: [String: String]) {
        self.paths = paths
        self.environment = environment
    }

    static let ours = DefaultHandlers.ourDesktopID
    static let install = "openurl install"

    /// Every path, in the order a reader checks them.
    public func run() -> [PathStatus] {
        var result: [PathStatus] = []
        let handlers = DefaultHandlers(paths: paths)
        for type in DefaultHandlers.handledTypes {
            let scheme = String(type.dropFirst("x-scheme-handler/".count))
            let label = "GIO apps, gio open, xdg-open, the portal (\(scheme))"
            if let (id, file) = handlers.currentDefaultAndFile(for: type) {
                result.append(PathStatus(path: label, verdict: id == Self.ours ? .ok : .broken, detail: "\(id), set in \(file)",
                                         fix: id == Self.ours ? nil : Self.install))
            } else {
                result.append(PathStatus(path: label, verdict: .broken, detail: "no default in any mimeapps.list", fix: Self.install))
            }
        }
        result.append(entryStatus())
        result.append(contentsOf: xfceStatus())
        result.append(contentsOf: kdeStatus())
        for (variable, what) in [("BROWSER", "sensible-browser, Python's webbrowser, git, man -H"), ("MAILER", "xdg-email")] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            let isOurs = value.split(separator: ":").first.map { ($0 as Substring).hasSuffix("openurl") } ?? false
            result.append(PathStatus(path: "$\(variable) (\(what))", verdict: isOurs ? .ok : .broken,
                                     detail: "$\(variable)=\(value) is used before any default",
                                     fix: isOurs ? nil : "export \(variable)=openurl in your shell profile, or unset it"))
        }
        if let target = try? FileSystem.symbolicLinkTarget("/etc/alternatives/x-www-browser") {
            let isOurs = target.hasSuffix("/openurl")
            result.append(PathStatus(path: "x-www-browser / sensible-browser (Debian alternatives, system-wide)", verdict: isOurs ? .ok : .note,
                                     detail: "points at \(target)",
                                     fix: isOurs ? nil : "openurl doctor --fix (for you), or sudo openurl doctor --fix --system (for every user)"))
        }
        return result
    }

    /// Our desktop entry: installed, and its `Exec` runnable (xdg-open and non-D-Bus launchers run it).
    func entryStatus() -> PathStatus {
        let label = "desktop entry \(Self.ours)"
        guard let entry = DesktopEntryDirectory(paths: paths).entry(id: Self.ours) else {
            return PathStatus(path: label, verdict: .broken, detail: "not installed in \(paths.applicationDirs.joined(separator: ", "))",
                              fix: "make install")
        }
        let program = (entry.exec.flatMap { try? ExecLine.tokenize($0, entry: entry.id) })?.first ?? ""
        guard ProcessLauncher.resolve(program, environment: environment) != nil else {
            return PathStatus(path: label, verdict: .broken, detail: "\(entry.path): Exec program \"\(program)\" cannot run", fix: "make install")
        }
        return PathStatus(path: label, verdict: .ok, detail: entry.path + (entry.isDBusActivatable ? " (DBusActivatable)" : ""))
    }

    /// XFCE's WebBrowser and MailReader helpers, when XFCE or exo is present.
    func xfceStatus() -> [PathStatus] {
        guard TakeoverPlan.usesXFCE(paths: paths, environment: environment) else {
            return [PathStatus(path: "XFCE exo-open helpers", verdict: .unused, detail: "no helpers.rc, no XFCE session, no exo-open")]
        }
        return [("WebBrowser", TakeoverPlan.xfceBrowserHelper, "http, https"), ("MailReader", TakeoverPlan.xfceMailHelper, "mailto")].map { key, ours, schemes in
            let label = "XFCE exo-open, xdg-open under XFCE (\(schemes))"
            let rcFiles = ([paths.configHome] + paths.configDirs).map { $0 + "/xfce4/helpers.rc" }
            guard let (file, id) = rcFiles.lazy.compactMap({ file in KeyFileText.read(file)?.value(section: nil, key: key).map { (file, $0) } }).first else {
                return PathStatus(path: label, verdict: .broken, detail: "no \(key)= in any helpers.rc: exo asks with a dialog", fix: Self.install)
            }
            let usable = xfceHelperIsUsable(id)
            if id == ours && usable { return PathStatus(path: label, verdict: .ok, detail: "\(key)=\(id) in \(file)") }
            let why = usable ? "\(key)=\(id) in \(file)" : "\(key)=\(id) in \(file), but that helper is missing or its program is not on PATH"
            return PathStatus(path: label, verdict: .broken, detail: why, fix: Self.install)
        }
    }

    /// Whether exo can run helper `id`: its entry exists and one of its `X-XFCE-Binaries` is on PATH.
    func xfceHelperIsUsable(_ id: String) -> Bool {
        let candidates = ([paths.dataHome] + paths.dataDirs).map { $0 + "/xfce4/helpers/\(id).desktop" }
        guard let entry = candidates.lazy.compactMap(KeyFileText.read).first,
              let binaries = entry.value(section: "Desktop Entry", key: "X-XFCE-Binaries") else { return false }
        return binaries.split(separator: ";").contains { ProcessLauncher.resolve(String($0), environment: environment) != nil }
    }

    /// KDE's BrowserApplication and EmailClient, when set.
    func kdeStatus() -> [PathStatus] {
        var result: [PathStatus] = []
        let kdeglobals = TakeoverPlan.kdeglobals(paths)
        if let value = KeyFileText.read(kdeglobals)?.value(section: "General", key: "BrowserApplication"), !value.isEmpty {
            let ok = value == Self.ours
            result.append(PathStatus(path: "KDE KIO apps (http, https)", verdict: ok ? .ok : .broken,
                                     detail: "BrowserApplication=\(value) in \(kdeglobals)", fix: ok ? nil : Self.install))
        }
        let emaildefaults = TakeoverPlan.emaildefaults(paths)
        if let text = KeyFileText.read(emaildefaults) {
            let profile = "PROFILE_" + (text.value(section: "Defaults", key: "Profile").flatMap { $0.isEmpty ? nil : $0 } ?? "Default")
            if let client = text.value(section: profile, key: "EmailClient"), !client.isEmpty {
                let ok = client.split(separator: " ").first.map { ($0 as Substring).hasSuffix("openurl") } ?? false
                result.append(PathStatus(path: "KDE mail, xdg-email under KDE (mailto)", verdict: ok ? .ok : .broken,
                                         detail: "[\(profile)] EmailClient=\(client) in \(emaildefaults)", fix: ok ? nil : Self.install))
            }
        }
        if result.isEmpty {
            result.append(PathStatus(path: "KDE BrowserApplication / EmailClient", verdict: .unused, detail: "not set: KDE follows mimeapps.list"))
        }
        return result
    }
}
