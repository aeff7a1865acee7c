import DesktopDefaults
import Launching
import Platform
import Hygiene
import Catalog
import ConfigLanguage

/// Reads the config file from disk; a missing file at the default path means built-in defaults.
public enum ConfigFile {
    /// Why a config could not be used: `FILE:LINE:COLUMN: message` lines.
    public struct LoadError: Error, CustomStringConvertible {
        /// The message, one problem per line.
        public var description: String
        /// True when the file was empty and had just changed: most likely an editor between
        /// truncating and writing it. Loading it a moment later gives the real answer.
        public var isSettling = false

        /// An error with its message.
        public init(description: String, isSettling: Bool = false) {
            self.description = description
            self.isSettling = isSettling
        }
    }

    /// Loads the system configuration of `systemDirs` (if any), then `path`, then the remembered
    /// rules beside it (`RememberedRules`); fails when the user's config or remembered answers
    /// do not load (a broken system file is left out: see `loadLayers` for how each file fared).
    /// When `required` is false a missing file gives the built-in defaults. `discover` is asked
    /// once for the installed apps that browser targets and app links are checked against (the
    /// default knows none). `rememberedText` stands in for the remembered file's contents (to check a new version
    /// before writing it). `clearURLsPatterns` says when the ClearURLs catalogue's patterns are
    /// compiled: at load (a bad one is a load error) or on first use (the daemon's start).
    /// `describe` reads the entries the config names that discovery did not list (for their names);
    /// those it does not find either are not installed (`Config.missingApps`). Without it nothing
    /// is checked against what is installed. `userText` stands in for the contents of `path`
    /// (to check a new `config.toml` before writing it; see `UserRuleFile`).
    public static func load(path: String, required: Bool, systemDirs: [String] = [], discover: () -> AppCatalog = { AppCatalog() },
                            describe: (([String]) -> [AppEntry])? = nil, rememberedText: String? = nil,
                            userText: String? = nil, clearURLsPatterns: ClearURLsRules.PatternCompilation = .atLoad) -> Result<Config, LoadError> {
        let layers = loadLayers(path: path, required: required, systemDirs: systemDirs, discover: discover, describe: describe,
                                rememberedText: rememberedText, userText: userText, clearURLsPatterns: clearURLsPatterns)
        if let failure = layers.userFailure { return .failure(failure) }
        return .success(layers.config)
    }

    /// What is installed, as the config is checked against it: the desktop entries and browsers
    /// discovery finds, and what `system` opens for http, https and mailto (the takeover record).
    public static func installedApps(paths: XDGPaths, environment: [String: String]) -> AppCatalog {
        var catalog = AppDiscovery(paths: paths, environment: environment).catalog()
        for (scheme, entry) in DefaultHandlers(paths: paths).previousHandlers() { catalog.previousHandlers[scheme] = AppDiscovery.appEntry(entry) }
        return catalog
    }

    /// The remembered-rules file in the directory of the config file `path`.
    public static func rememberedPath(besides path: String) -> String {
        Path.parent(path) + "/" + RememberedRules.fileName
    }

    /// How recent a change makes an empty file suspect (see `LoadError.isSettling`).
    public static let settlingSeconds = 1.0

    /// Reads `path` whole until two reads agree, in bytes and in the file's size, inode and
    /// modification and change times (an editor that truncates and then writes in place would
    /// otherwise hand over an empty or half-written file); nil when no file (nor link) is there.
    /// `limit` is the most bytes accepted (a config's 1 MiB by default; site lists are larger).
    static func readStable(path: String, limit: Int = ConfigLoader.maximumBytes) -> Result<[UInt8]?, LoadError> {
        var previous: FileSnapshot? = nil
        for attempt in 0..<10 {
            let current: FileSnapshot
            switch readOnce(path: path, limit: limit) {
            case .success(let snapshot?): current = snapshot
            case .success(nil): return .success(nil)
            case .failure(let error): return .failure(error)
            }
            if let previous, previous == current {
                if current.bytes.isEmpty, current.age < settlingSeconds {
                    return .failure(LoadError(description: "\(path): the file is empty and changed \(Int(current.age * 1000)) ms ago (an editor may be writing it); not loaded yet", isSettling: true))
                }
                return .success(current.bytes)
            }
            previous = current
            // An empty read is the likeliest moment of a rewrite: give the writer longer.
            pause(microseconds: current.bytes.isEmpty ? 50_000 : 2_000 * (attempt + 1))
        }
        return .failure(LoadError(description: "\(path): the file kept changing while it was read; not loaded"))
    }

    /// A file's bytes and the metadata that changes with every write.
    struct FileSnapshot: Equatable {
        var bytes: [UInt8]
        var identity: [Int]
        /// Seconds since the last modification, when read (not compared).
        var age: Double

        static func == (a: FileSnapshot, b: FileSnapshot) -> Bool { a.bytes == b.bytes && a.identity == b.identity }
    }

    /// One read through open/fstat/read, with the reasons a read fails kept apart.
    private static func readOnce(path: String, limit: Int) -> Result<FileSnapshot?, LoadError> {
        let file: ReadableFile
        do { file = try ReadableFile(path) } catch {
            if error.isNotFound, FileSystem.isSymbolicLink(path) {
                let target = (try? FileSystem.symbolicLinkTarget(path)) ?? "?"
                return .failure(LoadError(description: "\(path): is a symbolic link to \(target), which does not exist"))
            }
            if error.isNotFound || error.isNotADirectory { return .success(nil) }
            if error.isSymlinkLoop { return .failure(LoadError(description: "\(path): symbolic link loop (too many levels of symbolic links)")) }
            return .failure(LoadError(description: "\(path): cannot be read: \(error.message)"))
        }
        do {
            let before = try file.status()
            guard before.kind == .regular else {
                return .failure(LoadError(description: "\(path): is not a regular file"))
            }
            let what = limit == ConfigLoader.maximumBytes ? "the config" : "the file"
            guard before.size <= limit else {
                return .failure(LoadError(description: "\(path):1:1: \(what) is \(before.size) bytes; the limit is \(limit) (\(limit >> 20) MiB)"))
            }
            // Read to the end, not to st_size: the file may grow meanwhile; stop one past the limit.
            let bytes = try file.read(upTo: limit)
            guard bytes.count <= limit else {
                return .failure(LoadError(description: "\(path):1:1: \(what) is over \(limit) bytes (\(limit >> 20) MiB), the limit"))
            }
            let info = try file.status()
            let identity = [Int(truncatingIfNeeded: info.inode), info.size, Int(info.modified.seconds), Int(info.modified.nanoseconds),
                            Int(info.changed.seconds), Int(info.changed.nanoseconds)]
            let now = WallClock.now()
            let age = Double(now.seconds - info.modified.seconds) + Double(now.nanoseconds - info.modified.nanoseconds) / 1e9
            return .success(FileSnapshot(bytes: bytes, identity: identity, age: age))
        } catch {
            return .failure(LoadError(description: "\(path): cannot be read: \(error.message)"))
        }
    }
}
