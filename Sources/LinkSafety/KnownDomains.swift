import Platform
import URLModel

/// A domain that matters to this user (named in a rule, a remembered answer, recent history),
/// with what makes it matter.
public struct KnownDomain: Sendable, Equatable {
    /// The domain as given, lowercased, without a leading `*.` or trailing dot; Unicode or ASCII.
    public var domain: String
    /// What it is to the user, read after "which": "your rule 'Pay' opens in firefox:Banking".
    /// Empty for none.
    public var description: String {
        get { describe?() ?? given }
        set { (given, describe) = (newValue, nil) }
    }
    private var given: String
    private var describe: (@Sendable () -> String)?

    /// A known domain.
    public init(domain: String, description: String = "") {
        self.domain = domain
        self.given = description
    }

    /// A known domain whose description is written only when it is shown (a look-alike found):
    /// a config's 1,000 rules each wrote theirs at every load, ~3.5k instructions a rule.
    public init(domain: String, describedBy describe: @escaping @Sendable () -> String) {
        self.domain = domain
        self.given = ""
        self.describe = describe
    }

    /// The same domain with the same description.
    public static func == (lhs: KnownDomain, rhs: KnownDomain) -> Bool { lhs.domain == rhs.domain && lhs.description == rhs.description }
}

/// The domains that matter to this user, ready for look-alike checks: each domain's skeletons
/// are computed once into a hash table, so a check is one skeleton of the host and a lookup per
/// suffix of it.
///
/// A host looks like a known domain when the skeleton of the host, or of its last labels, is the
/// skeleton of that domain, and the host is neither that domain nor under it: `pаypal.com` (a
/// Cyrillic а), `paypa1.com` and `www.paypal.com.xn--…` are caught, `www.paypal.com` is not.
public struct KnownDomains: Sendable {
    /// One domain with its ASCII form.
    struct Entry: Sendable {
        var known: KnownDomain
        var ascii: String
        var unicode: String
    }

    private(set) var entries: [Entry] = []
    /// Skeleton → entries with that skeleton.
    private(set) var bySkeleton: [String: [Int]] = [:]
    /// Labels of the longest skeleton: longer suffixes of a host cannot match.
    private(set) var maximumLabels = 2
    /// The ASCII forms held → their entries, so a domain is held once.
    private var held: [String: Int] = [:]
    /// The last label of each domain held (`com`), for target embedding.
    private var finalLabels = Set<String>()
    /// Which table this is: a number no other table had, taken again whenever a domain is added,
    /// so answers remembered for one table (SafetyChecker's) are never given for another.
    public private(set) var version = KnownDomains.nextVersion()
    private static let versions = Lock(0)
    private static func nextVersion() -> Int {
        versions.withLock { last in
            last += 1
            return last
        }
    }

    /// No domains: every check is free.
    public static let none = KnownDomains([])

    /// The table for `domains`; ones that are empty, a single label or not valid host names are
    /// left out.
    public init(_ domains: [KnownDomain]) {
        // Room made once: grown one domain at a time, the tables were rehashed a dozen times.
        entries.reserveCapacity(domains.count)
        held.reserveCapacity(domains.count)
        bySkeleton.reserveCapacity(domains.count)
        for known in domains { add(known) }
    }

    /// Adds `known` (one skeleton computed, a few hash insertions); false when it is left out:
    /// already held, empty, a single label or not a valid host name.
    @discardableResult
    public mutating func add(_ known: KnownDomain) -> Bool {
        // A config's domains are mostly lowercase ASCII with no `*.`, `.` or ACE label: each
        // step below that cannot change such a name is skipped for it (~1k instructions a domain).
        var name = known.domain
        if name.withUTF8({ $0.contains { $0 >= UInt8(ascii: "A") && ($0 <= UInt8(ascii: "Z") || $0 >= 0x80) } }) { name = name.lowercased() }
        while let first = name.utf8.first, first == UInt8(ascii: ".") || (first == UInt8(ascii: "*") && name.hasPrefix("*.")) {
            name.removeFirst(first == UInt8(ascii: ".") ? 1 : 2)
        }
        if name.utf8.last == UInt8(ascii: ".") { name.removeLast() }
        guard name.utf8.count <= 253, var ascii = Punycode.toASCII(host: name) else { return false }
        // The last label, unless there is no dot or a byte no host name holds (read in place).
        let finalLabel = ascii.withUTF8 { bytes -> String? in
            guard let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")),
                  !bytes.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "@") }) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(lastDot + 1)...]), as: UTF8.self)
        }
        guard let finalLabel, held[ascii] == nil else { return false }
        let unicode = HostText.hasPunycodeLabel(ascii) ? Punycode.toUnicode(host: ascii) : ascii
        let index = entries.count
        version = Self.nextVersion()
        held[ascii] = index
        // Byte-wise: a config's thousand domains went through Character splitting at every load.
        if !finalLabel.isEmpty { finalLabels.insert(finalLabel) }
        var kept = known
        kept.domain = name
        entries.append(Entry(known: kept, ascii: ascii, unicode: unicode))
        for skeleton in Skeleton.skeletons(of: unicode) {
            bySkeleton[skeleton, default: []].append(index)
            maximumLabels = max(maximumLabels, skeleton.utf8.reduce(1) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 })
        }
        return true
    }

    /// True when `domain` (ASCII) is held.
    public func contains(_ domain: String) -> Bool { held[domain] != nil }

    /// True when a domain held ends in the label `label` (ASCII).
    func hasFinalLabel(_ label: String) -> Bool { finalLabels.contains(label) }

    /// The known domain held as `ascii`, nil when none is.
    public func known(ascii: String) -> KnownDomain? { held[ascii].map { entries[$0].known } }

    /// How many domains the table holds.
    public var count: Int { entries.count }
    /// True when there are none.
    public var isEmpty: Bool { entries.isEmpty }

    /// The known domain `host` imitates, or nil. `host` is the ASCII form (as `ParsedURL.host`
    /// gives it, without a trailing dot) and `unicodeHost` its Unicode form.
    public func lookalike(host: String, unicodeHost: String) -> KnownDomain? {
        guard !entries.isEmpty, host.utf8.count <= 253 else { return nil }
        let skeletons = HostText.hasPunycodeLabel(host) ? Skeleton.skeletons(of: unicodeHost) : [Skeleton.ascii(host)]
        for skeleton in skeletons {
            if let found = match(skeleton, host: host) { return found }
        }
        return nil
    }

    /// The known domain whose skeleton is the skeleton of `host`'s last labels (longest first),
    /// unless `host` is that domain or under it. Walks the skeleton's bytes from the end: each
    /// suffix of two labels or more (up to `maximumLabels`) is one look-up, and a suffix of up to
    /// 15 bytes is a small string (no allocation).
    private func match(_ skeleton: String, host: String) -> KnownDomain? {
        var skeleton = skeleton
        let longest: [Int]? = skeleton.withUTF8 { bytes -> [Int]? in
            var found: [Int]?
            var labels = 1
            var index = bytes.count
            while index > 0 {
                index -= 1
                guard bytes[index] == UInt8(ascii: ".") || index == 0 else { continue }
                let start = bytes[index] == UInt8(ascii: ".") ? index + 1 : 0
                if bytes[index] == UInt8(ascii: ".") { labels += 1 }
                // `start` begins the suffix of `labels - 1` labels after a dot, or of all labels at 0.
                let count = start == 0 ? labels : labels - 1
                if count >= 2, count <= maximumLabels,
                   let indexes = bySkeleton[String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)] {
                    found = indexes
                }
                if count >= maximumLabels { break }
            }
            return found
        }
        guard let indexes = longest else { return nil }
        // The host is one of the domains with this skeleton, or under one: not a look-alike.
        if indexes.contains(where: { Self.isSameOrUnder(host, entries[$0].ascii) }) { return nil }
        return indexes.first.map { entries[$0].known }
    }

    static func isSameOrUnder(_ host: String, _ domain: String) -> Bool {
        let hostBytes = host.utf8, domainBytes = domain.utf8
        guard hostBytes.count >= domainBytes.count else { return false }
        let start = hostBytes.index(hostBytes.endIndex, offsetBy: -domainBytes.count)
        guard hostBytes[start...].elementsEqual(domainBytes) else { return false }
        return start == hostBytes.startIndex || hostBytes[hostBytes.index(before: start)] == UInt8(ascii: ".")
    }

    /// "looks like paypal.com, which your rule 'Pay' opens in firefox:Banking".
    static func message(for known: KnownDomain) -> String {
        let shown = Punycode.toUnicode(host: known.domain)
        return known.description.isEmpty ? "looks like \(shown)" : "looks like \(shown), which \(known.description)"
    }
}

/// Known domains given, or built by a closure the first time they are asked for (by any thread;
/// the others wait), which is then let go (it may hold a whole config). Copies of a checker
/// share one.
final class KnownDomainsOnFirstUse: Sendable {
    private enum State {
        case built(KnownDomains)
        case pending(@Sendable () -> KnownDomains)
    }
    private let state: Lock<State>

    /// `domains`, built already.
    init(_ domains: KnownDomains) { state = Lock(.built(domains)) }

    /// Domains `build` makes on first use.
    init(building build: @escaping @Sendable () -> KnownDomains) { state = Lock(.pending(build)) }

    /// The domains, built now if not yet.
    var value: KnownDomains { read { $0 } }

    /// The table's version (see `KnownDomains.version`), without copying it.
    var version: Int { read { $0.version } }

    private func read<T>(_ body: (KnownDomains) -> T) -> T {
        state.withLock { state in
            switch state {
            case .built(let domains): return body(domains)
            case .pending(let build):
                let made = build()
                state = .built(made)
                return body(made)
            }
        }
    }
}
