import URLModel

/// Strips tracking parameters from a URL's query, leaving every other byte as it was.
///
/// The built-in list is ours. It was assembled from, and is checked against, these public lists:
/// - ClearURLs `globalRules` (the `utm_*`, `fbclid`, `gclid`, `yclid`, `_openstat`, HubSpot
///   `_hs*`/`__hs*`, Marketo `mkt_tok`, `wickedid`, `oly_*`, `vero_*` families),
/// - Firefox's query-parameter stripping list (`fbclid`, `gclid`, `dclid`, `msclkid`, `mc_eid`,
///   `oly_anon_id`, `oly_enc_id`, `_hsenc`, `__hssc`, `__hstc`, `__hsfp`, `hsCtaTracking`,
///   `mkt_tok`, `vero_id`, `wickedid`, `yclid`, `twclid`, `ttclid`, `igshid`, `_kx`, `ml_subscriber*`),
/// - Brave's de-AMP/query filter (`gbraid`, `wbraid`, `gclsrc`, `li_fat_id`, `s_cid`, `ref_src`,
///   `_gl`, `rb_clickid`, `ysclid`, `epik`),
/// - the AdGuard URL Tracking filter (`mc_cid`, `_ga`, `igsh`, `mtm_*`, `pk_campaign`, `__s`).
/// Only parameters that are tracking on every site are here; site-specific ones (Amazon `tag`,
/// YouTube `si`) belong to ClearURLs provider rules, which are scoped by host.
public enum TrackingCleaner {
    /// Exact parameter names (compared ASCII case-insensitively after percent-decoding).
    public static let names: [String] = [
        "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "mc_eid", "mc_cid",
        "_ga", "_gl", "igshid", "igsh", "yclid", "ysclid", "twclid", "ttclid", "li_fat_id",
        "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv", "_hsenc", "_hsmi",
        "__hstc", "__hssc", "__hsfp", "hsctatracking", "ref_src", "s_cid", "wickedid",
        "_openstat", "rb_clickid", "epik", "_kx", "ml_subscriber", "ml_subscriber_hash", "__s",
        "pk_campaign", "pk_kwd", "pk_source", "pk_medium", "pk_content",
    ]

    /// Name prefixes: any parameter starting with one of these is tracking.
    public static let prefixes: [String] = ["utm_", "mtm_"]

    private static let nameSet: Set<String> = Set(names.map { $0.lowercased() })
    private static let prefixBytes: [[UInt8]] = prefixes.map { Array($0.utf8) }

    /// True when `name` (raw, possibly percent-encoded) is a tracking parameter.
    public static func isTracking(name: String) -> Bool {
        isTracking(nameBytes: Array(name.utf8)[...])
    }

    /// Lower-cased names by length, for comparing without building strings.
    private static let namesByLength: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 65)
        for name in nameSet { table[name.utf8.count].append(Array(name.utf8)) }
        return table
    }()

    static func isTracking<Name: RandomAccessCollection<UInt8>>(nameBytes raw: Name) -> Bool where Name.Index == Int {
        guard !raw.isEmpty, raw.count <= 64 else { return false }
        if !raw.contains(UInt8(ascii: "%")) {
            // Index loops: `zip(...).allSatisfy` costs an iterator copy and release per name.
            @inline(__always) func startsWith(_ lowered: [UInt8]) -> Bool {
                var i = raw.startIndex
                for b in lowered {
                    let r = raw[i]
                    if (r >= 0x41 && r <= 0x5A ? r + 32 : r) != b { return false }
                    i += 1
                }
                return true
            }
            for prefix in prefixBytes where raw.count > prefix.count && startsWith(prefix) { return true }
            for name in namesByLength[raw.count] where startsWith(name) { return true }
            return false
        }
        var name: [UInt8] = raw.contains(UInt8(ascii: "%"))
            ? PercentEncoding.decodeBytes(Substring(String(decoding: raw, as: UTF8.self)))
            : Array(raw)
        for i in name.indices where name[i] >= 0x41 && name[i] <= 0x5A { name[i] += 32 }
        for prefix in prefixBytes where name.count > prefix.count && name.starts(with: prefix) {
            return true
        }
        return nameSet.contains(String(decoding: name, as: UTF8.self))
    }

    /// Removes tracking parameters from the query of `url`. The fragment is never touched.
    /// Returns the new URL and the raw names removed (in order, repeats included).
    public static func clean(_ url: String) -> (url: String, removed: [String]) {
        clean(url, split: URLSplit(url))
    }

    /// `clean(_:)` for a URL already split (`split` is `URLSplit(url)`).
    static func clean(_ url: String, split: URLSplit) -> (url: String, removed: [String]) {
        guard let result = removingItems(from: split, keepName: { !isTracking(nameBytes: $0) }) else { return (url, []) }
        let removed = result.removed.map { String(decoding: split.bytes[$0.nameRange], as: UTF8.self) }
        return (String(decoding: result.url, as: UTF8.self), removed)
    }
}
