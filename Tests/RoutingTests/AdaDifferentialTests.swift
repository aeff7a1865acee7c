import Foundation
import TestSupport
import Testing
@testable import URLModel

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
        }
        print("""
            ada differential: \(corpus.count) URLs, \(accepted.count) accepted with ada's host, \
            \(corpus.count - accepted.count) refused (\(refusedWhereAdaAccepts) of them accepted by ada); refusals by reason: \(refusals.sorted { $0.value > $1.value }.prefix(12))
            """)
        #expect(disagreements.isEmpty, "host disagreements with ada (\(disagreements.count)):\n\(disagreements.prefix(25).joined(separator: "\n"))")
        // The comparison means something only when most URLs are accepted.
        #expect(accepted.count > corpus.count / 2, "only \(accepted.count) of \(corpus.count) accepted")
    }

    /// Every href agrees with ada's, path, query and fragment included (issue 22: they were
    /// kept as written before).
    @Test func hrefsAgreeWithAda() throws {
        let corpus = try JSONDecoder().decode([String].self, from: Self.run(["corpus", "--count", "4000", "--seed", "1"]))
        try Self.expectHrefsAgree(corpus, label: "host corpus")
    }

    /// Generated paths, queries and fragments (dot segments in every spelling, `\`, each
    /// percent-encode set's bytes, controls, tabs and line breaks, non-ASCII) on a few hosts.
    @Test func pathsQueriesAndFragmentsAgreeWithAda() throws {
        let corpus = try JSONDecoder().decode([String].self, from: Self.run(["tails", "--count", "4000", "--seed", "1"]))
        #expect(corpus.count == 4000)
        try Self.expectHrefsAgree(corpus, label: "path corpus")
    }

    /// Each URL is refused by both or read by both with the same href; ada reads the href we
    /// hand on as itself; and that href has no dot segment left in its path.
    static func expectHrefsAgree(_ corpus: [String], label: String) throws {
        let theirs = try ada(corpus)
        var ours: [ParsedURL?] = []
        for url in corpus { ours.append(try? ParsedURL(url)) }
        let reread = try ada(ours.compactMap { $0?.string })
        var next = 0
        var differences: [String] = []
        var refusedWhereAdaAccepts: [String] = []
        for (index, url) in corpus.enumerated() {
            guard let parsed = ours[index] else {
                if theirs[index].ok { refusedWhereAdaAccepts.append(url.debugDescription) }
                continue
            }
            let again = reread[next]
            next += 1
            if !theirs[index].ok {
                differences.append("\(url.debugDescription): ada refuses it; we read \(parsed.string.debugDescription)")
            } else if theirs[index].href != parsed.string {
                differences.append("\(url.debugDescription): ada \(theirs[index].href.debugDescription), ours \(parsed.string.debugDescription)")
            } else if again.href != parsed.string {
                differences.append("\(url.debugDescription): ada reads our \(parsed.string.debugDescription) as \(again.href.debugDescription)")
            }
            let segments = parsed.path.split(separator: "/", omittingEmptySubsequences: false)
            if segments.contains(where: { URLTail.isDotSegment(Array($0.utf8)[...]) != nil }) {
                differences.append("\(url.debugDescription): dot segment left in \(parsed.path.debugDescription)")
            }
        }
        print("ada hrefs (\(label)): \(corpus.count) URLs, \(next) accepted with ada's href, \(corpus.count - next) refused (\(refusedWhereAdaAccepts.count) of them accepted by ada)")
        #expect(differences.isEmpty, "href differences with ada (\(differences.count)):\n\(differences.prefix(25).joined(separator: "\n"))")
        // The only refusals ada does not share are hosts: over 1,024 bytes, or newer than ICU 72's Unicode 15.
        #expect(refusedWhereAdaAccepts.isEmpty, "refused where ada accepts (\(refusedWhereAdaAccepts.count)):\n\(refusedWhereAdaAccepts.prefix(25).joined(separator: "\n"))")
    }
}
