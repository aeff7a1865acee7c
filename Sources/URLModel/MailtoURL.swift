/// The fields of a `mailto:` URL (RFC 6068), percent-decoded.
///
/// Decoded values are kept as data: a `%0A` in a subject stays inside the subject and is
/// percent-encoded again wherever it goes into a URL, so it can never start a new header.
public struct MailtoURL: Sendable, Equatable {
    /// Recipients from the path and any `to=` fields.
    public var to: [String]
    /// `cc=` recipients.
    public var cc: [String]
    /// `bcc=` recipients.
    public var bcc: [String]
    /// The `subject=` field.
    public var subject: String?
    /// The `body=` field.
    public var body: String?
    /// Other header fields, in order, names lowercased.
    public var otherFields: [Field]

    /// A header field other than to, cc, bcc, subject and body.
    public struct Field: Sendable, Equatable {
        /// The lowercased name.
        public var name: String
        /// The decoded value.
        public var value: String
    }

    /// Reads the mailto fields of a parsed `mailto:` URL.
    public init(_ url: ParsedURL) {
        to = Self.addresses(Substring(url.path))
        cc = []
        bcc = []
        subject = nil
        body = nil
        otherFields = []
        guard let query = url.query else { return }
        // Split on the UTF-8 bytes: a split on Characters cost more than the rest of the parse.
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = Self.decode(Substring(pair[pair.startIndex..<(equals ?? pair.endIndex)])).lowercased()
            let rawValue = equals.map { Substring(pair[pair.index(after: $0)...]) } ?? ""
            switch name {
            case "to": to += Self.addresses(rawValue)
            case "cc": cc += Self.addresses(rawValue)
            case "bcc": bcc += Self.addresses(rawValue)
            case "subject": subject = Self.decode(rawValue)
            case "body": body = Self.decode(rawValue)
            default: otherFields.append(Field(name: name, value: Self.decode(rawValue)))
            }
        }
    }

    /// Decodes and splits a comma-separated address list, dropping empty items.
    private static func addresses(_ raw: Substring) -> [String] {
        PercentEncoding.decodeBytes(raw).split(separator: UInt8(ascii: ",")).compactMap { item in
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            guard let first = item.firstIndex(where: { !isSpace($0) }), let last = item.lastIndex(where: { !isSpace($0) }) else { return nil }
            return String(decoding: item[first...last], as: UTF8.self)
        }
    }

    /// RFC 6068 does not give `+` a meaning, so it stays a plus (addresses like a+b@x.org).
    private static func decode(_ raw: Substring) -> String {
        String(decoding: PercentEncoding.decodeBytes(raw), as: UTF8.self)
    }
}
