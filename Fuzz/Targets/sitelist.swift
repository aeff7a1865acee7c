@testable import SiteLists
import URLModel

/// Site lists: the bytes read as each format (Enterprise Mode v.2 and v.1 XML, one pattern a
/// line). Oracles: an error names a line and column inside the file; every entry read is on a
/// line of the file, its pattern reads again as itself, and the site an entry names is matched
/// by that entry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.filter { $0 == 10 }.count + 1
    for format in SiteListFormat.allCases {
        let list: SiteList
        do { list = try SiteList.parse(bytes, format: format) } catch {
            require(error.line >= 1 && error.line <= lines && error.column >= 1, "error at \(error.line):\(error.column) outside the file")
            continue
        }
        for entry in list.entries {
            require(entry.line >= 1 && entry.line <= lines, "entry on line \(entry.line) of \(lines)")
            guard let again = try? SiteListPattern(entry.pattern.text) else {
                require(false, "\(entry.pattern.text.debugDescription) does not read again")
                return 0
            }
            require(again == entry.pattern, "\(entry.pattern.text.debugDescription) reads differently")
            // The pattern's host went through `matchingHost`, which drops one trailing dot: put
            // it back for a host that still ends in one (`example.com..` names `example.com.`).
            let host = entry.pattern.host.hasSuffix(".") ? entry.pattern.host + "." : entry.pattern.host
            guard !entry.pattern.isWildcard, let url = try? ParsedURL("\(entry.pattern.scheme ?? "https")://\(host)\(entry.pattern.port.map { ":\($0)" } ?? "")\(entry.pattern.path)") else { continue }
            _ = list.verdict(for: url)
            require(list.bestMatch(for: url, kinds: [entry.kind]) != nil, "\(entry.pattern.text.debugDescription) does not match its own site \(url.string)")
        }
    }
    return 0
}
