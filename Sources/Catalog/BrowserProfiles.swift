import JSON

/// A browser profile as its files describe it: the name people see and the directory it lives in.
public struct ProfileRecord: Sendable, Equatable {
    /// The display name (`Name=` in `profiles.ini`, `info_cache.*.name` in `Local State`).
    public var name: String
    /// Firefox family: the profile's absolute directory. Chromium family: the directory's name
    /// under the user data directory (`Default`, `Profile 1`).
    public var directory: String
    /// The profile the browser opens by default.
    public var isDefault: Bool
    /// Firefox family: the names of the profile's containers (`containers.json`), in its order.
    public var containers: [String]

    /// Creates a record.
    public init(name: String, directory: String, isDefault: Bool = false, containers: [String] = []) {
        self.name = name
        self.directory = directory
        self.isDefault = isDefault
        self.containers = containers
    }
}

/// Reads the profile lists browsers keep: Firefox's `profiles.ini` and Chromium's `Local State`.
public enum ProfileFiles {
    /// The profiles of a Firefox-family `profiles.ini` in `base` (its directory), in file order.
    /// `[ProfileN]` sections give `Name`, `Path` and `IsRelative`; the default is the one an
    /// `[Install…]` section's `Default=` names, else the one with `Default=1`.
    /// Read as bytes, line by line (Characters cost ~20 µs a profile in a debug build: a list of
    /// 100,000 took 2 s).
    public static func firefoxProfiles(ini text: String, base: String) -> [ProfileRecord] {
        let bytes = Array(text.utf8)
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        /// The text of `bytes[low..<high]` without blanks at either end.
        func trimmed(_ low: Int, _ high: Int) -> String {
            var low = low, high = high
            while low < high, isBlank(bytes[low]) { low += 1 }
            while high > low, isBlank(bytes[high - 1]) { high -= 1 }
            return String(decoding: bytes[low..<high], as: UTF8.self)
        }
        var sections: [(name: String, values: [String: String])] = []
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            var low = start, high = end
            start = end + 1
            while low < high, isBlank(bytes[low]) { low += 1 }
            while high > low, isBlank(bytes[high - 1]) { high -= 1 }
            guard low < high, bytes[low] != UInt8(ascii: ";"), bytes[low] != UInt8(ascii: "#") else { continue }
            if bytes[low] == UInt8(ascii: "["), high - low >= 2, bytes[high - 1] == UInt8(ascii: "]") {
                sections.append((String(decoding: bytes[(low + 1)..<(high - 1)], as: UTF8.self), [:]))
                continue
            }
            guard !sections.isEmpty, let equals = bytes[low..<high].firstIndex(of: UInt8(ascii: "=")) else { continue }
            sections[sections.count - 1].values[trimmed(low, equals)] = trimmed(equals + 1, high)
        }
        let installDefaults = Set(sections.filter { $0.name.hasPrefix("Install") }.compactMap { $0.values["Default"] })
        var records: [ProfileRecord] = []
        for section in sections where section.name.hasPrefix("Profile") {
            guard let name = section.values["Name"], let path = section.values["Path"], !path.isEmpty else { continue }
            let relative = section.values["IsRelative"] != "0"
            let directory = relative ? base + "/" + path : path
            let isDefault = installDefaults.isEmpty ? section.values["Default"] == "1" : installDefaults.contains(path)
            records.append(ProfileRecord(name: name, directory: directory, isDefault: isDefault))
        }
        return records
    }

    /// The names of the containers a Firefox profile's `containers.json` lists for the user
    /// (`public`), in its order. The built-in four carry only an `l10nId`; they get the English
    /// names Firefox shows (and `contextualIdentities.query` matches) in an English locale.
    public static func firefoxContainers(containersJSON bytes: [UInt8]) -> [String] {
        guard let root = try? JSONValue(parsing: bytes), let identities = root["identities"]?.items else { return [] }
        let builtIn = ["user-context-personal": "Personal", "user-context-work": "Work", "user-context-banking": "Banking",
                       "user-context-shopping": "Shopping", "userContextPersonal.label": "Personal", "userContextWork.label": "Work",
                       "userContextBanking.label": "Banking", "userContextShopping.label": "Shopping"]
        var names: [String] = []
        for identity in identities where identity["public"]?.bool != false {
            let name = identity["name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? identity["l10nId"]?.string.flatMap { builtIn[$0] }
                ?? identity["l10nID"]?.string.flatMap { builtIn[$0] }
            if let name, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The profiles of a Chromium-family `Local State` file: `profile.info_cache` maps each
    /// directory name to its details (`name`). Ordered as `profile.profiles_order` says, then by
    /// directory; `profile.last_used` is the default. Nil when the text is not such a file.
    /// One pass over the members (a duplicate directory's last member wins, as JavaScript reads
    /// it): a `Local State` of 100,000 profiles once took minutes here, each looked up by a scan.
    public static func chromiumProfiles(localState bytes: [UInt8]) -> [ProfileRecord]? {
        guard let root = try? JSONValue(parsing: bytes), let profile = root["profile"],
              let cache = profile["info_cache"], let entries = cache.members else { return nil }
        var details: [String: JSONValue] = [:]
        var inFileOrder: [String] = []
        for (directory, info) in entries where details.updateValue(info, forKey: directory) == nil { inFileOrder.append(directory) }
        var placed = Set<String>()
        var directories: [String] = []
        for item in profile["profiles_order"]?.items ?? [] {
            guard let directory = item.string, details[directory] != nil, placed.insert(directory).inserted else { continue }
            directories.append(directory)
        }
        directories += inFileOrder.filter { !placed.contains($0) }.sorted()
        let lastUsed = profile["last_used"]?.string ?? "Default"
        return directories.map { directory in
            let name = details[directory]?["name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? directory
            return ProfileRecord(name: name, directory: directory, isDefault: directory == lastUsed)
        }
    }
}
