/// The text a link is shown as, where the markup around it says: Markdown `[text](url)`, HTML
/// `<a href="url">text</a>`, and `text <url>` (plain-text mail and chat). What a reader sees
/// is what link-safety compares with where the link goes.
///
/// Each look around a link is bounded (`window` bytes back, `htmlWindow` ahead), so extraction
/// stays linear in the input whatever the text.
enum ShownText {
    /// Bytes looked back from a link for its opening `[`, `href` or the text before `<`.
    static let window = 300
    /// Bytes looked ahead from an HTML link for its `</a>`.
    static let htmlWindow = 1000

    /// The shown text of the link at `start..<end` and the bytes it was read from, or nil when
    /// no markup gives one.
    static func find(start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (text: String, range: Range<Int>)? {
        guard start > 0 else { return nil }
        let before = bytes[start - 1]
        if before == UInt8(ascii: "(") || before == UInt8(ascii: "<") && start >= 2 && bytes[start - 2] == UInt8(ascii: "(") {
            if let text = markdown(start: start, end: end, in: bytes) { return text }
        }
        // An unquoted `href=url` never reaches here: linkify-it starts no link after `=`.
        if before == UInt8(ascii: "\"") || before == UInt8(ascii: "'") {
            if let text = html(start: start, end: end, in: bytes) { return text }
        }
        if before == UInt8(ascii: "<"), end < bytes.count, bytes[end] == UInt8(ascii: ">") {
            return angleBracketed(start: start - 1, in: bytes)
        }
        return nil
    }

    // MARK: - Markdown

    /// `[text](url)` or `[text](<url>)`: the text between the brackets (not for images `![…]`).
    private static func markdown(start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (text: String, range: Range<Int>)? {
        var open = start - 1
        if bytes[open] == UInt8(ascii: "<") { open -= 1 }
        guard open >= 1, bytes[open] == UInt8(ascii: "("), bytes[open - 1] == UInt8(ascii: "]") else { return nil }
        guard end >= bytes.count || [UInt8(ascii: ")"), UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "\t")].contains(bytes[end]) else { return nil }
        let close = open - 1
        var depth = 0
        var index = close - 1
        let limit = max(0, close - window)
        while index >= limit {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") {
                depth += 1
            } else if byte == UInt8(ascii: "[") {
                if depth == 0 {
                    if index > 0, bytes[index - 1] == UInt8(ascii: "!") { return nil }
                    return spanned(bytes[(index + 1)..<close], markdown: true)
                }
                depth -= 1
            } else if byte == 0x0A, index > 0, bytes[index - 1] == 0x0A {
                return nil
            }
            index -= 1
        }
        return nil
    }

    // MARK: - HTML

    /// `<a … href="url" …>text</a>`: the element's text, tags dropped, entities decoded.
    private static func html(start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (text: String, range: Range<Int>)? {
        let quote = bytes[start - 1]
        var index = start - 2
        while index >= 0, isBlank(bytes[index]) { index -= 1 }
        guard index >= 4, bytes[index] == UInt8(ascii: "=") else { return nil }
        index -= 1
        while index >= 0, isBlank(bytes[index]) { index -= 1 }
        guard index >= 4, matchesLowercased(bytes, at: index - 3, "href"), isBlank(bytes[index - 4]) else { return nil }
        // Back to the tag's `<`, which must open an `a` element.
        var tagStart = index - 4
        let limit = max(0, start - window)
        while tagStart >= limit, bytes[tagStart] != UInt8(ascii: "<") {
            if bytes[tagStart] == UInt8(ascii: ">") { return nil }
            tagStart -= 1
        }
        guard tagStart >= limit, tagStart + 2 < start, bytes[tagStart + 1] | 0x20 == UInt8(ascii: "a"), isBlank(bytes[tagStart + 2]) else { return nil }
        // Ahead to the end of the start tag, then to `</a`.
        var cursor = end
        while cursor < bytes.count, cursor - end < window, bytes[cursor] != quote { cursor += 1 }
        while cursor < bytes.count, cursor - end < window, bytes[cursor] != UInt8(ascii: ">") {
            if bytes[cursor] == UInt8(ascii: "<") { return nil }
            cursor += 1
        }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else { return nil }
        let textStart = cursor + 1
        var textEnd = textStart
        while textEnd + 2 < bytes.count, textEnd - textStart < htmlWindow {
            if bytes[textEnd] == UInt8(ascii: "<"), bytes[textEnd + 1] == UInt8(ascii: "/"), bytes[textEnd + 2] | 0x20 == UInt8(ascii: "a") {
                return spanned(bytes[textStart..<textEnd], markdown: false)
            }
            textEnd += 1
        }
        return nil
    }

    // MARK: - text <url>

    /// The quoted phrase or the word before `<url>` on its line.
    private static func angleBracketed(start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (text: String, range: Range<Int>)? {
        var index = start - 1
        while index >= 0, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index -= 1 }
        guard index >= 0, bytes[index] != 0x0A, bytes[index] != 0x0D else { return nil }
        let limit = max(0, start - window)
        let end = index + 1
        if bytes[index] == UInt8(ascii: "\"") {
            var open = index - 1
            while open >= limit, bytes[open] != UInt8(ascii: "\""), bytes[open] != 0x0A { open -= 1 }
            guard open >= limit, bytes[open] == UInt8(ascii: "\"") else { return nil }
            return spanned(bytes[(open + 1)..<index], markdown: false)
        }
        var wordStart = index
        while wordStart > limit, !isSpace(bytes[wordStart - 1]) { wordStart -= 1 }
        // An opening bracket or quote is not part of the word: "(see paypal.com <url>)".
        while wordStart < end, [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "'")].contains(bytes[wordStart]) { wordStart += 1 }
        return spanned(bytes[wordStart..<end], markdown: false)
    }

    // MARK: - Text

    /// `cleaned` with the bytes it was read from.
    private static func spanned(_ slice: Slice<UnsafeBufferPointer<UInt8>>, markdown: Bool) -> (text: String, range: Range<Int>)? {
        cleaned(slice, markdown: markdown).map { ($0, slice.startIndex..<slice.endIndex) }
    }

    /// Tags dropped, the common entities decoded, white space collapsed; nil when empty.
    private static func cleaned(_ slice: Slice<UnsafeBufferPointer<UInt8>>, markdown: Bool) -> String? {
        var out: [UInt8] = []
        var index = slice.startIndex
        var inTag = false
        while index < slice.endIndex {
            let byte = slice[index]
            if !markdown, byte == UInt8(ascii: "<") { inTag = true } else if inTag {
                if byte == UInt8(ascii: ">") { inTag = false }
            } else if !markdown, byte == UInt8(ascii: "&"), let (decoded, length) = entity(slice, at: index) {
                out += decoded
                index += length
                continue
            } else if isSpace(byte) {
                if let last = out.last, last != UInt8(ascii: " ") { out.append(UInt8(ascii: " ")) }
            } else {
                out.append(byte)
            }
            index += 1
        }
        while out.last == UInt8(ascii: " ") { out.removeLast() }
        if markdown {
            // Emphasis around the whole text: **PayPal**, `paypal.com`.
            let marks: Set<UInt8> = [UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "~")]
            while let first = out.first, let last = out.last, out.count >= 2, first == last, marks.contains(first) {
                out.removeFirst()
                out.removeLast()
            }
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric references.
    private static func entity(_ slice: Slice<UnsafeBufferPointer<UInt8>>, at start: Int) -> ([UInt8], Int)? {
        var end = start + 1
        while end < slice.endIndex, end - start < 12, slice[end] != UInt8(ascii: ";") { end += 1 }
        guard end < slice.endIndex, slice[end] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: slice[(start + 1)..<end], as: UTF8.self).lowercased()
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
        if let value = named[name] { return (Array(value.utf8), end - start + 1) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
        return (Array(String(Character(scalar)).utf8), end - start + 1)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0A || byte == 0x0D }
    private static func isSpace(_ byte: UInt8) -> Bool { isBlank(byte) || byte == 0x0C }

    private static func matchesLowercased(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ word: String) -> Bool {
        guard start >= 0, start + word.utf8.count <= bytes.count else { return false }
        return zip(bytes[start..<(start + word.utf8.count)], word.utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
