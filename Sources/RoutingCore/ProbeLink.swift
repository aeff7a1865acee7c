/// The link `openurl doctor` sends down one way a link can arrive (xdg-open, gio open, the
/// portal, ...) to prove it reaches openurld. Its host is under `.invalid`, which RFC 2606 keeps
/// from ever resolving, so a probe that goes around openurld to a browser opens nothing real.
/// The router records a probe (hidden from `openurl recent` unless asked) and never launches it,
/// never notifies, never takes it for a duplicate.
public enum ProbeLink {
    /// The host every probe names.
    public static let host = "openurld.invalid"
    /// The name a probe's decision gives as its rule.
    public static let ruleName = "openurl doctor probe"
    /// The outcome text a probe is recorded with.
    public static let outcome = "probe"
    /// The most a token may hold: enough for a run's nonce and a row's name.
    public static let maximumTokenBytes = 64

    /// `https://openurld.invalid/probe/TOKEN`.
    public static func web(_ token: String) -> String { "https://\(host)/probe/\(token)" }

    /// `mailto:probe-TOKEN@openurld.invalid`.
    public static func mail(_ token: String) -> String { "mailto:probe-\(token)@\(host)" }

    /// The token of a probe link (either form, any letter case in the scheme and host, an
    /// `http` web form too, a trailing slash allowed, as some tools add one); nil for any other link.
    public static func token(in url: String) -> String? {
        let bytes = Array(url.utf8)
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        func starts(_ prefix: String) -> Int? { lowered.starts(with: prefix.utf8) ? prefix.utf8.count : nil }
        var token: ArraySlice<UInt8>
        if let start = starts("https://\(host)/probe/") ?? starts("http://\(host)/probe/") {
            token = bytes[start...]
            if token.last == 0x2F { token = token.dropLast() }
        } else if let start = starts("mailto:probe-") {
            let suffix = Array("@\(host)".utf8)
            guard lowered.count > start + suffix.count, Array(lowered.suffix(suffix.count)) == suffix else { return nil }
            token = bytes[start..<(bytes.count - suffix.count)]
        } else {
            return nil
        }
        guard !token.isEmpty, token.count <= maximumTokenBytes, token.allSatisfy(isTokenByte) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// Letters, digits, `-`, `_` and `.`: what a token is made of, so it survives every tool's quoting.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }
}
