@testable import LinkSafety
@testable import URLModel

/// Fuzzed compiled block lists (`BlockListSnapshots`): the input is a snapshot's body, sealed
/// with its checksum here so that the fuzzer reaches the checks behind it (a body off the disk
/// with a wrong checksum stops at the first). The seed is the snapshot of a small list with one
/// entry of each kind. Oracles: no crash, and no look-up that never ends (libFuzzer's timeout),
/// whatever the tables say; a body that is read back answers the probes the same after being
/// written and read again.
let listPath = "/fuzz/list.txt"
let key = BlockListSnapshots.Key(words: [1, 2, 3])
let probes: [(host: [UInt8], scheme: String, path: [UInt8])] = [
    "https://evil.example/", "http://www.evil.example/login?x=1", "https://cdn.example/malware/setup.exe", "https://x.wild.example/",
    "https://familysimulator.net/play", "https://kept.example/", "http://203.0.113.7/payload", "https://good.evil.example/",
    "https://a.b.c.d.e.example/" + String(repeating: "p", count: 70), "https://example.com/",
].compactMap { try? ParsedURL($0) }.map { url in
    (Array(url.matchingHost.utf8), url.scheme, BlockList.pathAndQuery(url.path, url.query))
}

func answers(_ index: BlockIndex) -> [Int32?] {
    probes.flatMap { probe in
        [false, true].map { exceptions in
            probe.host.withUnsafeBufferPointer { host in
                index.firstMatch(host: host, scheme: probe.scheme, exceptions: exceptions) { probe.path }?.line
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    guard let compiled = BlockListSnapshots.decode(BlockListSnapshots.sealed(body), listPath: listPath, key: key) else { return 0 }
    let first = answers(compiled.index)
    let again = BlockListSnapshots.decode(BlockListSnapshots.encode(compiled, listPath: listPath, key: key), listPath: listPath, key: key)
    require(again != nil, "a snapshot read back could not be written and read again")
    require(again.map { answers($0.index) } == first, "a snapshot written and read again answers differently")
    return 0
}
