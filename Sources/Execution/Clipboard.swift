import Launching
import DBus
import Platform

/// Puts text on the desktop clipboard.
public protocol ClipboardWriter: Sendable {
    /// The backend's name as written in `[settings] clipboard` (`xclip`, `klipper`, or the command's program).
    var name: String { get }
    /// Copies `text`; returns once the clipboard owns it (or the tool has taken it over), throws a
    /// `ClipboardError` saying what to fix otherwise.
    func copy(_ text: String) throws
    /// Copies `text` without holding up `loop`'s thread; `completion` runs there with the error, if any.
    func copy(_ text: String, beside loop: EventLoop, completion: @escaping (Error?) -> Void)
}

extension ClipboardWriter {
    /// A command may read and never exit (waited for up to its timeout): it runs on a thread of its own.
    public func copy(_ text: String, beside loop: EventLoop, completion: @escaping (Error?) -> Void) {
        let writer = self
        BackgroundThread.start(name: "openurld-copy") {
            var failure: Error?
            do { try writer.copy(text) } catch { failure = error }
            let result = failure
            loop.perform { completion(result) }
        }
    }
}

/// Why a copy could not be made.
public enum ClipboardError: Error, Equatable, CustomStringConvertible {
    /// No backend fits this session (auto found nothing usable).
    case noBackend
    /// The backend's program is not installed (in `PATH` from the given environment).
    case notInstalled(program: String, package: String)
    /// The tool ran but failed.
    case failed(backend: String, message: String)

    /// One line for logs and notifications.
    public var description: String {
        switch self {
        case .noBackend:
            return "no clipboard tool: install wl-clipboard, xclip or xsel"
        case .notInstalled(let program, let package):
            return "\(program): command not found: install \(package)"
        case .failed(let backend, let message):
            return "\(backend): \(message)"
        }
    }
}

/// A clipboard tool that reads the text on its standard input: `wl-copy`, `xclip`, `xsel` or a
/// user's command.
///
/// The tools fork a server that keeps serving the selection after they exit, so the copy only
/// waits for the spawned process itself (bounded by `exitTimeout`): the server lives on, outside
/// our session, after the process that asked has exited. A command that stays in the foreground
/// (`wl-copy --foreground`, a script that serves itself) is left running when the wait ends and is
/// reaped later by `ChildReaper.reapAll()`.
public struct CommandClipboard: ClipboardWriter {
    /// `wl-copy` (Wayland, package wl-clipboard).
    public static let wlCopy = CommandClipboard(name: "wl-copy", argv: ["wl-copy"], package: "wl-clipboard")
    /// `xclip -selection clipboard` (X11).
    public static let xclip = CommandClipboard(name: "xclip", argv: ["xclip", "-selection", "clipboard"], package: "xclip")
    /// `xsel --clipboard --input` (X11).
    public static let xsel = CommandClipboard(name: "xsel", argv: ["xsel", "--clipboard", "--input"], package: "xsel")

    /// The backend name.
    public let name: String
    /// The command; the text goes to its stdin.
    public let argv: [String]
    /// The Debian package that provides it, for the "install …" hint.
    public let package: String?
    /// The environment the tool runs with (`DISPLAY`, `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`, `PATH`).
    public var environment: [String: String]
    /// How long to wait for the tool to hand the text to its server and exit.
    public var exitTimeout: Double

    /// A backend running `argv` with `environment` (ours when nil).
    public init(name: String, argv: [String], package: String? = nil, environment: [String: String]? = nil,
                exitTimeout: Double = 3) {
        self.name = name
        self.argv = argv
        self.package = package
        self.environment = environment ?? Environment.current()
        self.exitTimeout = exitTimeout
    }

    /// A user's `[settings] clipboard = ["cmd", "arg"]` command.
    public static func custom(_ argv: [String], environment: [String: String]? = nil) -> CommandClipboard {
        CommandClipboard(name: argv.first ?? "command", argv: argv, environment: environment)
    }

    /// The same backend with another environment.
    public func with(environment: [String: String]) -> CommandClipboard {
        var copy = self
        copy.environment = environment
        return copy
    }

    /// Spawns the tool with the text on stdin and waits (bounded) for it to exit.
    public func copy(_ text: String) throws {
        guard let program = argv.first, !program.isEmpty else {
            throw ClipboardError.failed(backend: name, message: "empty clipboard command")
        }
        guard ProcessLauncher.resolve(program, environment: environment) != nil else {
            throw ClipboardError.notInstalled(program: program, package: package ?? "the package providing \(program)")
        }
        let pid: Int32
        let bytes = Array(text.utf8)
        do {
            let spawned = try ProcessLauncher().spawnFeeding(argv, environment: environment, stdin: bytes, stall: min(1, exitTimeout))
            pid = spawned.pid
            guard spawned.written == bytes.count else {
                // A command that failed at once (a broken pipe: it exited before reading) says
                // why by its exit status, which is the better message.
                if case .exited(let code) = ChildWait.wait(for: pid, timeout: 0.1), code != 0 {
                    throw ClipboardError.failed(backend: name, message: "exited with status \(code)\(hint)")
                }
                // A command that does not read its input has not copied the text: say so, and
                // stop it rather than leave it waiting on a pipe nobody will fill.
                ChildIO.killWithGroup(pid)
                _ = ChildWait.wait(for: pid, timeout: 1)
                throw ClipboardError.failed(backend: name, message:
                    "took only \(spawned.written) of the \(bytes.count) bytes of text on its standard input (a clipboard command must read the text from stdin)")
            }
        } catch let error as ClipboardError {
            throw error
        } catch {
            throw ClipboardError.failed(backend: name, message: "\(error)")
        }
        switch ChildWait.wait(for: pid, timeout: exitTimeout) {
        case .exited(0), .reapedElsewhere, .stillRunning:
            return
        case .exited(let code):
            throw ClipboardError.failed(backend: name, message: "exited with status \(code)\(hint)")
        }
    }

    private var hint: String {
        switch name {
        case "wl-copy": return " (is WAYLAND_DISPLAY=\(environment["WAYLAND_DISPLAY"] ?? "") a running compositor with a seat?)"
        case "xclip", "xsel": return " (is DISPLAY=\(environment["DISPLAY"] ?? "") reachable?)"
        default: return ""
        }
    }
}

/// KDE's Klipper over D-Bus: `org.kde.klipper /klipper org.kde.klipper.klipper.setClipboardContents(s)`.
public struct KlipperClipboard: ClipboardWriter {
    /// Klipper's bus name.
    public static let busName = "org.kde.klipper"
    /// The backend name.
    public var name: String { "klipper" }
    /// The session-bus connection to call on.
    public let bus: DBusConnection
    /// The call timeout in seconds.
    public var timeout: Double

    /// A backend calling Klipper on `bus`.
    public init(bus: DBusConnection, timeout: Double = 2) {
        self.bus = bus
        self.timeout = timeout
    }

    /// Calls `setClipboardContents` without waiting on the loop's thread for the answer.
    public func copy(_ text: String, beside loop: EventLoop, completion: @escaping (Error?) -> Void) {
        let name = name
        do {
            try bus.callAsync(destination: Self.busName, path: "/klipper", interface: "org.kde.klipper.klipper",
                              method: "setClipboardContents", arguments: [.string(text)], timeout: timeout) { result in
                if case .failure(let error) = result {
                    completion(ClipboardError.failed(backend: name, message: error.message.isEmpty ? error.name : error.message))
                } else {
                    completion(nil)
                }
            }
        } catch {
            completion(ClipboardError.failed(backend: name, message: "\(error)"))
        }
    }

    /// Calls `setClipboardContents`; a missing Klipper is a clear error, not a hang.
    public func copy(_ text: String) throws {
        do {
            _ = try bus.call(destination: Self.busName, path: "/klipper", interface: "org.kde.klipper.klipper",
                             method: "setClipboardContents", arguments: [.string(text)], timeout: timeout)
        } catch let error as DBusError {
            throw ClipboardError.failed(backend: name, message: error.message.isEmpty ? error.name : error.message)
        }
    }
}

/// How waiting for one spawned child ended.
enum ChildWait: Equatable {
    /// It exited with this code (128 + signal when killed).
    case exited(Int32)
    /// Someone else (the daemon's `reapAll`) collected it first.
    case reapedElsewhere
    /// It is still running at the timeout.
    case stillRunning

    /// Waits up to `timeout` seconds for `pid` without blocking anything else.
    static func wait(for pid: Int32, timeout: Double) -> ChildWait {
        let deadline = Deadline(after: timeout)
        var interval = 100
        while true {
            switch ChildIO.status(of: pid) {
            case .exited(let code): return .exited(code)
            case .gone: return .reapedElsewhere
            case .running: break
            }
            if deadline.hasPassed { return .stillRunning }
            pause(microseconds: interval)
            interval = min(interval * 2, 2_000)  // the tools exit within a millisecond or two: start fine-grained
        }
    }
}
