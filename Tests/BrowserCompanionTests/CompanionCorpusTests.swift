import BrowserCompanion
import Foundation
import JSON
import TestSupport
import Testing

/// Replays the companion fuzz target's corpus (Fuzz/Corpus/companion) through its oracles, so a
/// finding stays fixed without a fuzzing build: each file is a cut byte, then frames.
@Suite struct CompanionCorpusTests {
    @Test func theCorpusReadsAsTheFuzzTargetReadsIt() throws {
        let directory = PackageRoot.url.appendingPathComponent("Fuzz/Corpus/companion").path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.count >= 5, "the companion corpus is missing: \(names)")
        var requests = 0
        for name in names {
            let input = try #require(FileManager.default.contents(atPath: directory + "/" + name).map { Array($0) })
            let bytes = Array(input.dropFirst())
            let cut = input.isEmpty ? 0 : Int(input[0]) % (bytes.count + 1)
            var buffer = NativeMessageBuffer()
            buffer.append(bytes[..<cut])
            buffer.append(bytes[cut...])
            let sameSite = SameSite(listText: nil)
            while let body = try? buffer.next() {
                guard let request = try? CompanionRequest(bytes: body) else { continue }
                requests += 1
                if case .explain(let link) = request.kind {
                    #expect(sameSite.holds(url: link.url, origin: link.origin) == link.origin.map { sameSite.holds(url: $0, origin: link.url) }, "\(name)")
                }
            }
        }
        // The seeds hold a hello, an explain and an open, each alone and together.
        #expect(requests >= 6, "only \(requests) requests in the corpus")
    }
}
