import Launching
import DBus
import ConfigLanguage

/// A chosen clipboard backend and why it was chosen (for `openurl status`).
public struct ClipboardChoice: Sendable, CustomStringConvertible {
    /// The backend.
    public let writer: ClipboardWriter
    /// Why: `auto: DISPLAY=:1`, `configured`, …
    public let reason: String

    /// `xclip (auto: DISPLAY=:1)`.
    public var description: String { "\(writer.name) (\(reason))" }
}

/// Picks the clipboard backend for `[settings] clipboard`.
///
/// `auto` tries, in order, the first that fits the session the daemon runs in:
/// 1. `wl-copy` when `WAYLAND_DISPLAY` is set and wl-copy is installed;
/// 2. `xclip` when `DISPLAY` is set and xclip is installed;
/// 3. `xsel` when `DISPLAY` is set and xsel is installed;
/// 4. Klipper when `org.kde.klipper` is on the session bus (KDE without the command-line tools).
///
/// Wayland comes first because X11 tools under XWayland only reach X clients reliably. An
/// explicitly named backend is used as given: if its tool is missing the copy fails saying what
/// to install, rather than silently writing somewhere else.
public enum ClipboardSelector {
    /// The backend for `setting`, or nil when `auto` finds none (see `ClipboardError.noBackend`).
    public static func choose(setting: Config.ClipboardSetting, environment: [String: String],
                              bus: DBusConnection?) -> ClipboardWriter? {
        select(setting: setting, environment: environment, bus: bus)?.writer
    }

    /// Like `choose`, but throws `ClipboardError.noBackend` instead of returning nil.
    public static func writer(setting: Config.ClipboardSetting, environment: [String: String],
                              bus: DBusConnection?) throws -> ClipboardWriter {
        guard let writer = choose(setting: setting, environment: environment, bus: bus) else {
            throw ClipboardError.noBackend
        }
        return writer
    }

    /// One line for `openurl status`: `xclip (auto: DISPLAY=:1)`, or the no-backend error.
    public static func describe(setting: Config.ClipboardSetting, environment: [String: String],
                                bus: DBusConnection?) -> String {
        select(setting: setting, environment: environment, bus: bus)?.description
            ?? "none (\(ClipboardError.noBackend.description))"
    }

    /// The backend and the reason it was chosen.
    public static func select(setting: Config.ClipboardSetting, environment: [String: String],
                              bus: DBusConnection?) -> ClipboardChoice? {
        switch setting {
        case .command(let argv):
            return ClipboardChoice(writer: CommandClipboard.custom(argv, environment: environment),
                                   reason: "configured command")
        case .backend(let name):
            if name == "klipper" {
                guard let bus else { return nil }
                return ClipboardChoice(writer: KlipperClipboard(bus: bus), reason: "configured")
            }
            guard let backend = commandBackends.first(where: { $0.name == name }) else { return nil }
            return ClipboardChoice(writer: backend.with(environment: environment), reason: "configured")
        case .auto:
            return automatic(environment: environment, bus: bus)
        }
    }

    static let commandBackends: [CommandClipboard] = [.wlCopy, .xclip, .xsel]

    private static func automatic(environment: [String: String], bus: DBusConnection?) -> ClipboardChoice? {
        func installed(_ program: String) -> Bool { ProcessLauncher.resolve(program, environment: environment) != nil }
        let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        if let wayland, installed("wl-copy") {
            return ClipboardChoice(writer: CommandClipboard.wlCopy.with(environment: environment),
                                   reason: "auto: WAYLAND_DISPLAY=\(wayland)")
        }
        if let display {
            if installed("xclip") {
                return ClipboardChoice(writer: CommandClipboard.xclip.with(environment: environment),
                                       reason: "auto: DISPLAY=\(display)")
            }
            if installed("xsel") {
                return ClipboardChoice(writer: CommandClipboard.xsel.with(environment: environment),
                                       reason: "auto: DISPLAY=\(display), xclip not installed")
            }
        }
        if let bus, (try? bus.nameHasOwner(KlipperClipboard.busName)) == true {
            return ClipboardChoice(writer: KlipperClipboard(bus: bus), reason: "auto: \(KlipperClipboard.busName) on the session bus")
        }
        return nil
    }
}
