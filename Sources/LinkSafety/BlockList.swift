import Platform
import URLModel

/// One offline block list (uBlock Origin / Adblock Plus filter syntax, or a hosts file), read on
/// first use: building one is free, the first check reads and indexes the list (a few
/// milliseconds for the lists Debian ships), later checks are hash look-ups. Thread-safe; the
/// first check of several threads at once reads the list once.
public final class BlockList: Sendable {
    /// What a loaded list holds, or why it could not be read.
    public struct Summary: Sendable, Equatable {
        /// The list's name: the one given, else its `! Title:`, else its file name.
        public var name: String
        /// Where it is read from.
        public var path: String
        /// Its entries and skipped lines by kind.
        public var counts: BlockListCounts
        /// Set when the file could not be read (the list then blocks nothing).
        public var error: String?
    }

    /// Where the list is read from.
    public let path: String
    private let givenName: String?
    private let read: @Sendable () -> [UInt8]?
    /// Where its compiled form is kept between starts (nil: parsed every time).
    private let snapshots: BlockListSnapshots?
    private let loaded = Lock<Loaded?>(nil)

    /// The parsed list; a class so that a look-up shares it instead of copying its tables.
    ///
    /// The list's text is not kept (Debian's two lists are 485 KB): an entry's line is read from
    /// the file again when a link is blocked, if the file is still the one indexed (`source`).
    private final class Loaded: Sendable {
        let summary: Summary
        let index: BlockIndex
        /// The size of the text the entries' line ranges point into.
        let textCount: Int
        /// The list file's identity when it was read (nil for a list not read from a file).
        let source: [UInt64]?

        init(summary: Summary, index: BlockIndex, textCount: Int, source: [UInt64]?) {
            self.summary = summary
            self.index = index
            self.textCount = textCount
            self.source = source
        }
    }

    /// A list read from `path` by `read` on first use (nil from `read`: the file cannot be read).
    /// `name` overrides the name the list gives itself. With `snapshots`, a compiled form made
    /// from the same file is read instead of parsing it, and one is written after a parse.
    public init(path: String, name: String? = nil, snapshots: BlockListSnapshots? = nil, read: @escaping @Sendable () -> [UInt8]?) {
        self.path = path
        self.givenName = name
        self.snapshots = snapshots
        self.read = read
    }

    /// A list from text in memory (tests, or a list received another way).
    public convenience init(name: String, text: String, path: String = "") {
        let bytes = Array(text.utf8)
        self.init(path: path, name: name, read: { bytes })
    }

    /// True once the list has been read.
    public var isLoaded: Bool { loaded.withLock { $0 != nil } }

    /// What the list holds, reading it now if that has not happened yet.
    public var summary: Summary { load().summary }

    /// The entry that blocks `url`, or nil. Only `http`, `https`, `ftp`, `ws` and `wss` URLs
    /// have hosts to look up.
    public func block(for url: ParsedURL) -> SafetyBlock? {
        guard !url.host.isEmpty else { return nil }
        // The two strings, not the URL: a closure holding a ParsedURL copies all its parts.
        let path = url.path, query = url.query
        return block(host: url.matchingHost, scheme: url.scheme) { Self.pathAndQuery(path, query) }
    }

    /// The entry that blocks a link to `host` (ASCII, lowercase), e.g. a mail recipient's domain;
    /// `pathAndQuery` (lowercased) is asked for only when a URL pattern is tried.
    public func block(host: String, scheme: String, pathAndQuery: () -> [UInt8] = { Array("/".utf8) }) -> SafetyBlock? {
        let list = load()
        var host = host
        let entry = host.withUTF8 { bytes -> BlockEntry? in
            guard let entry = list.index.firstMatch(host: bytes, scheme: scheme, exceptions: false, pathAndQuery: pathAndQuery) else { return nil }
            if list.summary.counts.exceptions > 0,
               list.index.firstMatch(host: bytes, scheme: scheme, exceptions: true, pathAndQuery: pathAndQuery) != nil { return nil }
            return entry
        }
        guard let entry else { return nil }
        return SafetyBlock(list: list.summary.name, path: path, entry: written(entry, of: list), line: Int(entry.line))
    }

    /// Whether any entry of the list could match a link to `host` (ASCII, lowercase), whatever
    /// its scheme and path (`BlockIndex.mentions`); reads the list on first use.
    public func mentions(host: String) -> Bool {
        let list = load()
        var host = host
        return host.withUTF8 { list.index.mentions(host: $0) }
    }

    /// The entry's line as the list writes it, read from the list again; when the file has
    /// changed since it was indexed, the entry as the index holds it (`||host^`, `||host/path`).
    private func written(_ entry: BlockEntry, of list: Loaded) -> String {
        let range = Int(entry.range.lowerBound)..<Int(entry.range.upperBound)
        if BlockListSnapshots.fileIdentity(path) == list.source, let text = read(), text.count == list.textCount, range.upperBound <= text.count {
            return String(decoding: text[range], as: UTF8.self)
        }
        return list.index.writtenForm(of: entry)
    }

    /// Reads and indexes the list (or reads its snapshot) unless done.
    @discardableResult
    private func load() -> Loaded {
        loaded.withLock { state -> Loaded in
            if let state { return state }
            // The key is taken before the text is read: a file changed in between is keyed as
            // it was, so its snapshot does not match next time and it is compiled again.
            let source = BlockListSnapshots.fileIdentity(path)
            let key = snapshots == nil ? nil : BlockListSnapshots.key(listIdentity: source)
            if let snapshots, let key, let compiled = snapshots.read(listPath: path, key: key) {
                let summary = Summary(name: givenName ?? compiled.title ?? Self.fileName(path), path: path, counts: compiled.counts, error: nil)
                let made = Loaded(summary: summary, index: compiled.index, textCount: compiled.textCount, source: source)
                state = made
                return made
            }
            let text = read()
            var parser = BlockListParser()
            if let text { parser.parse(text) }
            let name = givenName ?? parser.title ?? Self.fileName(path)
            let summary = Summary(name: name, path: path, counts: parser.counts,
                                  error: text == nil ? "cannot read \(path)" : nil)
            let made = Loaded(summary: summary, index: BlockIndex(entries: parser.entries, bytes: parser.bytes, targets: parser.targets),
                              textCount: text?.count ?? 0, source: source)
            state = made
            if let snapshots, let key, let text {
                // Written off the caller's thread: a click that came first is not kept waiting.
                let compiled = BlockListSnapshots.Compiled(title: parser.title, counts: parser.counts, index: made.index, textCount: text.count)
                let path = self.path
                BlockListSnapshots.writesUnderWay.withLock { $0 += 1 }
                let write = {
                    snapshots.write(compiled, listPath: path, key: key)
                    BlockListSnapshots.writesUnderWay.withLock { $0 -= 1 }
                }
                if !BackgroundThread.start(name: "openurld-snap", write) { write() }
            }
            return made
        }
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The path and query, lowercased ASCII: uBlock compares URLs without case.
    static func pathAndQuery(_ path: String, _ query: String?) -> [UInt8] {
        var bytes = Array(path.utf8)
        if let query {
            bytes.append(UInt8(ascii: "?"))
            bytes += query.utf8
        }
        return bytes.map(BlockListParser.lowercase)
    }
}

/// A list found on this machine: its name and path.
public struct BlockListLocation: Sendable, Equatable {
    /// What the list is called.
    public var name: String
    /// Where it is.
    public var path: String

    /// A location.
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}

/// Where Debian's uBlock Origin packages put the malware lists `[settings] blocklists = "auto"`
/// uses: uBlock's badware list and URLhaus's malicious URL list.
public enum BlockListDiscovery {
    /// The packages' asset folders, Firefox's first (`webext-ublock-origin-firefox`), then the
    /// shared and Chromium ones.
    public static let assetFolders = [
        "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net/assets",
        "/usr/share/webext/ublock-origin/assets",
        "/usr/share/chromium/extensions/ublock-origin/assets",
    ]

    /// The lists, by path under an asset folder.
    public static let lists: [BlockListLocation] = [
        BlockListLocation(name: "uBlock filters – Badware risks", path: "ublock/badware.min.txt"),
        BlockListLocation(name: "URLhaus malicious URLs", path: "thirdparties/urlhaus-filter/urlhaus-filter-online.txt"),
    ]

    /// What to install when `auto` finds nothing.
    public static let package = "webext-ublock-origin-firefox"

    /// Each list in the first asset folder that has it; `isFile` says whether a path is a
    /// readable file (Platform's `FileSystem.isRegularFile`).
    public static func auto(isFile: (String) -> Bool) -> [BlockListLocation] {
        lists.compactMap { list in
            assetFolders.lazy.map { $0 + "/" + list.path }.first(where: isFile).map { BlockListLocation(name: list.name, path: $0) }
        }
    }
}
