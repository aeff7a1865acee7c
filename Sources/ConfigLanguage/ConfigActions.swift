import URLModel
import Patterns
import RoutingCore
import Catalog
import TOML
import Templates

/// Reading `match` tables and actions out of rules and `[default]`.
extension ConfigReader {
    mutating func readAction(_ node: TOMLNode, context: String, required: Bool) -> Intent? {
        let present = ConfigLoader.actionKeys.filter { node[$0] != nil }
        if present.count > 1 {
            collector.report("\(context) has \(present.count) actions (\(present.joined(separator: " and "))); give exactly one", at: node.position)
            return nil
        }
        guard let key = present.first, let value = node[key] else {
            if required {
                collector.report("\(context) has no action; give one of open, copy, ask, discard, system", at: node.position)
            }
            return nil
        }
        switch key {
        case "open":
            if case .array = value.value {
                // `open = ["firefox:Work", "chromium"]`: the first that runs, else the first.
                guard let names = collector.strings(value, "open") else { return nil }
                let targets = names.compactMap { resolveTarget($0.0, at: $0.1) }
                guard targets.count == names.count else { return nil }
                return targets.count == 1 ? .open(targets[0]) : .openFirstRunning(targets)
            }
            guard let name = collector.string(value, "open") else { return nil }
            return resolveTarget(name, at: value.position).map { .open($0) }
        case "copy":
            switch value.value {
            case .boolean(true): return .copy(template: nil)
            case .string(let template):
                checkPlaceholders(template, at: value.position, "copy")
                return .copy(template: template)
            default:
                collector.report("copy: expected true or a template string such as \"{to}\", found \(value.typeDescription == "a boolean" ? "false" : value.typeDescription)", at: value.position)
                return nil
            }
        case "ask":
            guard let items = collector.strings(value, "ask") else { return nil }
            var choices: [Choice.Action] = []
            for (item, position) in items {
                switch item {
                case "copy": choices.append(.copy)
                case "discard": choices.append(.discard)
                default:
                    if let target = resolveTarget(item, at: position) { choices.append(.open(target)) }
                }
            }
            return .ask(choices)
        case "discard", "system":
            guard let flag = collector.bool(value, key) else { return nil }
            guard flag else {
                collector.report("\(key) = false is not an action; remove it or give another action", at: value.position)
                return nil
            }
            return key == "discard" ? .discard : .system
        default:
            return nil
        }
    }

    /// A target name: `system`, an `[apps.NAME]`, a webmail or mail program name, a desktop id
    /// (`:ACTION`), or a discovered browser with an optional profile (`firefox:Work`,
    /// `chromium:private`). A name that could name something installed but does not (a browser,
    /// a profile, an entry not found) is a missing app, not an error: the target is
    /// `.unavailable` and the config loads.
    mutating func resolveTarget(_ name: String, at position: SourcePosition) -> Target? {
        let remembered = resolvedTargets?[name]
        if let target = remembered ?? Target(name, in: config) {
            if remembered == nil, resolvedTargets != nil { resolvedTargets?[name] = target }
            if case .desktopEntry(let id, _) = target { noteDesktopID(id, context: "", at: position) }
            return target
        }
        var message = "unknown target \"\(name)\": expected a desktop id (\"firefox-esr.desktop\", \"thunderbird.desktop:ComposeMessage\"), a browser with a profile or window (\"firefox:Work\", \"chromium:private\", \"chromium:Work:app\"), a list of targets (the first running), an [apps.NAME], a webmail name (\(Webmail.builtIn.keys.sorted().joined(separator: ", "))), a mail program (\(Mailer.builtIn.map(\.name).joined(separator: ", "))) or \"system\""
        let known = Array(config.apps.keys) + Array(config.webmail.keys) + Array(Webmail.builtIn.keys) + Mailer.builtIn.map(\.name) + ["system"] + config.catalog.browserNames
        if let suggestion = DiagnosticCollector.nearest(to: name, among: known) { message += "; did you mean \"\(suggestion)\"?" }
        // A desktop id followed by something other than `:ACTION`, or an empty browser or profile: a typo in the syntax.
        guard name.endOfFirst(".desktop") == nil, !name.hasPrefix(":"), !name.hasSuffix(":"), !name.isEmpty else {
            collector.report(message, at: position)
            return nil
        }
        if let colon = name.firstIndex(of: ":") {
            if case .failure(let error) = config.catalog.resolve(browser: String(name[..<colon]), profile: String(name[name.index(after: colon)...])) {
                // A target no installation makes work (Firefox's app window) is a mistake in the config.
                guard error.isMissing else {
                    collector.report(error.message, at: position)
                    return nil
                }
                message = error.message
            }
        } else if readingRemembered || KnownBrowser.table.contains(where: { $0.key == name || $0.nativeNames.contains(name) || $0.flatpakIDs.contains(name) || $0.snapNames.contains(name) }) {
            // A browser openurld knows, not installed here (`brave` after Brave was removed), or
            // a remembered answer's `[apps.NAME]` that config.toml no longer has.
            message += " (openurl apps lists what is installed)"
        } else {
            // A bare name no installed or known app has: a typo, reported as before.
            collector.report(message, at: position)
            return nil
        }
        noteMissing(name, message, at: position)
        return .unavailable(name)
    }

    /// Bytes that show a `match.domain` value is a URL, a glob or an address, not a domain.
    private static func isNotInDomain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: " "): return true
        default: return false
        }
    }

    mutating func readMatchers(_ node: TOMLNode, context: String) -> [Matcher] {
        readMatchers(node, path: "match", depth: 0)
    }

    /// The most `any` and `not` tables nested in one another.
    static let maximumMatchDepth = 8

    /// The matchers of one table at `path` (`match`, `match.any[2]`, `match.not`).
    private mutating func readMatchers(_ node: TOMLNode, path: String, depth: Int) -> [Matcher] {
        guard let members = collector.table(node, path) else { return [] }
        collector.checkKeys(members, known: ConfigLoader.matcherKeys, in: path)
        var matchers: [Matcher] = []
        for (key, value) in members {
            let what = "\(path).\(key)"
            switch key {
            case "scheme":
                guard let items = collector.strings(value, what) else { continue }
                var schemes = Set<String>()
                for (scheme, position) in items {
                    let lowered = scheme.lowercased()
                    guard let first = lowered.unicodeScalars.first, ("a"..."z").contains(first),
                          lowered.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }) else {
                        collector.report("\(what): \"\(scheme)\" is not a scheme (expected a name like \"https\" or \"mailto\", without a colon)", at: position)
                        continue
                    }
                    schemes.insert(lowered)
                }
                matchers.append(.scheme(schemes))
            case "domain":
                guard let items = collector.strings(value, what) else { continue }
                var domains: [String] = []
                for (domain, position) in items {
                    // Read as a URL's host is read, so "ｅｘａｍｐｌｅ.org" or "0x7f.1" name what they mean.
                    // Bytes, not Characters: checking each Character against a string of six
                    // cost a sixth of a 1,000-rule config's load.
                    guard !domain.isEmpty, !domain.utf8.contains(where: Self.isNotInDomain), !domain.hasPrefix("."),
                          let host = try? HostParser.parse(ArraySlice(domain.utf8)) else {
                        collector.report("\(what): \"\(domain)\" is not a domain (expected a host name like \"zoom.us\"; it also matches subdomains)", at: position)
                        continue
                    }
                    domains.append(ParsedURL.withoutTrailingDot(host))
                }
                matchers.append(.domain(domains))
            case "host": globs(value, what, separator: ".", caseInsensitive: true).map { matchers.append(.host($0)) }
            case "path": globs(value, what, separator: "/", caseInsensitive: false, forms: GlobText.pathForms).map { matchers.append(.path($0)) }
            case "url": globs(value, what, separator: "/", caseInsensitive: false, forms: GlobText.urlForms).map { matchers.append(.url($0)) }
            case "to": globs(value, what, separator: nil, caseInsensitive: true).map { matchers.append(.to($0)) }
            case "opener": globs(value, what, separator: nil, caseInsensitive: true).map { matchers.append(.opener($0)) }
            case "network": globs(value, what, separator: nil, caseInsensitive: false).map { matchers.append(.network($0)) }
            case "window": globs(value, what, separator: nil, caseInsensitive: false).map { matchers.append(.window($0)) }
            case "vpn":
                switch value.value {
                case .boolean(let flag): matchers.append(.vpn(.active(flag)))
                case .string, .array: globs(value, what, separator: nil, caseInsensitive: false).map { matchers.append(.vpn(.named($0))) }
                default: collector.report("\(what): expected true, false, or a VPN connection's name (a glob), found \(value.typeDescription)", at: value.position)
                }
            case "time":
                guard let items = collector.strings(value, what) else { continue }
                var ranges: [TimeRange] = []
                for (text, position) in items {
                    guard let range = TimeRange(parsing: text) else {
                        collector.report("\(what): \"\(text)\" is not a time range (expected \"HH:MM-HH:MM\" in 24-hour local time, like \"09:00-17:30\"; \"22:00-06:00\" runs over midnight)", at: position)
                        continue
                    }
                    ranges.append(range)
                }
                matchers.append(.time(ranges))
            case "days":
                guard let items = collector.strings(value, what) else { continue }
                var days = Set<Weekday>()
                for (text, position) in items {
                    guard let named = Self.days(text) else {
                        let names = Weekday.allCases.map(\.rawValue)
                        let hint = DiagnosticCollector.nearest(to: text, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                        collector.report("\(what): \"\(text)\" is not a day (expected \(names.joined(separator: ", ")), or a range like \"mon-fri\")\(hint)", at: position)
                        continue
                    }
                    days.formUnion(named)
                }
                matchers.append(.days(days))
            case "modifiers":
                guard let items = collector.strings(value, what) else { continue }
                var keys = Set<Modifier>()
                for (text, position) in items {
                    let lowered = text.lowercased()
                    guard let key = Modifier(rawValue: Self.modifierAliases[lowered] ?? lowered) else {
                        let names = Modifier.allCases.map(\.rawValue)
                        let hint = DiagnosticCollector.nearest(to: lowered, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                        collector.report("\(what): unknown key \"\(text)\" (expected \(names.joined(separator: ", ")))\(hint)", at: position)
                        continue
                    }
                    keys.insert(key)
                }
                matchers.append(.modifiers(keys))
            case "any":
                guard depth < Self.maximumMatchDepth else {
                    collector.report("\(what): any and not are nested more than \(Self.maximumMatchDepth) deep", at: value.position)
                    continue
                }
                guard case .array(let items) = value.value, !items.isEmpty else {
                    collector.report("\(what): expected a list of match tables, like [{ network = \"Office\" }, { time = \"09:00-17:00\" }], found \(value.typeDescription)", at: value.position)
                    continue
                }
                matchers.append(.any(items.enumerated().map { offset, item in readMatchers(item, path: "\(what)[\(offset + 1)]", depth: depth + 1) }))
            case "not":
                guard depth < Self.maximumMatchDepth else {
                    collector.report("\(what): any and not are nested more than \(Self.maximumMatchDepth) deep", at: value.position)
                    continue
                }
                matchers.append(.not(readMatchers(value, path: what, depth: depth + 1)))
            case "regex":
                guard let items = collector.strings(value, what) else { continue }
                var regexes: [PatternRegex] = []
                for (pattern, position) in items {
                    do { regexes.append(try PatternRegex(pattern)) } catch {
                        collector.report("\(what): invalid regex: \(error.message) at offset \(error.offset)", at: position)
                    }
                }
                matchers.append(.regex(regexes))
            case "query":
                guard let pairs = collector.table(value, what) else { continue }
                var compiled: [(name: String, value: Glob)] = []
                for (name, globNode) in pairs {
                    guard let pattern = collector.string(globNode, "\(what).\(name)") else { continue }
                    do { compiled.append((name, try Glob(pattern))) } catch {
                        collector.report("\(what).\(name): \(error.message)", at: globNode.position)
                    }
                }
                matchers.append(.query(compiled))
            default:
                continue
            }
        }
        return matchers
    }

    /// `xdotool`'s and X11's names for the modifiers, as `match.modifiers` also accepts them.
    static let modifierAliases = ["control": "ctrl", "meta": "alt", "mod1": "alt", "mod4": "super", "win": "super", "logo": "super"]

    /// `mon`, `monday`, or a range `mon-fri` (wrapping: `fri-mon`).
    static func days(_ text: String) -> Set<Weekday>? {
        func day(_ word: Substring) -> Weekday? {
            let lowered = word.lowercased()
            return Weekday.allCases.first { lowered == $0.rawValue || (lowered.count > 3 && Self.dayNames[$0] == lowered) }
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 1 { return day(parts[0]).map { [$0] } }
        guard parts.count == 2, let first = day(parts[0]), let last = day(parts[1]),
              let start = Weekday.allCases.firstIndex(of: first), let end = Weekday.allCases.firstIndex(of: last) else { return nil }
        var days = Set<Weekday>()
        var index = start
        while true {
            days.insert(Weekday.allCases[index])
            if index == end { break }
            index = (index + 1) % 7
        }
        return days
    }

    private static let dayNames: [Weekday: String] = [.mon: "monday", .tue: "tuesday", .wed: "wednesday", .thu: "thursday",
                                                       .fri: "friday", .sat: "saturday", .sun: "sunday"]

    /// The globs of `node`; `forms` gives the patterns each is compiled as (the path and URL
    /// forms of `GlobText`), and what of it no URL can hold, which `openurl check` warns about.
    private mutating func globs(_ node: TOMLNode, _ what: String, separator: Character?, caseInsensitive: Bool,
                                forms: (String) -> GlobText.Forms = { GlobText.Forms(patterns: [$0]) }) -> [Glob]? {
        guard let items = collector.strings(node, what) else { return nil }
        var globs: [Glob] = []
        for (pattern, position) in items {
            let compiled = forms(pattern)
            if let warning = compiled.warning { warn("\(what) \"\(pattern)\": \(warning)", at: position) }
            do {
                for form in compiled.patterns { globs.append(try Glob(form, separator: separator, caseInsensitive: caseInsensitive)) }
            } catch {
                collector.report("\(what): \(error.message)", at: position)
            }
        }
        return globs
    }

    /// Records a problem that does not stop the config from loading (`openurl check` prints it).
    mutating func warn(_ message: String, at position: SourcePosition) {
        config.warnings.append(ConfigDiagnostic(path: collector.path, position: position, message: message))
    }
}

extension String {
    /// The index just past the first occurrence of `needle`, if any.
    func endOfFirst(_ needle: String) -> String.Index? {
        // Bytes, not Characters: every rule's target is searched at each config load
        // (`utf8.firstRange(of:)` took ~27,000 instructions a call, the Character loop ~11,000).
        let bytes = utf8, pattern = Array(needle.utf8)
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var start = bytes.startIndex
        while let found = bytes[start...].firstIndex(of: first) {
            var end = found, matched = 0
            while matched < pattern.count, end < bytes.endIndex, bytes[end] == pattern[matched] {
                matched += 1
                end = bytes.index(after: end)
            }
            if matched == pattern.count { return end }
            start = bytes.index(after: found)
        }
        return nil
    }
}

extension Target {
    /// Resolves a target name as written in a config: `system`, an `[apps.NAME]`, a webmail
    /// name, a built-in mail program (`thunderbird`), a desktop id with an optional `:ACTION`, or a browser of `config.catalog` with an
    /// optional `:PROFILE`. Nil when it is none of these.
    public init?(_ name: String, in config: Config) {
        if name == "system" { self = .system; return }
        if config.apps[name] != nil { self = .app(name); return }
        if config.webmail[name] != nil || Webmail.builtIn[name] != nil { self = .webmail(name); return }
        if Mailer.named(name) != nil { self = .mailer(name); return }
        guard let end = name.endOfFirst(".desktop") else {
            // `firefox:Work`: the browser is everything before the first colon (profile names may hold colons).
            let colon = name.firstIndex(of: ":")
            let browser = String(name[..<(colon ?? name.endIndex)])
            let profile = colon.map { String(name[name.index(after: $0)...]) }
            guard !browser.isEmpty, profile?.isEmpty != true,
                  case .success(let target) = config.catalog.resolve(browser: browser, profile: profile) else { return nil }
            self = .browser(target)
            return
        }
        let id = String(name[..<end])
        let rest = name[end...]
        if rest.isEmpty { self = .desktopEntry(id: id, action: nil); return }
        guard rest.hasPrefix(":"), rest.count > 1 else { return nil }
        self = .desktopEntry(id: id, action: String(rest.dropFirst()))
    }
}
