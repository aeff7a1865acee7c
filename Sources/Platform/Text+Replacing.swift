extension String {
    /// The string with every occurrence of `target` replaced by `replacement`, left to right
    /// without overlaps, matched by UTF-8 bytes (so a quote or tab followed by a combining mark
    /// is still found; Foundation's `replacingOccurrences(of:with:)` for the ASCII targets used).
    /// An empty `target` changes nothing.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let found = ranges(ofText: target)
        guard !found.isEmpty else { return self }
        // Copied by UTF-8 bytes: a String slice would round a range ending inside a grapheme
        // (a quote followed by a combining mark) to the grapheme's start.
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + found.count * replacement.utf8.count)
        var copied = startIndex
        for range in found {
            out += utf8[copied..<range.lowerBound]
            out += replacement.utf8
            copied = range.upperBound
        }
        out += utf8[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The text as one cell of a tab-separated line (recent.tsv, the takeover record): backslash,
    /// tab and newline written as `\\`, `\t` and `\n`, matched by bytes so none survives raw.
    public var tabSeparatedCell: String {
        var out: [UInt8] = []
        Self.appendTabSeparatedCell(self, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as one cell of a tab-separated line (see `tabSeparatedCell`) to `out`, in one
    /// pass over its bytes: a record line is built without a string per field and per escape.
    public static func appendTabSeparatedCell(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let escaped: UInt8
                switch bytes[index] {
                case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                default: continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                out.append(UInt8(ascii: "\\"))
                out.append(escaped)
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// A cell of a tab-separated line read back: `\t` and `\n` decoded, `\x` read as `x`, and a
    /// lone backslash at the end kept (only a hand-edited file has one; nothing is lost). Read
    /// scalar by scalar, as the escape matched bytes: a `t` carrying a combining mark after a
    /// backslash is still a tab.
    public init(tabSeparatedCell cell: some StringProtocol) {
        guard cell.utf8.contains(UInt8(ascii: "\\")) else { self = String(cell); return }
        var result = String.UnicodeScalarView()
        var iterator = cell.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\", let next = iterator.next() else { result.append(scalar); continue }
            switch next {
            case "t": result.append("\t")
            case "n": result.append("\n")
            default: result.append(next)
            }
        }
        self = String(result)
    }
}
