extension String {
    /// The string with every occurrence of `target` replaced by `replacement`, left to right
    /// without overlaps, matched by UTF-8 bytes (so a quote or tab followed by a combining mark
    /// is still found; Foundation's `replacingOccurrences(of:with:)` for the ASCII targets used).
    /// An empty `target` changes nothing.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return self }
        let bytes = Array(utf8)
        guard bytes.count >= needle.count else { return self }
        var out: [UInt8] = []
        var index = 0
        var copied = 0
        var changed = false
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) {
                out += bytes[copied..<index]
                out += replacement.utf8
                index += needle.count
                copied = index
                changed = true
            } else {
                index += 1
            }
        }
        guard changed else { return self }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}
