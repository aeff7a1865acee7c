#if canImport(Glibc)
import Glibc
#endif

/// The input as text: its bytes as UTF-8 (invalid sequences become U+FFFD, as they would on
/// their way in over D-Bus or from a file read as UTF-8).
func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// The input split at its first newline (`first\nsecond`), for targets that take two things.
func twoParts(_ data: UnsafePointer<UInt8>, _ size: Int) -> (String, String) {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let newline = bytes.firstIndex(of: 10) else { return (text(data, size), "") }
    return (String(decoding: bytes[..<newline], as: UTF8.self), String(decoding: bytes[(newline + 1)...], as: UTF8.self))
}

/// An oracle: when `condition` fails, say what and abort, so libFuzzer keeps the input.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    let text = "ORACLE FAILED: " + message() + "\n"
    _ = text.withCString { fputs($0, stderr) }
    abort()
}
