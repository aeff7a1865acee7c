@testable import ConfigLanguage
@testable import Routing


/// The config loader on TOML text, through the C++ bridge. Oracles: no crash, an error always
/// names a position, and a config that loads can decide.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let config = try ConfigLoader.load(text: text(data, size), path: "fuzz.toml")
        let engine = RuleEngine(config: config)
        _ = try? engine.decide("https://example.org/a?utm_source=x")
        _ = try? engine.decide("mailto:a@example.org?subject=x", explain: true)
    } catch {
        require(!error.diagnostics.isEmpty, "config error without a diagnostic")
        require(error.description.hasPrefix("fuzz.toml:"), "config error without a position: \(error.description.prefix(200))")
    }
    return 0
}
