@testable import LinkExtraction

/// Link extraction on raw text. Oracles: every link's range lies in the text and holds its
/// text; every link's URL is non-empty.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = text(data, size)
    let bytes = Array(input.utf8)
    for link in LinkExtractor.extract(from: input) {
        require(link.utf8Range.lowerBound >= 0 && link.utf8Range.upperBound <= bytes.count, "link range outside the text")
        require(String(decoding: bytes[link.utf8Range], as: UTF8.self) == link.text, "link range does not hold the link's text")
        require(!link.url.isEmpty, "an empty link URL")
    }
    return 0
}
