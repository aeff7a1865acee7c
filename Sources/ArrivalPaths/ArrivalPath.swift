/// One way a link can arrive on this machine (`xdg-open` under GNOME, `gio open`, the portal,
/// `sensible-browser`, ...): what it would run, worked out from the files and variables the tool
/// itself reads, and how `openurl doctor` probes it.
public struct ArrivalPath: Sendable, Equatable {
    /// What a probe of this path is made of.
    public enum Probe: Sendable, Equatable {
        /// Nothing is run: the path is a setting read by others (`xdg-settings`), or it does not
        /// reach openurld, so running it would open the probe elsewhere.
        case none
        /// Run `argv` with the probe link appended, with `environment`'s changes (nil: unset).
        case command(argv: [String], environment: [String: String?])
        /// Call the OpenURI portal as a sandboxed app does.
        case portal
    }

    /// The row's name: `xdg-open (GNOME)`, `gio open`, `$BROWSER`.
    public var name: String
    /// What the path would do with a link now.
    public var forecast: ArrivalForecast
    /// Whether the probe is a `mailto:` link (xdg-email) rather than a web link.
    public var isMail: Bool
    /// How to probe it when it should reach openurld.
    public var probe: Probe

    /// A path.
    public init(name: String, forecast: ArrivalForecast, isMail: Bool = false, probe: Probe = .none) {
        self.name = name
        self.forecast = forecast
        self.isMail = isMail
        self.probe = probe
    }

    /// The probe to run: only for a path that should reach openurld (one that goes around would
    /// hand the probe to another program).
    public var probeToRun: Probe {
        if case .reaches = forecast { return probe }
        return .none
    }
}

/// What a path does with a link, from the files it reads.
public enum ArrivalForecast: Sendable, Equatable {
    /// It reaches openurld, by this way (`io.github.openurld.desktop, set in ~/.config/mimeapps.list`).
    case reaches(String)
    /// It runs another program first, with why (the file or variable that chose it).
    case goesAround(program: String, why: String)
    /// It fails before any program runs, with why.
    case fails(String)
    /// The tool is not installed; the Debian package that has it.
    case notInstalled(package: String)

    /// Whether the path counts toward `openurl doctor`'s verdict: everything but a missing tool.
    public var isInstalled: Bool {
        if case .notInstalled = self { return false }
        return true
    }
}
