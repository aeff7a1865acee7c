import Foundation
import Glibc
import TestSupport
import Testing

/// One machine for the system-level tests: a temporary `/etc/xdg`-like `XDG_CONFIG_DIRS` and
/// `/usr/share`-like `XDG_DATA_DIRS` (readable by every user) with openurld's desktop entry and
/// D-Bus service, two recording "browsers" (`browser.desktop`, `managed.desktop`) that append
/// `NAME URL` to `$HOME/launches.log`, and real users made for the test.
final class SystemMachine {
    let root: String
    var configDir: String { root + "/etc-xdg" }
    var dataDir: String { root + "/share" }
    var systemFolder: String { configDir + "/openurld" }
    let openurl: String
    let openurld: String
    let tool: String
    private(set) var users: [TestUser] = []

    /// `withOpenurld: false` leaves openurld's entry and service out of the system data dir.
    init(withOpenurld: Bool = true) throws {
        for tool in ["useradd", "userdel", "runuser", "dbus-daemon", "gdbus", "xdg-open"] where ChildProcess.findExecutable(tool) == nil {
            throw HarnessError("\(tool) not found: install passwd, util-linux, dbus, libglib2.0-bin and xdg-utils")
        }
        guard geteuid() == 0 else { throw HarnessError("the system-level tests make users: run them as root (CI does)") }
        var template = Array("/tmp/openurld-system-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        root = String(cString: made)
        chmod(root, 0o755)
        openurl = try BuiltProduct.path("openurl")
        openurld = try BuiltProduct.path("openurld")
        tool = try BuiltProduct.path("openurl-tool")
        for dir in [systemFolder, dataDir + "/applications", dataDir + "/dbus-1/services"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        let recorder = dataDir + "/record-launch"
        try write("#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$HOME/launches.log\"\n", to: recorder, mode: 0o755)
        for name in ["browser", "managed"] {
            try write(IsolatedDesktop.desktopEntry(name: name, exec: "\(recorder) \(name) %u",
                                                   mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"]),
                      to: dataDir + "/applications/\(name).desktop")
        }
        if withOpenurld {
            try write(IsolatedDesktop.desktopEntry(name: "openurld", exec: "\(openurl) %u",
                                                   mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto"],
                                                   extra: "NoDisplay=true\n"),
                      to: dataDir + "/applications/io.github.openurld.desktop")
            try write("[D-BUS Service]\nName=io.github.openurld\nExec=\(openurld)\n", to: dataDir + "/dbus-1/services/io.github.openurld.service")
        }
    }

    deinit {
        users.removeAll()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes `text` to `path` (mode 0644 unless given), replacing it by rename as tools do.
    func write(_ text: String, to path: String, mode: mode_t = 0o644) throws { try Self.write(text, to: path, mode: mode) }

    /// The same, for a user's file.
    static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
        chmod(path + ".new", mode)
        guard rename(path + ".new", path) == 0 else { throw HarnessError("rename \(path) failed") }
    }

    /// The variables every user's session gets: the machine's system directories, a display
    /// name (xdg-open only reads desktop entries with one), no desktop.
    var sessionEnvironment: [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_DIRS": configDir, "XDG_DATA_DIRS": dataDir, "DISPLAY": ":99", "LANG": "C.UTF-8"]
    }

    /// A new user (`useradd -m`), removed with `userdel -r` when the machine goes.
    func addUser() throws -> TestUser {
        let user = try TestUser(machine: self)
        users.append(user)
        return user
    }

    /// Every file under `root`'s `dir` with its mode and bytes (directories as "dir").
    func snapshot(_ dir: String) -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: dir)
        while let relative = enumerator?.nextObject() as? String {
            let path = dir + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let mode = String(info.st_mode & 0o7777, radix: 8)
            if (info.st_mode & S_IFMT) == S_IFDIR { files[relative] = "dir \(mode)"; continue }
            files[relative] = "\(mode) " + ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "<binary>")
        }
        return files
    }
}

/// A real account with its own session bus, started as that user; commands run as the user
/// (`runuser -u`), in a clean environment, since the bus admits only its owner.
final class TestUser {
    let name: String
    let home: String
    /// The machine's session variables (not the machine itself: it holds its users).
    private let sessionEnvironment: [String: String]
    private(set) var busAddress: String?
    private var busPID: pid_t?

    init(machine: SystemMachine) throws {
        sessionEnvironment = machine.sessionEnvironment
        name = "ou" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let made = try Command.run(["useradd", "-m", "-s", "/bin/sh", name], timeout: 30)
        guard made.status == 0 else { throw HarnessError("useradd \(name) failed: \(made.stderr)") }
        home = "/home/" + name
        // The worst case for privacy: a home everyone may list and read.
        chmod(home, 0o755)
    }

    deinit {
        stopBus()
        // -f: the processes of the user's daemon may linger as zombies (PID 1 here reaps none).
        _ = try? Command.run(["userdel", "-r", "-f", name], timeout: 30)
    }

    /// The user's environment: `HOME` from passwd (as the bus takes it), the machine's system
    /// directories, and the user's bus once started.
    var environment: [String: String] {
        var env = sessionEnvironment
        env["HOME"] = home
        env["USER"] = name
        env["LOGNAME"] = name
        if let busAddress { env["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        return env
    }

    /// Runs `argv` as the user with `environment` (and `extra`) only.
    func run(_ argv: [String], extra: [String: String] = [:], timeout: Double = 30) throws -> ToolResult {
        let env = environment.merging(extra) { $1 }
        return try Command.run(["runuser", "-u", name, "--", "env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0] ?? "")" } + argv,
                               environment: ProcessInfo.processInfo.environment, timeout: timeout)
    }

    /// Starts the user's own session bus (`dbus-daemon --session --fork`, as the user): it finds
    /// openurld's service in the machine's `XDG_DATA_DIRS`, and what it activates inherits `environment`.
    func startBus() throws {
        let started = try run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"])
        let lines = started.stdout.split(separator: "\n").map(String.init)
        guard started.status == 0, lines.count >= 2, let pid = pid_t(lines[1]) else {
            throw HarnessError("dbus-daemon as \(name) failed: \(started)")
        }
        busAddress = lines[0]
        busPID = pid
    }

    /// Stops the bus (the daemon it activated exits when it loses the bus).
    func stopBus() {
        if let busPID { kill(busPID, SIGTERM) }
        busPID = nil
    }

    /// Writes a file in the home as the user would have it: owned by the user, `mode`, in
    /// folders of `directoryMode` where they are missing.
    func write(_ text: String, to relative: String, mode: mode_t = 0o600, directoryMode: mode_t = 0o700) throws {
        let path = home + "/" + relative
        var dir = (path as NSString).deletingLastPathComponent
        var made: [String] = []
        while !FileManager.default.fileExists(atPath: dir) { made.insert(dir, at: 0); dir = (dir as NSString).deletingLastPathComponent }
        for folder in made {
            mkdir(folder, directoryMode)
            chmod(folder, directoryMode)
            try own(folder)
        }
        try SystemMachine.write(text, to: path, mode: mode)
        try own(path)
    }

    private func own(_ path: String) throws {
        guard let entry = getpwnam(name) else { throw HarnessError("no passwd entry for \(name)") }
        guard chown(path, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else { throw HarnessError("chown \(path) failed") }
    }

    /// The launches recorded so far (`browser URL`, `managed URL`).
    func launches() -> [String] {
        ((try? String(contentsOfFile: home + "/launches.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits until `count` launches are recorded, and returns them.
    func waitForLaunches(_ count: Int, timeout: Double = 15) -> [String] {
        _ = eventually(timeout: timeout) { self.launches().count >= count }
        return launches()
    }

    /// A `gdbus monitor` of the user's openurld, ready once it has subscribed.
    func monitor() throws -> SignalMonitor { try SignalMonitor(user: self) }
}

/// The signals of a user's openurld, read as `gdbus monitor` prints them.
final class SignalMonitor {
    private let child: ChildProcess
    private var buffer: [UInt8] = []

    init(user: TestUser) throws {
        let env = user.environment
        child = try ChildProcess(["runuser", "-u", user.name, "--", "env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0] ?? "")" }
                                 + ["gdbus", "monitor", "--session", "--dest", "io.github.openurld", "--object-path", "/io/github/openurld"])
        // gdbus prints the owner once its match rules are in place.
        guard nextLine(containing: "is owned by", timeout: 15) != nil else { throw HarnessError("gdbus monitor did not start for \(user.name)") }
    }

    deinit { _ = child.terminate(grace: 0.5) }

    /// The next line that contains `text`, or nil at the timeout.
    func nextLine(containing text: String, timeout: Double = 15) -> String? {
        guard let fd = child.stdoutFD else { return nil }
        let end = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                if line.contains(text) { return line }
                continue
            }
            let left = end.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard Glibc.poll(&fds, 1, Int32(min(left, 1) * 1000)) >= 0 else { return nil }
            guard fds[0].revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}
