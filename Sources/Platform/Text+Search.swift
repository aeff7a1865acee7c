// Text search by UTF-8 bytes. The product's modules are built without _StringProcessing (its
// Regex parser, generic searching and the Unicode names table were ~1.4 MB of the binary; see
// Package.swift), so what it gave String (`contains`, `firstRange(of:)`, `ranges(of:)`) is here,
// for text where bytes are what matters: paths, URLs, keys and the ASCII words we look for.
// `replacingEvery` (Text+Replacing) finds its targets with `ranges(ofText:)`.

extension StringProtocol {
    /// The first place `needle` occurs, by UTF-8 bytes; an empty needle is found at the start.
    public func firstRange(ofText needle: some StringProtocol) -> Range<Index>? {
        firstRange(ofText: needle, from: startIndex)
    }

    /// The first place `needle` occurs at or after `start`, by UTF-8 bytes.
    public func firstRange(ofText needle: some StringProtocol, from start: Index) -> Range<Index>? {
        let hay = utf8
        let wanted = needle.utf8
        guard let head = wanted.first else { return start..<start }
        var index = start
        while index != hay.endIndex {
            if hay[index] == head {
                var h = index
                var w = wanted.startIndex
                while w != wanted.endIndex, h != hay.endIndex, hay[h] == wanted[w] {
                    hay.formIndex(after: &h)
                    wanted.formIndex(after: &w)
                }
                if w == wanted.endIndex { return index..<h }
                if h == hay.endIndex { return nil }
            }
            hay.formIndex(after: &index)
        }
        return nil
    }

    /// Whether `needle` occurs in the text, by UTF-8 bytes.
    public func containsText(_ needle: some StringProtocol) -> Bool {
        firstRange(ofText: needle) != nil
    }

    /// Every place `needle` occurs, left to right without overlaps; none for an empty needle.
    public func ranges(ofText needle: some StringProtocol) -> [Range<Index>] {
        guard !needle.isEmpty else { return [] }
        var found: [Range<Index>] = []
        var start = startIndex
        while let range = firstRange(ofText: needle, from: start) {
            found.append(range)
            start = range.upperBound
        }
        return found
    }
}
