/// Standard input, output and error, unbuffered (write(2) and read(2)), as FileHandle's
/// `standardOutput`/`standardError` wrote them: lines on stdout and stderr keep their order.
public enum StandardStream: Int32, Sendable {
    /// Descriptor 0.
    case input = 0
    /// Descriptor 1.
    case output = 1
    /// Descriptor 2.
    case error = 2

    /// Writes `text` whole; a failed write (a closed pipe) is dropped, as nothing could show it.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { Sys.writeAllIgnoringErrors(rawValue, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` and a newline in one write.
    public func writeLine(_ text: String) { write(text + "\n") }

    /// Everything left to read on the stream, up to its end.
    public func readToEnd() -> [UInt8] { Sys.readToEnd(rawValue) }

    /// Whether the stream is a terminal (isatty).
    public var isTerminal: Bool { Sys.isTerminal(rawValue) }

    /// Flushes what Swift's `print` has buffered for stdout (stdio's buffer, which this type's
    /// writes bypass), so a reader of a pipe sees each line as it is printed.
    public static func flushPrinted() { Sys.flushStdioOutput() }
}

extension Environment {
    /// The parent process's id (getppid).
    public static var parentProcessID: Int32 { Sys.parentProcessID() }
}
