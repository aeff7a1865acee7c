import Platform

/// Compiled block lists on disk (`$XDG_CACHE_HOME/openurld/blocklists/`), so a start reads an
/// index instead of parsing a list: Debian's two lists cost ~21M instructions to parse and
/// index, their snapshot ~2M to check and read.
///
/// A snapshot is used only when its key matches: the list file's inode, size, modification and
/// change times, and the same of the program that wrote it (a new openurld, whose parser may
/// differ, compiles again). It is never trusted when damaged: a checksum over the whole file,
/// then every index and range checked (`BlockIndex.read`). It is read as openurld's own file
/// (never through a symbolic link, never another user's) and written 0600, whole, by rename.
/// Anything wrong means the list is parsed as before and the snapshot written again.
public struct BlockListSnapshots: Sendable {
    /// Where the snapshots are.
    public let directory: String

    /// Snapshots being written on threads of their own (`BlockList` starts them).
    static let writesUnderWay = Lock(0)

    /// Waits (up to `seconds`) for the snapshots being written to be written: a daemon stopped
    /// right after its start would otherwise leave its lists to be parsed again by the next one.
    public static func finishWrites(within seconds: Double) {
        let deadline = MonotonicClock.seconds() + seconds
        while writesUnderWay.withLock({ $0 }) > 0, MonotonicClock.seconds() < deadline { pause(microseconds: 2_000) }
    }

    /// Snapshots in `directory` (created 0700 on the first write).
    public init(directory: String) {
        self.directory = directory
    }

    /// Snapshots under `cacheHome` (`$XDG_CACHE_HOME`, by default `~/.cache`).
    public init(cacheHome: String) {
        self.init(directory: cacheHome + "/openurld/blocklists")
    }

    /// What a list compiles to.
    struct Compiled {
        var title: String?
        var counts: BlockListCounts
        var index: BlockIndex
        /// The size of the list's text, which entries' line ranges point into.
        var textCount: Int
    }

    /// What a snapshot must have been made from: the list file as it is now, and this program.
    struct Key: Equatable {
        var words: [UInt64]
    }

    /// The list file's identity now (nil when it cannot be looked at: nothing is snapshotted).
    static func key(listPath: String) -> Key? {
        key(listIdentity: fileIdentity(listPath))
    }

    /// The key of a list file whose `fileIdentity` is `list`.
    static func key(listIdentity list: [UInt64]?) -> Key? {
        guard let list, let program = programIdentity else { return nil }
        return Key(words: program + list)
    }

    /// The identity of the regular file at `path` (inode, size, modification and change times),
    /// nil when there is none.
    static func fileIdentity(_ path: String) -> [UInt64]? {
        guard let status = try? FileSystem.status(path), status.kind == .regular else { return nil }
        return identity(status)
    }

    /// The running program's file, looked at once.
    private static let programIdentity: [UInt64]? = (try? FileSystem.status("/proc/self/exe")).map(identity)

    private static func identity(_ status: FileStatus) -> [UInt64] {
        [status.inode, UInt64(status.size), UInt64(bitPattern: status.modified.seconds), UInt64(bitPattern: status.modified.nanoseconds),
         UInt64(bitPattern: status.changed.seconds), UInt64(bitPattern: status.changed.nanoseconds)]
    }

    /// The snapshot file of the list at `listPath`.
    func file(for listPath: String) -> String {
        let hash = BlockIndex.fnv1a(listPath)
        let digits = Array("0123456789abcdef".utf8)
        let name = (0..<16).map { digits[Int(hash >> (60 - 4 * UInt64($0)) & 0xF)] }
        return directory + "/" + String(decoding: name, as: UTF8.self) + ".snapshot"
    }

    private static let magic = Array("openurld-blocklist-2\n".utf8)

    /// The list compiled from the snapshot of `listPath` made under `key`; nil when there is none,
    /// or it was made from something else, or anything in it is out of place.
    func read(listPath: String, key: Key) -> Compiled? {
        // Mapped, not read: the index is copied out of the page cache once, not twice.
        let compiled = try? FileSystem.withOwnContentsMapped(file(for: listPath)) { Self.decode($0, listPath: listPath, key: key) }
        return compiled ?? nil
    }

    /// A snapshot file's list, when it is whole and was made from the list at `listPath` under `key`.
    static func decode(_ bytes: [UInt8], listPath: String, key: Key) -> Compiled? {
        bytes.withUnsafeBytes { decode($0, listPath: listPath, key: key) }
    }

    /// `decode(_:listPath:key:)` of bytes where they are (a mapped file).
    static func decode(_ bytes: UnsafeRawBufferPointer, listPath: String, key: Key) -> Compiled? {
        guard bytes.starts(with: magic) else { return nil }
        var reader = SnapshotReader(bytes, from: magic.count)
        guard let checksum = reader.u64(), SnapshotReader.checksum(bytes, reader.offset..<bytes.count) == checksum,
              let path = reader.run(), path.elementsEqual(listPath.utf8), let wordCount = reader.count(stride: 8), wordCount == key.words.count
        else { return nil }
        for word in key.words { guard reader.u64() == word else { return nil } }
        guard let hasTitle = reader.u8(), let title = reader.run(), let textCount = reader.i64(), textCount >= 0, textCount <= Int32.max else { return nil }
        var counts: [Int] = []
        for _ in 0..<10 {
            guard let count = reader.i64(), count >= 0 else { return nil }
            counts.append(Int(count))
        }
        guard let index = BlockIndex.read(from: &reader, textCount: Int(textCount)), reader.isAtEnd else { return nil }
        let tally = BlockListCounts(hosts: counts[0], urls: counts[1], labelPrefixes: counts[2], exceptions: counts[3], cosmetic: counts[4],
                                    comments: counts[5], unsupportedPatterns: counts[6], notForPages: counts[7], unsupportedOptions: counts[8],
                                    ignoredOptions: counts[9])
        return Compiled(title: hasTitle == 1 ? String(decoding: title, as: UTF8.self) : nil, counts: tally, index: index, textCount: Int(textCount))
    }

    /// Writes the snapshot of the list at `listPath`, compiled from the file `key` describes.
    /// A failure leaves the next start to parse the list again, so it is only logged.
    func write(_ compiled: Compiled, listPath: String, key: Key) {
        let file = Self.encode(compiled, listPath: listPath, key: key)
        let path = self.file(for: listPath)
        do {
            try FileSystem.createDirectory(directory, mode: 0o700, intermediates: true)
            // A link or another user's file in its place is left alone (and not written through).
            if let problem = FileSystem.ownFileProblem(path) { throw problem }
            removeAbandonedTemporaries()
            try FileSystem.writeAtomically(file, to: path, mode: 0o600, temporary: path + ".new-\(Environment.processID)")
        } catch {
            Log.warning("cannot write the block list snapshot \(path): \(error)")
        }
    }

    /// Removes the temporaries (`….snapshot.new-PID`) of writers that died before their rename: a
    /// daemon stopped in the few milliseconds a write takes would otherwise leave one behind for
    /// good. One is abandoned when its process is gone or it is over a minute old (a write takes
    /// milliseconds).
    private func removeAbandonedTemporaries() {
        guard let names = try? FileSystem.listDirectory(directory) else { return }
        let now = WallClock.now().seconds
        for name in names {
            guard let marker = name.firstRange(ofText: ".snapshot.new-"), let pid = Int32(name[marker.upperBound...]) else { continue }
            let path = directory + "/" + name
            guard let status = try? FileSystem.status(path, followingSymlinks: false) else { continue }
            if !FileSystem.exists("/proc/\(pid)") || now - status.modified.seconds > 60 { try? FileSystem.remove(path) }
        }
    }

    /// The snapshot file of `compiled`, made from the list at `listPath` under `key`.
    static func encode(_ compiled: Compiled, listPath: String, key: Key) -> [UInt8] {
        var writer = SnapshotWriter()
        writer.run(Array(listPath.utf8))
        writer.u32(UInt32(key.words.count))
        for word in key.words { writer.u64(word) }
        writer.u8(compiled.title == nil ? 0 : 1)
        writer.run(Array((compiled.title ?? "").utf8))
        writer.i64(Int64(compiled.textCount))
        let counts = compiled.counts
        for count in [counts.hosts, counts.urls, counts.labelPrefixes, counts.exceptions, counts.cosmetic, counts.comments,
                      counts.unsupportedPatterns, counts.notForPages, counts.unsupportedOptions, counts.ignoredOptions] {
            writer.i64(Int64(count))
        }
        compiled.index.write(into: &writer)
        return sealed(writer.bytes)
    }

    /// `body` behind the magic line and its checksum.
    static func sealed(_ body: [UInt8]) -> [UInt8] {
        var file = magic
        withUnsafeBytes(of: SnapshotReader.checksum(body, 0..<body.count).littleEndian) { file.append(contentsOf: $0) }
        return file + body
    }
}
