import Glibc

/// Runs `body` with `strings` as a NULL-terminated array of C strings (copies, freed after), as
/// C APIs that take `const char **` (GTK's string lists, `execv`) want them.
public func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    return body(copies.map { UnsafePointer($0) })
}
