@testable import Routing
@testable import URLModel

/// mailto URLs (RFC 6068). Oracles: the fields of the normal form are the fields of the input;
/// decoded fields never leak into the URL unescaped (the copy text is the recipients).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let url = try? ParsedURL(text(data, size)), url.scheme == "mailto" else { return 0 }
    let mailto = MailtoURL(url)
    guard let again = try? ParsedURL(url.string) else {
        require(false, "mailto normal form does not re-parse")
        return 0
    }
    require(MailtoURL(again) == mailto, "mailto fields change on re-parse")
    for template in Webmail.builtIn.values {
        let compose = Template.expand(template, fields: Template.fields(for: url, context: .url), context: .url)
        if compose.utf8.count <= ParsedURL.maximumLength {
            require((try? ParsedURL(compose)) != nil, "webmail compose URL does not parse: \(compose.debugDescription)")
        }
    }
    return 0
}
