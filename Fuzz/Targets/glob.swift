@testable import Patterns

/// Globs: `PATTERN\nTEXT`. Oracles: a pattern without special characters matches itself and
/// nothing longer; a trailing newline never sneaks past the anchor.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (pattern, subject) = twoParts(data, size)
    for separator in [Character?.none, ".", "/"] {
        guard let glob = try? Glob(pattern, separator: separator, caseInsensitive: separator == ".") else { continue }
        _ = glob.matches(subject)
        if !pattern.contains(where: { "*?[\\".contains($0) }) {
            require(glob.matches(pattern), "a literal glob does not match itself")
            require(!glob.matches(pattern + "\n"), "a literal glob matches its text plus a newline")
        }
        if glob.matches(subject), !pattern.hasSuffix("*"), !pattern.contains("**"), separator != nil {
            require(!glob.matches(subject + "\n") || subject.isEmpty || pattern.contains("?") || pattern.contains("["),
                    "a glob matches before a final newline")
        }
    }
    return 0
}
