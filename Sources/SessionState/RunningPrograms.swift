import Platform

/// The programs running for this user, by name, read from `/proc`: each process's `comm` and,
/// when `comm` is cut at 15 bytes, argv[0]'s basename. `open = [a, b]` picks the first target
/// whose program is among them. Reading a few hundred processes costs a few milliseconds, so
/// it is done only for configs that have such a list.
public enum RunningPrograms {
    /// The names of the processes under `procRoot` owned by `user` (this process's user by default).
    public static func scan(procRoot: String = "/proc", user: UInt32? = nil) -> Set<String> {
        let owner = user ?? currentUserID()
        var names = Set<String>()
        guard let entries = try? FileSystem.listDirectory(procRoot) else { return names }
        for entry in entries where entry.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            let directory = procRoot + "/" + entry
            guard ownerOf(directory) == owner, let comm = FileSystem.contents(directory + "/comm") else { continue }
            var name = String(decoding: comm, as: UTF8.self)
            if name.hasSuffix("\n") { name.removeLast() }
            guard !name.isEmpty else { continue }
            names.insert(name)
            if name.utf8.count >= 15, let cmdline = FileSystem.contents(directory + "/cmdline"),
               let argv0 = cmdline.split(separator: 0, omittingEmptySubsequences: false).first {
                names.insert(Path.lastComponent(String(decoding: argv0, as: UTF8.self)))
            }
        }
        return names
    }
}
