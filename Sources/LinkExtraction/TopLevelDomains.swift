/// The top-level domains a bare host (`example.com`, no scheme) must end in to count as a link.
///
/// As in linkify-it: every delegated two-letter country code, a list of common generic TLDs,
/// punycode roots (`xn--…`) and a few Unicode roots. A scheme (`http://intranet`) needs none of
/// this; the list only keeps words like `node.js` or `image.jpg` from becoming links.
enum TopLevelDomains {
    /// Two-letter country codes, grouped by first letter exactly as linkify-it's generated
    /// pattern (plus `ss`, delegated since).
    private static let countryCodes: [(Character, String)] = [
        ("a", "cdefgilmnoqrstuwxz"), ("b", "abdefghijmnorstvwyz"), ("c", "acdfghiklmnoruvwxyz"),
        ("d", "ejkmoz"), ("e", "cegrstu"), ("f", "ijkmor"), ("g", "abdefghilmnpqrstuwy"),
        ("h", "kmnrtu"), ("i", "delmnoqrst"), ("j", "emop"), ("k", "eghimnprwyz"),
        ("l", "abcikrstuvy"), ("m", "acdeghklmnopqrstuvwxyz"), ("n", "acefgilopruz"), ("o", "m"),
        ("p", "aefghklmnrstwy"), ("q", "a"), ("r", "eosuw"), ("s", "abcdeghijklmnorstuvxyz"),
        ("t", "cdfghjklmnortvwz"), ("u", "agksyz"), ("v", "aceginu"), ("w", "fs"), ("y", "et"),
        ("z", "amw"),
    ]

    /// linkify-it's defaults (`biz com edu gov net org pro web xxx aero asia coop info museum
    /// name shop`) plus generic TLDs common in links people paste today.
    private static let generic: [String] = [
        "biz", "com", "edu", "gov", "net", "org", "pro", "web", "xxx", "aero", "asia", "coop",
        "info", "museum", "name", "shop",
        "int", "mil", "app", "dev", "xyz", "online", "site", "tech", "store", "blog", "cloud",
        "page", "news", "live", "club", "design", "wiki", "social", "travel", "zone", "space",
        "website", "digital", "media", "agency", "software", "network", "studio", "email",
        "team", "games", "chat", "ngo", "jobs", "mobi", "tel", "cat", "eus", "gal", "berlin",
        "london", "nyc", "paris", "tokyo", "google", "microsoft", "apple", "amazon",
    ]

    /// Unicode roots accepted as they are written (lowercased).
    private static let unicodeRoots: Set<String> = [
        "рф", "укр", "бел", "срб", "қаз", "мкд", "мон", "中国", "中國", "香港", "台灣", "台湾",
        "新加坡", "한국", "онлайн", "сайт",
    ]

    /// 26×26 bit table: `twoLetter[(a * 26) + b]` for the code `a b` (0-based letters).
    private static let twoLetter: [Bool] = {
        var table = [Bool](repeating: false, count: 26 * 26)
        for (first, seconds) in countryCodes {
            let a = Int(first.asciiValue ?? 97) - 97
            for second in seconds.utf8 { table[a * 26 + Int(second) - 97] = true }
        }
        return table
    }()

    /// Generic TLDs packed 5 bits a letter into a UInt64 (all are at most 12 letters), so a
    /// lookup allocates nothing.
    private static let packedGeneric: Set<UInt64> = Set(generic.compactMap { pack(Array($0.utf8)[...]) })

    /// Packs up to 12 ASCII letters (any case) into a UInt64; nil for anything else.
    private static func pack(_ label: ArraySlice<UInt8>) -> UInt64? {
        guard label.count <= 12 else { return nil }
        var value: UInt64 = 0
        for byte in label {
            let lower = byte | 0x20
            guard lower >= 0x61 && lower <= 0x7A else { return nil }
            value = value << 5 | UInt64(lower - 0x60)
        }
        return value
    }

    /// Whether `label` (the last label of a host, raw UTF-8) is a known top-level domain.
    static func isKnown(_ label: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = label.count
        if count == 2 {
            let a = Int(label[0] | 0x20) - 97, b = Int(label[1] | 0x20) - 97
            guard a >= 0 && a < 26 && b >= 0 && b < 26 else { return false }
            return twoLetter[a * 26 + b]
        }
        if count < 2 { return false }
        if label.allSatisfy({ $0 < 0x80 }) {
            if count >= 5 && count <= 63 && isPunycodeRoot(label) { return true }
            guard let packed = pack(ArraySlice(label)) else { return false }
            return packedGeneric.contains(packed)
        }
        return unicodeRoots.contains(String(decoding: label, as: UTF8.self).lowercased())
    }

    /// `xn--` followed by letters, digits and hyphens, case-insensitively.
    private static func isPunycodeRoot(_ label: UnsafeBufferPointer<UInt8>) -> Bool {
        guard label[0] | 0x20 == 0x78, label[1] | 0x20 == 0x6E, label[2] == 0x2D, label[3] == 0x2D else {
            return false
        }
        return label[4...].allSatisfy { byte in
            let lower = byte | 0x20
            return (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        }
    }
}
