import Foundation
import SiteLists
import TestSupport
import Testing
import URLModel

/// Replays the site-list fuzz corpus (Fuzz/Corpus/sitelist, which keeps every finding as a
/// regression) through the fuzz target's oracles, so `make test` runs them on every build.
struct CorpusReplayTests {
    static let directory = PackageRoot.url.appendingPathComponent("Fuzz/Corpus/sitelist").path

    @Test func everyCorpusInputReadsOrFailsAtAPlaceInTheFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try #require(FileManager.default.contents(atPath: Self.directory + "/" + name))
            let lines = bytes.filter { $0 == 10 }.count + 1
            for format in SiteListFormat.allCases {
                do {
                    let list = try SiteList.parse(Array(bytes), format: format)
                    for entry in list.entries {
                        #expect((1...lines).contains(entry.line), "\(name) \(format)")
                        #expect(try SiteListPattern(entry.pattern.text) == entry.pattern, "\(name) \(format): \(entry.pattern.text)")
                        // The site an entry names is matched by it (a host ending in a dot
                        // lost one to matchingHost: regression-trailing-dots-host).
                        let host = entry.pattern.host.hasSuffix(".") ? entry.pattern.host + "." : entry.pattern.host
                        guard !entry.pattern.isWildcard,
                              let url = try? ParsedURL("\(entry.pattern.scheme ?? "https")://\(host)\(entry.pattern.port.map { ":\($0)" } ?? "")\(entry.pattern.path)") else { continue }
                        #expect(list.bestMatch(for: url, kinds: [entry.kind]) != nil, "\(name) \(format): \(entry.pattern.text) and \(url.string)")
                    }
                } catch let error as SiteListError {
                    #expect((1...lines).contains(error.line) && error.column >= 1, "\(name) \(format): \(error)")
                }
            }
        }
    }
}
