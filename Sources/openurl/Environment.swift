#if canImport(Glibc)
import Glibc
#endif

/// The process environment and the file reads the client needs; Glibc stays in this file.
struct Environment {
    /// The environment variables.
    var variables: [String: String]

    /// The current process's environment.
    static var current: Environment {
        var variables: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return Environment(variables: variables)
    }

    /// `$XDG_CONFIG_HOME/openurld/config.toml`, defaulting to `~/.config`.
    var configPath: String {
        let base = variables["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (variables["HOME"] ?? "") + "/.config"
        return base + "/openurld/config.toml"
    }

    /// True when standard error is a terminal (else errors are also shown as notifications).
    var stderrIsTerminal: Bool { isatty(2) != 0 }

    /// The contents of a file, or nil with `errno` set.
    static func read(_ path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .failed(String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return .contents(bytes)
    }

    /// The outcome of reading a file.
    enum ReadResult {
        case contents([UInt8])
        case missing
        case failed(String)
    }
}

/// Writes to standard output and standard error.
enum Output {
    static func print(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    static func error(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, stderr) }
    }
}
