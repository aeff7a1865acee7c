import Foundation
import LinkSafety
import Testing
import URLModel
import JSON

/// Block lists in uBlock filter syntax and hosts-file format, on a list of our own that has one
/// line of each kind.
@Suite struct BlockListTests {
    static let text = """
    [Adblock Plus 2.0]
    ! Title: Test badware list
    ! A comment
    ||evil.example^
    ||phish.example^$doc
    ||tracker.example^$script
    ||cdn.example/malware/*.exe^$all
    ||files.example/dl/payload.zip|$doc
    ||docs.example/view/bad|$doc
    |https://*.wild.example^$doc
    |http://plain.example/?invite=1|$doc
    ||familysimulator.$all
    ||discord*.gift^$all
    ||onlyon.example^$doc,domain=news.example
    ||everywhere.example^$doc,domain=~safe.example
    ||kept.example^$doc,to=~edu
    ||redirected.example^$redirect=noop.js
    ||dns.example^$doc,ipaddress=1.2.3.4
    @@||good.evil.example^$doc
    /click.php?data=$doc
    /^https?:\\/\\/[a-z]{8}\\.top\\//$doc
    example.org##.ad-banner
    ##.generic-ad
    0.0.0.0 hosts-file.example second.example # two hosts
    127.0.0.1 localhost.localdomain
    203.0.113.7
    bare-host.example

    """

    static let list = BlockList(name: "test list", text: text, path: "/lists/test.txt")

    static func blocked(_ url: String) throws -> SafetyBlock? { list.block(for: try ParsedURL(url)) }

    @Test("blocked links and the entry that blocks them", arguments: [
        ("https://evil.example/", "||evil.example^"),
        ("http://www.evil.example/login?x=1", "||evil.example^"),
        ("https://a.b.phish.example/", "||phish.example^$doc"),
        ("https://cdn.example/malware/setup.exe", "||cdn.example/malware/*.exe^$all"),
        ("https://eu.cdn.example/MALWARE/Setup.EXE?v=2", "||cdn.example/malware/*.exe^$all"),
        ("https://files.example/dl/payload.zip", "||files.example/dl/payload.zip|$doc"),
        ("https://x.wild.example/", "|https://*.wild.example^$doc"),
        ("http://plain.example/?invite=1", "|http://plain.example/?invite=1|$doc"),
        ("https://familysimulator.com/", "||familysimulator.$all"),
        ("https://www.familysimulator.net/play", "||familysimulator.$all"),
        ("https://everywhere.example/", "||everywhere.example^$doc,domain=~safe.example"),
        ("https://kept.example/", "||kept.example^$doc,to=~edu"),
        ("https://hosts-file.example/", "0.0.0.0 hosts-file.example second.example # two hosts"),
        ("https://second.example/", "0.0.0.0 hosts-file.example second.example # two hosts"),
        ("http://203.0.113.7/payload", "203.0.113.7"),
        ("https://bare-host.example./", "bare-host.example"),
    ])
    func blocked(_ url: String, _ entry: String) throws {
        let block = try #require(try Self.blocked(url), "\(url) is not blocked")
        #expect(block.entry == entry)
        #expect(block.list == "test list")
        #expect(block.path == "/lists/test.txt")
    }

    @Test("links the list does not block", arguments: [
        "https://example.com/", "https://notevil.example/", "https://evil.example.com/", "https://good.evil.example/",
        "https://tracker.example/", "https://cdn.example/malware/readme.txt", "https://cdn.example/other/setup.exe",
        "https://files.example/dl/payload.zip.txt", "https://docs.example/view/bad/ok", "https://wild.example.org/",
        "https://plain.example/?invite=12", "https://discordapp.gift/", "https://onlyon.example/",
        "https://redirected.example/", "https://dns.example/", "https://familysimulator/", "https://example.org/",
        "http://203.0.113.70/", "http://7.203.0.113/", "mailto:someone@example.com", "https://localhost.localdomain/",
    ])
    func notBlocked(_ url: String) throws {
        #expect(try Self.blocked(url) == nil, "\(url)")
    }

    @Test func countsEveryKindOfLine() {
        let summary = Self.list.summary
        #expect(summary.name == "test list")
        #expect(summary.error == nil)
        let counts = summary.counts
        #expect(counts.hosts == 10)          // evil, phish, wild, everywhere, kept, good (the exception), two in the hosts-file line, the bare address and host
        #expect(counts.urls == 4)
        #expect(counts.labelPrefixes == 1)
        #expect(counts.exceptions == 1)
        #expect(counts.cosmetic == 2)
        #expect(counts.unsupportedPatterns == 3) // discord*.gift, /click.php, the regex
        #expect(counts.notForPages == 2)     // $script, $redirect=
        #expect(counts.unsupportedOptions == 2) // domain=news.example, ipaddress=
        #expect(counts.ignoredOptions == 1)  // domain=~safe.example
    }

    @Test func theTitleNamesAListWithoutAName() {
        let list = BlockList(path: "/x/list.txt") { Array("! Title: Badware risks\n||evil.example^\n".utf8) }
        #expect(!list.isLoaded)
        #expect(list.summary.name == "Badware risks")
        #expect(list.isLoaded)
        let untitled = BlockList(path: "/x/hosts") { Array("0.0.0.0 evil.example\n".utf8) }
        #expect(untitled.summary.name == "hosts")
    }

    @Test func anUnreadableListBlocksNothingAndSaysWhy() throws {
        let list = BlockList(path: "/nonexistent/list.txt") { nil }
        #expect(list.block(for: try ParsedURL("https://evil.example/")) == nil)
        #expect(list.summary.error == "cannot read /nonexistent/list.txt")
    }

    @Test func theListIsReadOnceOnFirstUseEvenFromManyThreads() async throws {
        let reads = Counter()
        let list = BlockList(path: "/x") {
            reads.increment()
            return Array("||evil.example^\n".utf8)
        }
        #expect(reads.value == 0)
        let url = try ParsedURL("https://fine.example/evil.example")
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 { group.addTask { list.block(for: url) == nil } }
            for await passed in group { #expect(passed) }
        }
        #expect(reads.value == 1)
        // A blocked link's entry is read from the list again (the text is not kept).
        #expect(list.block(for: try ParsedURL("https://evil.example/"))?.entry == "||evil.example^")
        #expect(reads.value == 2)
    }

    @Test func hostileListsAreReadWithoutTrouble() throws {
        var bytes = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
        bytes += Array("\n||evil.example^\n".utf8)
        bytes += Array(repeating: UInt8(ascii: "|"), count: 10_000)
        bytes += Array("\n||".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100_000) + Array("^\n".utf8)
        bytes += Array("||x.example/".utf8) + Array(repeating: UInt8(ascii: "*"), count: 3000) + Array("a|\n".utf8)
        let hostile = bytes
        let list = BlockList(path: "/hostile") { hostile }
        #expect(list.block(for: try ParsedURL("https://evil.example/")) != nil)
        let longPath = "https://x.example/" + String(repeating: "b", count: 100_000)
        let start = Date()
        #expect(list.block(for: try ParsedURL(longPath)) == nil)
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test func theCheckerBlocksBeforeItWarns() throws {
        let checker = SafetyChecker(knownDomains: KnownDomains([KnownDomain(domain: "evil.exampie")]), blocklists: [Self.list])
        let verdict = checker.verdict(for: try ParsedURL("https://evil.example/"), linkText: "paypal.com")
        guard case .block(let block) = verdict else {
            Issue.record("not blocked: \(verdict)")
            return
        }
        #expect(block.entry == "||evil.example^")
        #expect(verdict.summary == "listed in test list (||evil.example^)")
        #expect(verdict.json().text == #"{"verdict":"block","block":{"list":"test list","path":"/lists/test.txt","entry":"||evil.example^","line":4,"message":"listed in test list (||evil.example^)"}}"#)
        let mail = checker.verdict(for: try ParsedURL("mailto:a@example.com,b@www.evil.example"))
        #expect(mail.name == "block")
        #expect(SafetyChecker(checks: SafetyChecks(blocklists: false), blocklists: [Self.list]).verdict(for: try ParsedURL("https://evil.example/")) == .safe)
    }
}

extension BlockListTests {
    static let checkedLinks = [
        "https://evil.example/", "http://www.evil.example/login?x=1", "https://cdn.example/malware/setup.exe", "https://cdn.example/malware/readme.txt",
        "https://eu.cdn.example/MALWARE/Setup.EXE?v=2", "https://cdn.example/other/setup.exe", "https://www.familysimulator.net/play",
        "https://familysimulator/", "https://x.wild.example/", "https://wild.example.org/", "http://plain.example/?invite=1",
        "https://plain.example/?invite=12", "https://good.evil.example/", "http://203.0.113.7/payload", "http://203.0.113.70/",
        "https://example.com/", "https://notevil.example/", "https://files.example/dl/payload.zip", "https://files.example/dl/payload.zip.txt",
    ]

    /// The checker remembers, per host, whether a list names it at all, and looks at the lists
    /// only for such hosts: every link still gets the list's own answer, asked in any order and
    /// again (a host's first link not blocked, its next one blocked by a URL pattern).
    @Test func theCheckerGivesTheListsAnswerForEveryLinkAskedAgain() throws {
        let checker = SafetyChecker(checks: SafetyChecks(idn: false, lookalikes: false, linkText: false), blocklists: [Self.list])
        for link in Self.checkedLinks + Self.checkedLinks.reversed() + Self.checkedLinks {
            let url = try ParsedURL(link)
            let expected = Self.list.block(for: url)
            #expect(Self.list.mentions(host: url.matchingHost) || expected == nil, "\(link): blocked, yet its host is not mentioned")
            switch checker.verdict(for: url) {
            case .block(let block): #expect(block.entry == expected?.entry, "\(link)")
            default: #expect(expected == nil, "\(link): the list blocks it, the checker did not")
            }
        }
        #expect(!Self.list.mentions(host: "example.com"))
        #expect(Self.list.mentions(host: "cdn.example"), "a host with URL patterns only")
        #expect(Self.list.mentions(host: "www.familysimulator.net"), "a label-prefix entry")
    }
}

/// A thread-safe counter for the test above.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

extension BlockListTests {
    /// Many URL patterns at one host (as URLhaus has at github.com): filed by their literal start,
    /// each still found, near misses still missed, and the first in list order reported.
    @Test func manyURLPatternsAtOneHostAreFoundByTheirStart() throws {
        var lines: [String] = []
        for user in 0..<300 { lines.append("||code.example/user\(user)/repo/raw/main/payload.exe^$all") }
        lines += [
            "||code.example/a^$doc",                       // shorter than any filing length
            "||code.example/*/evil.bin^$doc",              // a wildcard first
            "||code.example/shared/go/0123456789abcdef/x^$doc",
            "||code.example/shared/go/0123456789abcdef^$doc",  // a prefix of the line above, later in the list
            "||code.example/user7/repo/raw/main/payload.exe^$doc", // a duplicate of line 8, later
        ]
        let list = BlockList(name: "many", text: lines.joined(separator: "\n") + "\n")
        func entry(_ url: String) throws -> String? { list.block(for: try ParsedURL(url))?.entry }
        for user in [0, 1, 77, 150, 299] {
            #expect(try entry("https://code.example/user\(user)/repo/raw/main/payload.exe") == "||code.example/user\(user)/repo/raw/main/payload.exe^$all")
            #expect(try entry("https://www.code.example/user\(user)/repo/raw/main/payload.exe?x=1") != nil)
            #expect(try entry("https://code.example/user\(user)/repo/raw/main/payload.exe2") == nil, "^ needs a separator")
            #expect(try entry("https://code.example/user\(user)/repo/raw/main/other.exe") == nil)
        }
        #expect(try entry("https://code.example/user7/repo/raw/main/payload.exe") == "||code.example/user7/repo/raw/main/payload.exe^$all", "the first in list order")
        #expect(try entry("https://code.example/a") == "||code.example/a^$doc")
        #expect(try entry("https://code.example/abc") == nil)
        #expect(try entry("https://code.example/anything/evil.bin") == "||code.example/*/evil.bin^$doc")
        #expect(try entry("https://code.example/shared/go/0123456789abcdef/x") == "||code.example/shared/go/0123456789abcdef/x^$doc")
        #expect(try entry("https://code.example/shared/go/0123456789abcdef") == "||code.example/shared/go/0123456789abcdef^$doc")
        #expect(try entry("https://code.example/") == nil)
        #expect(try entry("https://other.example/user1/repo/raw/main/payload.exe") == nil)
    }
}
