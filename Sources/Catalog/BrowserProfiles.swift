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

    /// Creates a record.
    public init(name: String, directory: String, isDefault: Bool = false) {
        self.name = name
        self.directory = directory
        self.isDefault = isDefault
    }
}

/// Reads the profile lists browsers keep: Firefox's `profiles.ini` and Chromium's `Local State`.
public enum ProfileFiles {
    /// The profiles of a Firefox-family `profiles.ini` in `base` (its directory), in file order.
    /// `[ProfileN]` sections give `Name`, `Path` and `IsRelative`; the default is the one an
    /// `[Install…]` section's `Default=` names, else the one with `Default=1`.
    public static func firefoxProfiles(ini text: String, base: String) -> [ProfileRecord] {
        var sections: [(name: String, values: [String: String])] = []
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingBlanks
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                sections.append((String(line.dropFirst().dropLast()), [:]))
                continue
            }
            guard let equals = line.firstIndex(of: "="), !sections.isEmpty else { continue }
            let key = String(line[..<equals].trimmingBlanks)
            let value = String(line[line.index(after: equals)...].trimmingBlanks)
            sections[sections.count - 1].values[key] = value
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

extension Substring {
    /// Without the spaces and tabs (and a CR left by CRLF line ends) at either end.
    fileprivate var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
