import Foundation
import Routing
import Testing
import URLModel

/// Compares our reading of hosts with ada (the WHATWG URL parser Node.js uses; PyPI `ada-url`)
/// on a generated corpus of tricky URLs (Tests/Differential/ada_hosts.py): fullwidth dots and
/// letters, IPv4 in hex/octal/short forms, IPv6, percent-encoded hosts, backslashes, userinfo,
/// forbidden code points, DNS lengths. Every URL must be either refused by us with a message or
/// read with the same host as ada; and ada, given the URL we hand to apps, must find that same
/// host again (the browser opens the host the rules matched).
@Suite struct AdaDifferentialTests {
    struct AdaResult: Decodable { var ok: Bool; var host: String; var href: String }

    static let script = PackageRoot.url.appendingPathComponent("Tests/Differential/ada_hosts.py").path

    /// Runs the reference script with `arguments`, feeding it `input`; fails with an install
    /// hint when python3 or ada-url is missing.
    static func run(_ arguments: [String], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        // Write from another thread: the reply can be larger than a pipe's buffer.
        let writer = Thread {
            if let input { stdin.fileHandleForWriting.write(input) }
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            Issue.record("The reference WHATWG parser is missing: pip install ada-url (\(errorText))")
            throw CancellationError()
        }
        guard process.terminationStatus == 0 else {
            Issue.record("python3 \(script) failed (\(process.terminationStatus)): \(errorText) — needs python3 and `pip install ada-url`")
            throw CancellationError()
        }
        return data
    }

    static func ada(_ urls: [String]) throws -> [AdaResult] {
        try JSONDecoder().decode([AdaResult].self, from: run(["parse"], input: JSONEncoder().encode(urls)))
    }

    @Test func hostsAgreeWithAda() throws {
        let corpus = try JSONDecoder().decode([String].self, from: Self.run(["corpus", "--count", "4000", "--seed", "1"]))
        #expect(corpus.count == 4000)
        let theirs = try Self.ada(corpus)
        var ours: [ParsedURL?] = []
        var refusals: [String: Int] = [:]
        for url in corpus {
            do {
                ours.append(try ParsedURL(url))
            } catch {
                #expect(!error.message.isEmpty)
                refusals[error.message.split(separator: ":").first.map(String.init) ?? "", default: 0] += 1
                ours.append(nil)
            }
        }
        let accepted = ours.compactMap { $0 }
        let reread = try Self.ada(accepted.map(\.string))
        var disagreements: [String] = []
        var hrefDifferences = 0
        var refusedWhereAdaAccepts = 0
        var next = 0
        for (index, url) in corpus.enumerated() {
            guard let parsed = ours[index] else {
                if theirs[index].ok { refusedWhereAdaAccepts += 1 }
                continue
            }
            let again = reread[next]
            next += 1
            if !theirs[index].ok {
                disagreements.append("\(url.debugDescription): ada refuses it; we read host \(parsed.host.debugDescription)")
            } else if theirs[index].host != parsed.host {
                disagreements.append("\(url.debugDescription): ada reads host \(theirs[index].host.debugDescription); we read \(parsed.host.debugDescription)")
            } else if !again.ok || again.host != parsed.host {
                disagreements.append("\(url.debugDescription): we hand apps \(parsed.string.debugDescription), whose host ada reads as \(again.host.debugDescription), not \(parsed.host.debugDescription)")
            }
            if theirs[index].ok, theirs[index].href != parsed.string { hrefDifferences += 1 }
        }
        print("""
            ada differential: \(corpus.count) URLs, \(accepted.count) accepted with ada's host, \
            \(corpus.count - accepted.count) refused (\(refusedWhereAdaAccepts) of them accepted by ada), \
            \(hrefDifferences) with another href; refusals by reason: \(refusals.sorted { $0.value > $1.value }.prefix(12))
            """)
        #expect(disagreements.isEmpty, "host disagreements with ada (\(disagreements.count)):\n\(disagreements.prefix(25).joined(separator: "\n"))")
        // The comparison means something only when most URLs are accepted.
        #expect(accepted.count > corpus.count / 2, "only \(accepted.count) of \(corpus.count) accepted")
    }

    /// The hrefs that differ from ada's are the documented kinds only: the path, query and
    /// fragment are kept as written (no dot-segment removal, no percent-encoding beyond spaces).
    @Test func hrefDifferencesAreOnlyInThePathQueryOrFragment() throws {
        let corpus = try JSONDecoder().decode([String].self, from: Self.run(["corpus", "--count", "4000", "--seed", "1"]))
        let theirs = try Self.ada(corpus)
        var unexplained: [String] = []
        for (index, url) in corpus.enumerated() {
            guard theirs[index].ok, let parsed = try? ParsedURL(url), theirs[index].href != parsed.string else { continue }
            // Everything up to the path must be identical.
            let prefix = parsed.scheme + "://" + (parsed.userinfo.map { $0 + "@" } ?? "") + parsed.host + (parsed.port.map { ":\($0)" } ?? "")
            if !theirs[index].href.hasPrefix(prefix + "/") {
                unexplained.append("\(url.debugDescription): ada \(theirs[index].href.debugDescription), ours \(parsed.string.debugDescription)")
            }
        }
        #expect(unexplained.isEmpty, "href differences before the path (\(unexplained.count)):\n\(unexplained.prefix(20).joined(separator: "\n"))")
    }
}
