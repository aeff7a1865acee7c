@testable import URLModel
@testable import Templates
@testable import ConfigLanguage
@testable import Routing

/// mailto URLs (RFC 6068). Oracles: the fields of the normal form are the fields of the input;
/// no recipient ever holds CR, LF, NUL or another control (such a link has a `problem`
/// instead); an address's ASCII form reads back as the same address; a copy shows To and Cc,
/// never Bcc, and no line break; webmail compose URLs parse; what a mail program is handed
/// (`forMailer`) re-reads as the same fields.
let copyEngine = RuleEngine(config: Config())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let url = try? ParsedURL(text(data, size)), url.scheme == "mailto" else { return 0 }
    let mailto = MailtoURL(url)
    guard let again = try? ParsedURL(url.string) else {
        require(false, "mailto normal form does not re-parse")
        return 0
    }
    require(MailtoURL(again) == mailto, "mailto fields change on re-parse")
    let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
    for recipient in mailto.to + mailto.cc + mailto.bcc {
        require(!recipient.utf8.contains(where: isControl), "control in recipient \(recipient.debugDescription)")
    }
    for (kind, list) in [(MailtoURL.Address.Kind.to, mailto.to), (.cc, mailto.cc), (.bcc, mailto.bcc)] {
        require(mailto.addresses.filter { $0.kind == kind }.map(\.display) == list, "addresses and the \(kind) list disagree")
    }
    for address in mailto.addresses {
        require(!address.ascii.utf8.contains(where: isControl), "control in \(address.ascii.debugDescription)")
        if case .success(let reread) = MailAddress.read(Array(address.ascii.utf8)[...]) {
            require(reread.display == address.display && reread.ascii == address.ascii,
                    "ASCII form \(address.ascii.debugDescription) reads back as \(reread.display.debugDescription), not \(address.display.debugDescription)")
        } else {
            require(false, "ASCII form \(address.ascii.debugDescription) is refused")
        }
    }
    if let problem = mailto.problem { require(!problem.isEmpty, "empty problem") }
    let copy = copyEngine.copy(for: url, template: nil)
    require(!copy.text.utf8.contains(where: isControl), "control in copy \(copy.text.debugDescription)")
    if !mailto.copiedRecipients.isEmpty {
        require(copy.text == mailto.copiedRecipients.joined(separator: ", "), "copy is not To and Cc")
    }
    require(copy.leftOutBcc == !mailto.bcc.isEmpty, "leftOutBcc wrong")
    if mailto.copiedRecipients.isEmpty, !mailto.bcc.isEmpty {
        let copied = (try? ParsedURL(copy.text)).map(MailtoURL.init)
        require(copied?.bcc.isEmpty == true, "the copy without Bcc still has Bcc: \(copy.text.debugDescription)")
    }
    // What a mail program is handed: its own normal form, the same recipients, subject on one
    // line, the same body, no other field, and nothing a mailer's syntax could read ('=' and
    // '&' only between fields).
    let handed = mailto.forMailer
    if handed.utf8.count <= ParsedURL.maximumLength {
        guard let reparsed = try? ParsedURL(handed) else {
            require(false, "forMailer does not parse: \(handed.debugDescription)")
            return 0
        }
        require(reparsed.string == handed, "forMailer is not a normal form: \(handed.debugDescription)")
        let reread = MailtoURL(reparsed)
        require(reread.problem == nil && reread.otherFields.isEmpty, "forMailer has a problem or other fields: \(handed.debugDescription)")
        // Each list holds the same recipients (one with an unbalanced quote moves to a field of its own).
        for kind in [MailtoURL.Address.Kind.to, .cc, .bcc] {
            let before = mailto.addresses.filter { $0.kind == kind }.map(\.ascii).sorted()
            let after = reread.addresses.filter { $0.kind == kind }.map(\.ascii).sorted()
            require(before == after, "forMailer changes the \(kind) recipients: \(handed.debugDescription)")
        }
        let oneLine = mailto.subject.map { String(decoding: $0.utf8.map { isControl($0) ? UInt8(ascii: " ") : $0 }, as: UTF8.self) }
        require(reread.subject == (oneLine?.isEmpty == false ? oneLine : nil), "forMailer changes the subject")
        require(reread.body == (mailto.body?.isEmpty == false ? mailto.body : nil), "forMailer changes the body")
        require(!handed.contains("'"), "a quote in forMailer: \(handed.debugDescription)")
    }
    for template in Webmail.builtIn.values {
        let compose = Template.expand(template, fields: Template.fields(for: url, context: .url), context: .url)
        if compose.utf8.count <= ParsedURL.maximumLength {
            require((try? ParsedURL(compose)) != nil, "webmail compose URL does not parse: \(compose.debugDescription)")
        }
    }
    return 0
}
