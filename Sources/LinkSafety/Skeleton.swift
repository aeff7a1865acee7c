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
        var out = [UInt8]()
        out.reserveCapacity(host.utf8.count + 4)
        for byte in host.utf8 { out += asciiTable[Int(byte & 0x7F)] }
        return String(decoding: out, as: UTF8.self)
    }

    /// ICU's skeleton of each ASCII character, lowercased (`m` → `rn`, `0` → `o`, `1` → `l`).
    private static let asciiTable: [[UInt8]] = (0..<128).map { value -> [UInt8] in
        let character = String(Character(Unicode.Scalar(UInt8(value))))
        return Array((SpoofICU.skeleton(character) ?? character).lowercased().utf8)
    }

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
