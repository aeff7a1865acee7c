import JSON
import RoutingCore
import LinkSafety

extension Decision {
    /// The object `openurl test --json` prints and `Router1.Explain` mirrors: exactly the keys
    /// `url`, `final_url`, `decision`, `target`, `rule`, `copy_text`, `choices`, `safety`, `trace`.
    public var json: JSONValue {
        let ruleValue: JSONValue
        switch rule {
        case .named(let name)?: ruleValue = .string(name)
        case .index(let index)?: ruleValue = .number(index)
        case nil: ruleValue = .null
        }
        typealias Key = Router1.Result
        return .object([
            (Key.url, .string(url)),
            (Key.finalURL, .string(finalURL)),
            (Key.decision, .string(kind.rawValue)),
            (Key.target, target.map { .string($0.description) } ?? .null),
            (Key.rule, ruleValue),
            (Key.copyText, copyText.map { .string($0) } ?? .null),
            (Key.choices, kind == .ask ? .array(choices.map { .string($0.key) }) : .null),
            (Key.safety, safety.json),
            (Key.trace, .array(trace.map(\.json))),
        ])
    }
}

extension RuleSource {
    /// `{"layer": "system", "file": "…", "line": 12, "locked": true, "recommended": false}`.
    public var json: JSONValue {
        .object([("layer", .string(layer.rawValue)), ("file", .string(file)), ("line", .number(line)),
                 ("locked", .bool(locked)), ("recommended", .bool(recommended))])
    }
}

extension TraceStep {
    /// The step as a JSON object with a `step` kind and `text`, plus its details.
    public var json: JSONValue {
        var members: [(String, JSONValue)]
        switch self {
        case .changed(let step, let url):
            members = [("step", .string("changed")), ("how", .string(step)), ("url", .string(url))]
        case .cleaned(let removed, let url):
            members = [("step", .string("changed")), ("how", .string(TraceStep.cleanedSummary(removed))), ("url", .string(url))]
        case .rule(let reference, let held, let failed, let enabled, let source):
            let ruleValue: JSONValue
            switch reference {
            case .named(let name): ruleValue = .string(name)
            case .index(let index): ruleValue = .number(index)
            }
            members = [("step", .string("rule")), ("rule", ruleValue), ("enabled", .bool(enabled)),
                       ("matched", .bool(enabled && failed == nil)), ("held", .array(held.map { .string($0) })),
                       ("failed", failed.map { .string($0) } ?? .null)]
            if let source { members.append(("source", source.json)) }
        case .siteList(let file, let entry, let line, let outcome):
            members = [("step", .string("sitelist")), ("file", .string(file)), ("entry", entry.isEmpty ? .null : .string(entry)),
                       ("line", entry.isEmpty ? .null : .number(line)), ("outcome", .string(outcome))]
        case .note:
            members = [("step", .string("note"))]
        case .defaultAction:
            members = [("step", .string("default"))]
        case .webmail(let name, let url):
            members = [("step", .string("webmail")), ("webmail", .string(name)), ("url", .string(url))]
        case .refused(let reason):
            members = [("step", .string("refused")), ("reason", .string(reason))]
        case .appLink(let name, let url, let app):
            members = [("step", .string("app_link")), ("app_link", .string(name)), ("url", .string(url)), ("app", .string(app))]
        case .remembered(let rule, let location, let asked):
            let askedValue: JSONValue
            switch asked {
            case .named(let name)?: askedValue = .string(name)
            case .index(let index)?: askedValue = .number(index)
            case nil: askedValue = .null
            }
            members = [("step", .string("remembered")), ("rule", .string(rule)), ("location", .string(location)), ("asked", askedValue)]
        case .unavailable(let target, let reason):
            members = [("step", .string("unavailable")), ("target", .string(target)), ("reason", .string(reason))]
        case .moment:
            members = [("step", .string("moment"))]
        case .safety(let safety):
            members = [("step", .string("safety")), ("verdict", .string(safety.verdict.name)), ("policy", .string(safety.policy.rawValue)),
                       ("action", .string(safety.action.rawValue))]
        }
        members.append(("text", .string(text)))
        return .object(members)
    }
}
