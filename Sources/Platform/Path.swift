/// Path-string helpers with NSString's semantics for the cases callers use.
public enum Path {
    /// The last component: "/a/b" → "b", "/a/b/" → "b", "/" → "/", "" → "".
    public static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" || trimmed.isEmpty { return trimmed }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component: "/a/b" → "/a", "/a" → "/", "a" → "", "/" → "/".
    public static func parent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// `component` appended with one slash between: ("/a/", "b") → "/a/b"; an empty base gives `component`.
    public static func join(_ base: String, _ component: String) -> String {
        if base.isEmpty { return component }
        return base.hasSuffix("/") ? base + component : base + "/" + component
    }

    /// `target` as seen from the directory holding `link`: absolute targets as they are.
    public static func resolving(_ target: String, besides link: String) -> String {
        target.hasPrefix("/") ? target : join(parent(link), target)
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
