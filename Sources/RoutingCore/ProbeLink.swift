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
        if let found = url.utf8.withContiguousStorageIfAvailable({ token(in: $0) }) { return found }
        return Array(url.utf8).withUnsafeBufferPointer { token(in: $0) }
    }

    /// `token(in:)` over the link's bytes. Every click passes here: anything that does not start
    /// like a probe is turned away after a few bytes, without allocating.
    private static func token(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let start: Int
        let isMail: Bool
        if let web = prefixLength(bytes, httpsPrefix) ?? prefixLength(bytes, httpPrefix) {
            (start, isMail) = (web, false)
        } else if let mail = prefixLength(bytes, mailPrefix) {
            (start, isMail) = (mail, true)
        } else {
            return nil
        }
        var end = bytes.count
        if isMail {
            let suffix = mailSuffix
            guard end - start > suffix.count, (0..<suffix.count).allSatisfy({ lowercased(bytes[end - suffix.count + $0]) == suffix[$0] }) else { return nil }
            end -= suffix.count
        } else if end > start, bytes[end - 1] == 0x2F {
            end -= 1
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard !token.isEmpty, token.count <= maximumTokenBytes, token.allSatisfy(isTokenByte) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    private static let httpsPrefix = Array("https://\(host)/probe/".utf8)
    private static let httpPrefix = Array("http://\(host)/probe/".utf8)
    private static let mailPrefix = Array("mailto:probe-".utf8)
    private static let mailSuffix = Array("@\(host)".utf8)

    /// The length of `prefix` when `bytes` starts with it, ASCII letters in any case.
    private static func prefixLength(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Int? {
        guard bytes.count >= prefix.count else { return nil }
        for index in 0..<prefix.count where lowercased(bytes[index]) != prefix[index] { return nil }
        return prefix.count
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Letters, digits, `-`, `_` and `.`: what a token is made of, so it survives every tool's quoting.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }
}
