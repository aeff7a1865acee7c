import Foundation
import LinkSafety
import Testing
import URLModel

/// The real lists from Debian's uBlock Origin package (`webext-ublock-origin-firefox`, which
/// `.ci/run` installs): found by `auto`, read whole, and every plain host and URL entry in them
/// blocks a link built from it. Without the package these tests fail and say what to install.
@Suite struct DebianListsTests {
    static func locations() -> [BlockListLocation] {
        BlockListDiscovery.auto { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    static let missing = "Debian's uBlock Origin lists are not installed: apt-get install -y \(BlockListDiscovery.package)"

    @Test func autoFindsBothLists() {
        let found = Self.locations()
        #expect(found.map(\.name) == BlockListDiscovery.lists.map(\.name), "\(Self.missing) (found \(found.map(\.path)))")
        for location in found { #expect(location.path.hasPrefix("/usr/share/"), "\(location.path)") }
    }

    @Test func everyPlainEntryBlocksALinkBuiltFromIt() throws {
        let found = Self.locations()
        guard !found.isEmpty else {
            Issue.record(Comment(rawValue: Self.missing))
            return
        }
        for location in found {
            let list = BlockList(path: location.path, name: location.name) { FileManager.default.contents(atPath: location.path).map { [UInt8]($0) } }
            let summary = list.summary
            print("\(location.name): \(summary.counts.description) [\(location.path)]")
            #expect(summary.error == nil)
            #expect(summary.counts.entries > 3000, "\(location.name): \(summary.counts.description)")
            let text = try String(contentsOfFile: location.path, encoding: .utf8)
            var tried = 0, blocked: [String] = [], missed: [String] = []
            for line in text.split(separator: "\n").map(String.init) {
                guard let url = Self.link(from: line) else { continue }
                tried += 1
                guard let parsed = try? ParsedURL(url), let block = list.block(for: parsed) else {
                    missed.append("\(line) → \(url)")
                    continue
                }
                blocked.append(url)
                #expect(block.list == location.name)
            }
            print("\(location.name): \(blocked.count) of \(tried) links built from plain entries are blocked")
            #expect(tried > 1000, "\(location.name): only \(tried) plain entries")
            #expect(missed.isEmpty, "\(location.name): \(missed.count) not blocked, e.g. \(missed.prefix(5))")
            for stranger in ["https://example.com/", "https://www.debian.org/", "https://archive.org/", "https://github.com/"] {
                #expect(list.block(for: try ParsedURL(stranger)) == nil, "\(location.name) blocks \(stranger)")
            }
        }
    }

    /// A link for a plain entry: `||host^` (options that apply to pages only), `||host/path^$all`
    /// without wildcards, a bare host or address. Nil for any other line.
    static func link(from line: String) -> String? {
        let pageOptions: Set<String> = ["", "doc", "all", "popup", "3p", "important"]
        var body = line
        var options = ""
        if let dollar = body.lastIndex(of: "$") {
            options = String(body[body.index(after: dollar)...])
            body = String(body[..<dollar])
        }
        guard options.split(separator: ",").allSatisfy({ pageOptions.contains(String($0)) }) else { return nil }
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_")
        if body.hasPrefix("||") {
            var rest = body.dropFirst(2)
            if rest.hasSuffix("^") { rest = rest.dropLast() }
            let host = rest.prefix { hostCharacters.contains($0) }
            let path = rest.dropFirst(host.count)
            guard host.contains("."), !host.hasSuffix("."), path.isEmpty || path.hasPrefix("/"),
                  !path.contains(where: { "*^|".contains($0) }) else { return nil }
            return "https://\(host)\(path)"
        }
        guard body.contains("."), body.allSatisfy({ hostCharacters.contains($0) }), !body.hasPrefix("."), !body.hasSuffix(".") else { return nil }
        return "http://\(body)/"
    }
}
