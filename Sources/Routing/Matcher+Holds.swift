import LinkSafety
import Patterns
import SiteLists
import URLModel
import RoutingCore
import ConfigLanguage

/// How a matcher is judged against a link: the engine's half of `Matcher`.
extension Matcher {
    /// True when the matcher holds for `subject`.
    public func holds(for subject: MatchSubject) -> Bool {
        switch self {
        case .scheme(let schemes):
            return schemes.contains(subject.url.scheme)
        case .domain(let domains):
            let host = subject.url.matchingHost
            return domains.contains { Self.host(host, isWithin: $0) }
        case .host(let globs):
            let host = subject.url.matchingHost, unicode = subject.url.matchingUnicodeHost
            return globs.contains { $0.matches(host) || (unicode != host && $0.matches(unicode)) }
        case .path(let globs):
            return globs.contains { $0.matches(subject.url.path) }
        case .query(let pairs):
            let items = subject.url.queryItems
            return pairs.allSatisfy { pair in items.contains { $0.name == pair.name && pair.value.matches($0.value) } }
        case .url(let globs):
            return globs.contains { $0.matches(subject.text) }
        case .regex(let regexes):
            return regexes.contains { $0.matches(subject.text) }
        case .to(let globs):
            guard let mailto = subject.mailto else { return false }
            return mailto.addresses.contains { address in
                globs.contains { $0.matches(address.display) || (address.ascii != address.display && $0.matches(address.ascii)) }
                    // `Jane Doe <jane@corp.example>` is jane@corp.example to `*@corp.example`.
                    || address.addressesInBrackets.contains { spec in globs.contains { $0.matches(spec) } }
            }
        case .opener(let globs):
            guard let names = subject.opener?.names else { return false }
            return names.contains { name in globs.contains { $0.matches(name) } }
        case .siteList(let match):
            if case .go = match.list.verdict(for: subject.url, greylists: match.greylists) { return true }
            return false
        case .network(let globs):
            guard let network = subject.moment.network.value else { return false }
            return network.connections.contains { connection in
                globs.contains { $0.matches(connection.id) || (connection.ssid.map($0.matches) ?? false) }
            }
        case .vpn(let condition):
            guard let network = subject.moment.network.value else { return false }
            switch condition {
            case .active(let wanted): return network.vpns.isEmpty != wanted
            case .named(let globs): return network.vpns.contains { vpn in globs.contains { $0.matches(vpn.id) } }
            }
        case .time(let ranges):
            guard let time = subject.moment.time.value else { return false }
            return ranges.contains { $0.contains(time.minuteOfDay) }
        case .days(let days):
            guard let time = subject.moment.time.value else { return false }
            return days.contains(time.weekday)
        case .window(let globs):
            guard let title = subject.moment.window.value else { return false }
            return globs.contains { $0.matches(title) }
        case .modifiers(let keys):
            guard let held = subject.moment.modifiers.value else { return false }
            return keys.isSubset(of: held)
        case .any(let alternatives):
            return alternatives.contains { $0.allSatisfy { $0.holds(for: subject) } }
        case .not(let matchers):
            return !matchers.allSatisfy { $0.holds(for: subject) }
        }
    }

    /// The matcher's key with, for a condition on the moment or the opener, the value it saw:
    /// `network (saw "Office" (802-11-wireless, SSID "Office-5G"))`, `time (saw Tue 2026-12-01 18:30)`.
    public func explained(for subject: MatchSubject) -> String {
        func saw<Value>(_ fact: Known<Value>, _ text: (Value) -> String) -> String {
            switch fact {
            case .known(let value): return "\(key) (saw \(text(value)))"
            case .unknown(let why): return "\(key) (unknown: \(why))"
            }
        }
        let moment = subject.moment
        switch self {
        case .opener:
            return "opener (saw \(subject.opener.map { $0.names.map { "\"\($0)\"" }.joined(separator: ", ") } ?? "no opener"))"
        case .network: return saw(moment.network) { $0.summary }
        case .vpn: return saw(moment.network) { $0.vpns.isEmpty ? "no VPN" : $0.vpns.map { "\"\($0.id)\"" }.joined(separator: ", ") }
        case .time, .days: return saw(moment.time) { $0.text }
        case .window: return saw(moment.window) { "\"\($0)\"" }
        case .modifiers: return saw(moment.modifiers) { $0.isEmpty ? "none held" : $0.sorted().map(\.rawValue).joined(separator: "+") }
        case .any(let alternatives):
            let held = alternatives.firstIndex { $0.allSatisfy { $0.holds(for: subject) } }
            let parts = alternatives.map { $0.map { $0.explained(for: subject) }.joined(separator: ", ") }
            return "any [\(parts.map { "{\($0)}" }.joined(separator: " | "))]" + (held.map { ": #\($0 + 1) held" } ?? ": none held")
        case .not(let matchers):
            return "not {\(matchers.map { $0.explained(for: subject) }.joined(separator: ", "))}"
        default: return key
        }
    }
}
