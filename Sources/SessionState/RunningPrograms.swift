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
            // `stat` gives the name and the state in one read: a zombie (a browser that has exited
            // but is not reaped yet) does not count as running.
            guard ownerOf(directory) == owner, let stat = FileSystem.contents(directory + "/stat"),
                  let open = stat.firstIndex(of: UInt8(ascii: "(")), let close = stat.lastIndex(of: UInt8(ascii: ")")),
                  open < close, close + 2 < stat.count else { continue }
            let state = stat[close + 2]
            guard state != UInt8(ascii: "Z"), state != UInt8(ascii: "X") else { continue }
            let name = String(decoding: stat[(open + 1)..<close], as: UTF8.self)
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
