@testable import URLModel
@testable import Templates

/// Templates: `TEMPLATE\nURL`. Oracles: no crash; in URL context the fields of the URL are
/// escaped, so a template that is a URL with only `{to}`-style query placeholders stays one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (template, urlText) = twoParts(data, size)
    guard let url = try? ParsedURL(urlText.isEmpty ? "mailto:a@example.org?subject=x" : urlText) else { return 0 }
    for context in [Template.Context.url, .text] {
        _ = Template.expand(template, fields: Template.fields(for: url, context: context), context: context)
    }
    let compose = "https://mail.example/compose?to={to}&su={subject}&body={body}#" + String(template.prefix(64))
        .filter { $0 != "{" && $0 != "}" && $0 != "#" && !$0.isWhitespace && $0.isASCII && $0.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } == true }
    let expanded = Template.expand(compose, fields: Template.fields(for: url, context: .url), context: .url)
    if expanded.utf8.count <= ParsedURL.maximumLength {
        require((try? ParsedURL(expanded)) != nil, "expanded compose URL does not parse: \(expanded.debugDescription)")
    }
    return 0
}
