import Foundation

/// The `openurl-fake-browser` executable plus its log: every launch appends its argv as one line
/// (fields separated by U+001F, with `\\`, `\n` and `\0` escaped), so tests see exactly the argv
/// a launch passed.
public struct RecordingBrowser: Sendable {
    /// Absolute path of the fake browser binary.
    public let executable: String
    /// The log file it appends to (pass it as `OPENURL_FAKE_BROWSER_LOG`).
    public let logFile: String

    /// Locates the built `openurl-fake-browser` (next to the test bundle, in the build directory,
    /// or `$OPENURL_FAKE_BROWSER`); throws a message saying how to build it when missing.
    public init(logFile: String) throws {
        self.logFile = logFile
        guard let found = Self.locate() else {
            throw RecordingBrowserError.notBuilt
        }
        executable = found
    }

    /// Where the binary is, or nil.
    public static func locate() -> String? {
        var candidates: [String] = []
        if let override = ProcessInfo.processInfo.environment["OPENURL_FAKE_BROWSER"] { candidates.append(override) }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("openurl-fake-browser").path)
            dir.deleteLastPathComponent()
        }
        let cwd = FileManager.default.currentDirectoryPath
        candidates += [cwd + "/.build/debug/openurl-fake-browser", cwd + "/.build/release/openurl-fake-browser"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the recording browser as a program called `name` (a link in `directory`) that
    /// stays running until it is terminated: a browser the user already has open. Returns once
    /// it runs.
    public func startRunning(as name: String, in directory: String) throws -> ChildProcess {
        let link = directory + "/" + name
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: executable)
        let ready = directory + "/" + name + ".ready"
        try? FileManager.default.removeItem(atPath: ready)
        let process = try ChildProcess([link, "--stay", ready], captureOutput: false)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: ready) {
            guard Date() < deadline else {
                process.terminate(grace: 0.5)
                throw HarnessError("the staying browser \(name) did not start within 10 s")
            }
            usleep(10_000)
        }
        return process
    }

    /// The environment entry the fake browser needs.
    public var environment: [String: String] { ["OPENURL_FAKE_BROWSER_LOG": logFile] }

    /// The `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID` of each launch so far (`-` when unset).
    public func activationTokens() -> [(activation: String, startup: String)] {
        let text = (try? String(contentsOfFile: logFile + ".tokens", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            return (parts.first ?? "-", parts.count > 1 ? parts[1] : "-")
        }
    }

    /// The `DISPLAY` and `WAYLAND_DISPLAY` of each launch so far (`-` when unset).
    public func displays() -> [(x11: String, wayland: String)] {
        let text = (try? String(contentsOfFile: logFile + ".display", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            return (parts.first ?? "-", parts.count > 1 ? parts[1] : "-")
        }
    }

    /// Every recorded launch so far, each as its argv without argv[0].
    public func records() -> [[String]] {
        guard let data = FileManager.default.contents(atPath: logFile) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map { line in
                line.isEmpty ? [] : line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map { Self.unescape(String($0)) }
            }
    }

    /// Waits until at least `count` launches are recorded or `timeout` seconds pass; returns what
    /// was recorded (tests then assert on it, so a launch that never arrives fails, never hangs).
    public func waitForRecords(_ count: Int = 1, timeout: TimeInterval = 10) -> [[String]] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let found = records()
            if found.count >= count || Date() >= deadline { return found }
            usleep(10_000)
        }
    }

    static func unescape(_ field: String) -> String {
        var result = ""
        var iterator = field.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let next = iterator.next() else { result.append(character); continue }
            switch next {
            case "n": result.append("\n")
            case "0": result.append("\0")
            default: result.append(next)
            }
        }
        return result
    }
}

/// Why the recording browser cannot be used.
public enum RecordingBrowserError: Error, CustomStringConvertible {
    /// The executable was not built.
    case notBuilt

    /// What to do about it.
    public var description: String {
        "openurl-fake-browser not found: build it with `swift build --product openurl-fake-browser` (or set OPENURL_FAKE_BROWSER)"
    }
}
