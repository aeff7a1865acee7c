// The few C library calls the client makes: the environment, stderr, the clock, and becoming
// `openurl-tool`. Embedded Swift compares strings by their bytes here (String's == and hasPrefix
// need Unicode tables this binary does not link, and argv is compared byte for byte anyway).
import COpenurl

/// argv[0], for finding openurl-tool when /proc/self/exe cannot be read.
var programPath = "openurl"

/// The value of environment variable `name`, or nil when unset.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Writes `text` to stderr as it is (no buffering: the process may exec or exit right after).
func writeError(_ text: String) {
    var copy = text
    copy.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0, copenurl_errno() == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// Whether `text` is exactly `other`, byte for byte.
func same(_ text: String, _ other: StaticString) -> Bool {
    text.utf8.elementsEqual(UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount))
}

/// Whether `text` starts with the bytes of `prefix`.
func starts(_ text: String, with prefix: StaticString) -> Bool {
    text.utf8.starts(with: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
}

/// Now on CLOCK_MONOTONIC, in microseconds (the clock of the `deadline` option).
func monotonicMicroseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec / 1000)
}

/// The description of the current errno.
func errnoDescription() -> String {
    strerror(copenurl_errno()).map { String(cString: $0) } ?? "error \(copenurl_errno())"
}

/// Replaces this process with `openurl-tool` from the same directory, with `arguments` (argv[0]
/// stays `openurl`, so the tool's messages and help speak as openurl).
func becomeTool(_ arguments: [String]) -> Never {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var directory = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : programPath
    if let slash = directory.utf8.lastIndex(of: UInt8(ascii: "/")) {
        directory = String(directory[..<slash])
    } else {
        directory = "."
    }
    let tool = directory + "/openurl-tool"
    var cArguments: [UnsafeMutablePointer<CChar>?] = (["openurl"] + arguments).map { strdup($0) } + [nil]
    execv(tool, &cArguments)
    writeError("openurl: cannot run \(tool): \(errnoDescription()); reinstall openurld (make install)\n")
    exit(4)
}
