import Platform
import URLModel
import RoutingCore

extension RecentLinks {
    /// The hosts of the links in the recent file at `path` that were opened (`open` or
    /// `system`, outcome `done`), oldest first, each once: the sites the user visits, for the
    /// known domains. A pure read of the file (any thread); nothing when it is missing.
    public static func openedHosts(inFile path: String) -> [String] {
        guard let data = (try? FileSystem.ownContents(path)) ?? nil else { return [] }
        var seen = Set<String>()
        var hosts: [String] = []
        Lines.forEach(in: data) { range in
            guard range.count <= RecentLinks.maximumLineBytes else { return }  // not ours
            let fields = data[range].split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            // id, time, url, final url, decision, target, rule, opener, outcome (see `line`).
            guard fields.count == 9, fields[8].elementsEqual(Outcome.done.description.utf8),
                  fields[4].elementsEqual("open".utf8) || fields[4].elementsEqual("system".utf8) else { return }
            let finalURL = String(tabSeparatedCell: String(decoding: fields[3], as: UTF8.self))
            guard let url = try? ParsedURL(finalURL), !url.host.isEmpty, seen.insert(url.matchingHost).inserted else { return }
            hosts.append(url.matchingHost)
        }
        return hosts
    }
}
