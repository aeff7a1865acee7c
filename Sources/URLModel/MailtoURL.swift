/// The fields of a `mailto:` URL (RFC 6068), percent-decoded.
///
/// Decoded values are kept as data: a `%0A` in a subject stays inside the subject and is
/// percent-encoded again wherever it goes into a URL, so it can never start a new header. An
/// address can never hold a line break or another control: one that does once decoded is left
/// out of the recipient lists and named in `problem`, and the link should be refused.
public struct MailtoURL: Sendable, Equatable {
    /// Recipients from the path and any `to=` fields, in display form (see `Address`).
    public var to: [String]
    /// `cc=` recipients, in display form.
    public var cc: [String]
    /// `bcc=` recipients, in display form.
    public var bcc: [String]
    /// The `subject=` field.
    public var subject: String?
    /// The `body=` field.
    public var body: String?
    /// Other header fields, in order, names lowercased.
    public var otherFields: [Field]
    /// `subject` and `body` when the link gave them more than once, in that order: the bodies
    /// are joined (one per line, CRLF between, as RFC 6068 writes line breaks and Thunderbird
    /// joins them), the last subject stands (as in Thunderbird), and the trace says so.
    public var repeatedFields: [String]
    /// Every recipient in both forms, with the field it came from, in order.
    public var addresses: [Address]
    /// Why the link must not be acted on, or nil: a recipient that holds CR, LF, NUL or another
    /// control once decoded (a mailer could take what follows for another header, a hidden
    /// Bcc), or whose domain UTS 46 refuses. Such recipients are in no list.
    public var problem: String?

    /// A header field other than to, cc, bcc, subject and body.
    public struct Field: Sendable, Equatable {
        /// The lowercased name.
        public var name: String
        /// The decoded value.
        public var value: String
    }

    /// One recipient.
    public struct Address: Sendable, Equatable {
        /// The header field it is listed in.
        public enum Kind: Sendable, Equatable {
            /// Listed in the path or a `to=` field.
            case to
            /// Listed in a `cc=` field.
            case cc
            /// Listed in a `bcc=` field: hidden from the other recipients.
            case bcc
        }
        /// Where it is listed.
        public var kind: Kind
        /// As shown: the local part as written, the domain mapped by UTS 46 as hosts are
        /// (`ｇｏｏｇｌｅ.com` is `google.com`) in its Unicode form (`bücher.de`).
        public var display: String
        /// The domain in ASCII form (`xn--bcher-kva.de`), for mailers that need it.
        public var ascii: String

        /// For a recipient written `Name <addr>`, the address alone in its display and ASCII
        /// forms (what `match.to` also sees); empty for a bare address.
        public var addressesInBrackets: [String] {
            guard display.utf8.last == UInt8(ascii: ">"), let spec = MailAddress.addrSpec(display) else { return [] }
            guard ascii != display, let asciiSpec = MailAddress.addrSpec(ascii), asciiSpec != spec else { return [spec] }
            return [spec, asciiSpec]
        }
    }

    /// The recipients a copy puts on the clipboard: To and Cc. Bcc recipients are hidden from
    /// the others by definition, so a copy never shows them.
    public var copiedRecipients: [String] { to + cc }

    /// Reads the mailto fields of a parsed `mailto:` URL.
    public init(_ url: ParsedURL) {
        to = []
        cc = []
        bcc = []
        subject = nil
        body = nil
        otherFields = []
        repeatedFields = []
        addresses = []
        problem = nil
        add(Substring(url.path), as: .to)
        guard let query = url.query else { return }
        for (_, name, rawValue) in Self.fields(of: query) {
            switch name {
            case "to": add(rawValue, as: .to)
            case "cc": add(rawValue, as: .cc)
            case "bcc": add(rawValue, as: .bcc)
            case "subject":
                if subject != nil, !repeatedFields.contains("subject") { repeatedFields.append("subject") }
                subject = Self.decode(rawValue)
            case "body":
                let text = Self.decode(rawValue)
                if let earlier = body {
                    if !repeatedFields.contains("body") { repeatedFields.append("body") }
                    body = earlier + "\r\n" + text
                } else {
                    body = text
                }
            default: otherFields.append(Field(name: name, value: Self.decode(rawValue)))
            }
        }
    }

    /// `url` as text without its `bcc=` fields: what a copy of a mailto with no visible
    /// recipient shows, so a hidden recipient is not revealed.
    public static func withoutBcc(_ url: ParsedURL) -> String {
        guard let query = url.query else { return url.string }
        let kept = fields(of: query, keepingEmpty: true).filter { $0.name != "bcc" }.map(\.pair)
        // Everything before the query as it is: `mailto://…` has an authority to keep too.
        let string = url.string
        var text = String(string[..<(string.firstIndex(of: "?") ?? string.endIndex)])
        if !kept.isEmpty { text += "?" + kept.joined(separator: "&") }
        if let fragment = url.fragment { text += "#" + fragment }
        return text
    }

    /// The header fields `forMailer` hands on. The others can make a mailer attach a local
    /// file (`attach`, `attachment`), change the sender (`from`) or the message's format, and
    /// are left out.
    public static let mailerFields = ["to", "cc", "bcc", "subject", "body"]

    /// This link as a mailto URL for a local mail program: To (in the path), Cc, Bcc, Subject and
    /// Body only, recipients in ASCII form, every value percent-encoded but for unreserved
    /// characters and an address's `@`, so nothing in a value (`'`, `,`, `=`, `&`) can read as a
    /// mailer's own syntax. The subject is one line: its controls are spaces.
    public var forMailer: String {
        func encoded(_ text: String, keepingAt: Bool) -> String {
            var out: [UInt8] = []
            for byte in text.utf8 {
                if PercentEncoding.isUnreserved(byte) || (keepingAt && byte == UInt8(ascii: "@")) { out.append(byte) } else { URLTail.appendEscaped(byte, to: &out) }
            }
            return String(decoding: out, as: UTF8.self)
        }
        // A recipient with an unbalanced quote would take the comma after it (and the next
        // recipient) into its quoted string: it goes in a field of its own.
        var alone: [String] = []
        func recipients(_ kind: Address.Kind, field: String) -> String {
            var joined: [String] = []
            for address in addresses where address.kind == kind {
                if MailAddress.hasUnbalancedQuote(address.ascii) {
                    alone.append("\(field)=" + encoded(address.ascii, keepingAt: true))
                } else {
                    joined.append(encoded(address.ascii, keepingAt: true))
                }
            }
            return joined.joined(separator: ",")
        }
        let to = recipients(.to, field: "to")
        var pairs: [String] = []
        for (name, value) in [("cc", recipients(.cc, field: "cc")), ("bcc", recipients(.bcc, field: "bcc"))] where !value.isEmpty {
            pairs.append("\(name)=\(value)")
        }
        pairs += alone
        if let subject, !subject.isEmpty {
            let oneLine = String(decoding: subject.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            pairs.append("subject=" + encoded(oneLine, keepingAt: false))
        }
        if let body, !body.isEmpty { pairs.append("body=" + encoded(body, keepingAt: false)) }
        return "mailto:" + to + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    /// Decodes a comma-separated address list and adds its items, dropping empty ones.
    private mutating func add(_ raw: Substring, as kind: Address.Kind) {
        for item in MailAddress.split(PercentEncoding.decodeBytes(raw)) {
            switch MailAddress.read(item) {
            case .success(let (display, ascii)):
                addresses.append(Address(kind: kind, display: display, ascii: ascii))
                switch kind {
                case .to: to.append(display)
                case .cc: cc.append(display)
                case .bcc: bcc.append(display)
                }
            case .failure(let reason):
                if problem == nil { problem = reason.message }
            }
        }
    }

    /// The `name=value` fields of a query: each as written, its name decoded and lowercased, and
    /// its value as written. Split on the UTF-8 bytes, as a split on Characters would miss an
    /// `=` or `&` that a combining mark after it joins into one Character (and cost more than
    /// the rest of the parse); `keepingEmpty` keeps empty fields (`a&&b`) in place.
    private static func fields(of query: String, keepingEmpty: Bool = false) -> [(pair: Substring, name: String, rawValue: Substring)] {
        // The items found by byte offset in the contiguous bytes, then cut from the text: the
        // UTF-8 view's generic `split` and `firstIndex` were ~1.3k instructions a mailto.
        var items: [(range: Range<Int>, equals: Int?)] = []
        var text = query
        text.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                var equals: Int?
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start || keepingEmpty { items.append((start..<end, equals)) }
                start = end + 1
            }
        }
        let utf8 = query.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        return items.map { item in
            let pair = Substring(utf8[index(item.range.lowerBound)..<index(item.range.upperBound)])
            let name = decode(Substring(utf8[index(item.range.lowerBound)..<index(item.equals ?? item.range.upperBound)])).lowercased()
            let rawValue = item.equals.map { Substring(utf8[index($0 + 1)..<index(item.range.upperBound)]) } ?? ""
            return (pair, name, rawValue)
        }
    }

    /// RFC 6068 does not give `+` a meaning, so it stays a plus (addresses like a+b@x.org).
    private static func decode(_ raw: Substring) -> String {
        String(decoding: PercentEncoding.decodeBytes(raw), as: UTF8.self)
    }
}
