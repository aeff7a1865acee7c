@testable import LinkSafety
import Testing

/// The per-host memo: an answer comes back only for the same host, both forms and the same
/// checks; it holds at most `limit` hosts and forgets them all when full.
@Suite struct HostFactsMemoTests {
    static let all = HostChecksRun(idn: true, lookalikes: true, blocklists: true, domains: 1)
    static func facts(listed: Bool) -> HostFacts { HostFacts(reasons: [], listed: listed) }

    @Test func anAnswerComesBackForTheSameHostAndChecksOnly() {
        let memo = HostFactsMemo()
        let host = "login.example-bank.com"
        #expect(memo.facts(hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: Self.all) == nil)
        memo.remember(Self.facts(listed: true), hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: Self.all)
        // The same text from other storage, as the next click's URL holds it.
        let again = String("login.example-bank.com.".dropLast())
        #expect(memo.facts(hash: BlockIndex.fnv1a(again), host: again, unicodeHost: again, run: Self.all)?.listed == true)
        var fewer = Self.all
        fewer.blocklists = false
        #expect(memo.facts(hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: fewer) == nil)
        var newer = Self.all
        newer.domains = 2
        #expect(memo.facts(hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: newer) == nil)
        let other = "login.example-bank.org"
        #expect(memo.facts(hash: BlockIndex.fnv1a(other), host: other, unicodeHost: other, run: Self.all) == nil)
    }

    @Test func anIDNHostIsRememberedApartFromItsUndecodedForm() {
        let memo = HostFactsMemo()
        let host = "xn--pypal-4ve.com"
        let hash = BlockIndex.fnv1a(host)
        memo.remember(Self.facts(listed: true), hash: hash, host: host, unicodeHost: "pаypal.com", run: Self.all)
        // A scheme that is not special keeps the `xn--` form as its Unicode host.
        #expect(memo.facts(hash: hash, host: host, unicodeHost: host, run: Self.all) == nil)
        #expect(memo.facts(hash: hash, host: host, unicodeHost: "pаypal.com", run: Self.all)?.listed == true)
        memo.remember(Self.facts(listed: false), hash: hash, host: host, unicodeHost: host, run: Self.all)
        #expect(memo.facts(hash: hash, host: host, unicodeHost: host, run: Self.all)?.listed == false)
        #expect(memo.facts(hash: hash, host: host, unicodeHost: "pаypal.com", run: Self.all)?.listed == true)
    }

    @Test func aFullMemoForgetsEverythingAndKeepsAnswering() {
        let memo = HostFactsMemo()
        let hosts = (0...HostFactsMemo.limit).map { "host\($0).example" }
        for host in hosts.dropLast() {
            memo.remember(Self.facts(listed: true), hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: Self.all)
        }
        let remembered = hosts.dropLast().filter { memo.facts(hash: BlockIndex.fnv1a($0), host: $0, unicodeHost: $0, run: Self.all) != nil }
        #expect(remembered.count == HostFactsMemo.limit)
        let last = hosts[hosts.count - 1]
        memo.remember(Self.facts(listed: false), hash: BlockIndex.fnv1a(last), host: last, unicodeHost: last, run: Self.all)
        #expect(memo.facts(hash: BlockIndex.fnv1a(last), host: last, unicodeHost: last, run: Self.all)?.listed == false)
        #expect(memo.facts(hash: BlockIndex.fnv1a(hosts[0]), host: hosts[0], unicodeHost: hosts[0], run: Self.all) == nil)
    }

    /// Hosts whose hashes share a slot's chain are told apart by their bytes.
    @Test func hostsOfEqualLengthAndManyInOneTableAreToldApart() {
        let memo = HostFactsMemo()
        let hosts = (0..<1_000).map { "h\(1_000 + $0).example" }
        for (index, host) in hosts.enumerated() {
            memo.remember(Self.facts(listed: index % 2 == 0), hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: Self.all)
        }
        for (index, host) in hosts.enumerated() {
            #expect(memo.facts(hash: BlockIndex.fnv1a(host), host: host, unicodeHost: host, run: Self.all)?.listed == (index % 2 == 0))
        }
    }
}
