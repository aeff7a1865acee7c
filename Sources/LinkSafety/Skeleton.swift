/// TR 39 skeletons of host names, as look-alike checks compare them: two names look alike when
/// their skeletons are equal (`pаypal.com` with a Cyrillic а and `paypal.com` both give
/// `paypal.corn`).
///
/// On top of ICU's skeleton: accents are dropped from names written in Latin, Greek and
/// Cyrillic (`tést` compares as `test`), characters TR 39 leaves alone but that look Latin are
/// mapped (`шмнть` → `wmhtb`), a character that looks like two things is tried both ways
/// (`þ` as `b` and `p`), and the result is lowercased, so that `g00gle` compares as `google`.
enum Skeleton {
    /// Most variants tried for one name (characters with two readings multiply them).
    static let maximumVariants = 32

    /// The skeletons of `host` (either form; Unicode is what the skeleton reads), one per
    /// reading; empty when ICU cannot take it.
    static func skeletons(of host: String) -> [String] {
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return [ascii(host)] }
        var name = host
        if name.unicodeScalars.allSatisfy(IDNPolicy.isLGCOrASCII) {
            guard let stripped = SpoofICU.strippingMarks(name) else { return [] }
            name = String(String.UnicodeScalarView(stripped.unicodeScalars.map(droppingStroke)))
        }
        var found: [String] = []
        for variant in variants(of: name) {
            var mapped = ""
            for scalar in variant.unicodeScalars {
                if let replacement = IDNTables.extraSkeleton[scalar] { mapped += replacement } else { mapped.unicodeScalars.append(scalar) }
            }
            guard let skeleton = SpoofICU.skeleton(mapped) else { continue }
            let lowered = skeleton.lowercased()
            if !found.contains(lowered) { found.append(lowered) }
        }
        return found
    }

    /// The skeleton of an all-ASCII name from a table of ICU's skeletons of each ASCII
    /// character, built once: no ICU call per name.
    static func ascii(_ host: String) -> String {
        // Every link with known domains takes this path: written straight into the string's
        // storage from a flat table (an array of arrays cost a retain and an append per byte).
        let longest = asciiTable.longest
        var host = host
        return host.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count * longest) { out in
                var count = 0
                asciiTable.bytes.withUnsafeBufferPointer { table in
                    for byte in bytes {
                        let entry = Int(byte & 0x7F) * (longest + 1)
                        let length = Int(table[entry])
                        for offset in 0..<length { out[count + offset] = table[entry + 1 + offset] }
                        count += length
                    }
                }
                return count
            }
        }
    }

    /// ICU's skeleton of each ASCII character, lowercased, as ICU computes it: what
    /// `asciiSkeletons` must equal (SkeletonTests holds it to that).
    static func asciiSkeletonsFromICU() -> [String] {
        (0..<128).map { value -> String in
            let character = String(Character(Unicode.Scalar(UInt8(value))))
            return (SpoofICU.skeleton(character) ?? character).lowercased()
        }
    }

    /// ICU 72's skeleton of each ASCII character, lowercased: the character itself, lowercased,
    /// but for these seven. Written out so that ASCII hosts never load ICU (2.7 MB mapped);
    /// SkeletonTableTests compares the whole table with ICU's on every run.
    static let asciiSkeletons: [String] = (0..<128).map { value in
        switch value {
        case 0x22: "''"
        case 0x25: "\u{BA}/\u{2080}"
        case 0x30: "o"
        case 0x31, 0x49, 0x7C: "l"
        case 0x60: "'"
        case 0x6D: "rn"
        default: String(Character(Unicode.Scalar(UInt8(value)))).lowercased()
        }
    }

    /// ICU's skeleton of each ASCII character, lowercased (`m` → `rn`, `0` → `o`, `1` → `l`):
    /// for each of the 128, its length then its bytes, in slots of `longest + 1`.
    private static let asciiTable: (bytes: [UInt8], longest: Int) = {
        let skeletons = asciiSkeletons.map { Array($0.utf8) }
        let longest = max(1, skeletons.map(\.count).max() ?? 1)
        var bytes = [UInt8](repeating: 0, count: 128 * (longest + 1))
        for (index, skeleton) in skeletons.enumerated() {
            bytes[index * (longest + 1)] = UInt8(skeleton.count)
            for (offset, byte) in skeleton.enumerated() { bytes[index * (longest + 1) + 1 + offset] = byte }
        }
        return (bytes, longest)
    }()

    /// `ł ø đ` have no decomposition, so dropping marks leaves them; they read as `l o d`.
    private static func droppingStroke(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar {
        case "ł": return "l"
        case "ø": return "o"
        case "đ": return "d"
        default: return scalar
        }
    }

    /// `name` with each character of two readings replaced every way, the original first; the
    /// original alone when there are too many such characters to try.
    private static func variants(of name: String) -> [String] {
        let scalars = Array(name.unicodeScalars)
        let twofold = scalars.filter { IDNTables.alternatives[$0] != nil }.count
        guard twofold > 0, twofold <= 5 else { return [name] }
        var results: [String] = [""]
        for scalar in scalars {
            var readings = [String(Character(scalar))]
            readings += IDNTables.alternatives[scalar] ?? []
            var next: [String] = []
            for prefix in results {
                for reading in readings where next.count < maximumVariants { next.append(prefix + reading) }
            }
            results = next
        }
        return results
    }
}
