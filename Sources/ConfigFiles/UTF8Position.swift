/// Where a file stops being UTF-8, as a config error names it: `FILE:LINE:COLUMN`.
enum UTF8Position {
    /// The text of `bytes`, or the message for the first byte that is not UTF-8 (a bad byte on
    /// line 2 was once reported at 1:1).
    static func decode(_ bytes: [UInt8], path: String) -> Result<String, UTF8Problem> {
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        let (line, column, byte) = firstInvalid(bytes)
        return .failure(UTF8Problem(description: "\(path):\(line):\(column): the file is not valid UTF-8 text (byte 0x\(String(byte, radix: 16, uppercase: true)) here)"))
    }

    /// The line and column (both from 1, the column in characters) of the first byte that does not
    /// begin or continue a valid UTF-8 sequence, and that byte.
    static func firstInvalid(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8) {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return (line, column, lead)
            }
            guard index + length <= bytes.count,
                  let decoded = String(validating: bytes[index..<(index + length)], as: UTF8.self), !decoded.isEmpty else {
                return (line, column, lead)
            }
            if lead == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return (line, column, 0)
    }
}

/// A file that is not UTF-8, with where.
struct UTF8Problem: Error {
    /// `FILE:LINE:COLUMN: the file is not valid UTF-8 text (byte 0xFF here)`.
    let description: String
}
