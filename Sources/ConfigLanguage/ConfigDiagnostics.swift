import Catalog
import TOML


/// One problem in a config file, with where it is.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The file, as given to the loader.
    public var path: String
    /// The line and column of the key or value at fault.
    public var position: SourcePosition
    /// What is wrong and what was expected.
    public var message: String

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(path):\(position.line):\(position.column): \(message)" }
}

/// Every problem found in a config file; a config with any problem is not used at all.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// The problems in file order.
    public var diagnostics: [ConfigDiagnostic]
    /// One `FILE:LINE:COLUMN: message` line per problem.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics while reading typed values out of TOML nodes.
struct DiagnosticCollector {
    let path: String
    private(set) var diagnostics: [ConfigDiagnostic] = []

    init(path: String) { self.path = path }

    mutating func report(_ message: String, at position: SourcePosition) {
        diagnostics.append(ConfigDiagnostic(path: path, position: position, message: message))
    }

    /// Reports keys of `table` outside `known`, suggesting the nearest known key.
    mutating func checkKeys(_ table: [(key: String, node: TOMLNode)], known: [String], in context: String) {
        for (key, node) in table where !known.contains(key) {
            var message = "unknown key \"\(key)\" in \(context)"
            if let suggestion = Self.nearest(to: key, among: known) { message += "; did you mean \"\(suggestion)\"?" }
            else { message += " (known keys: \(known.joined(separator: ", ")))" }
            report(message, at: node.keyPosition)
        }
    }

    mutating func table(_ node: TOMLNode, _ what: String) -> [(key: String, node: TOMLNode)]? {
        if let members = node.members { return members }
        report("\(what): expected a table, found \(node.typeDescription)", at: node.position)
        return nil
    }

    mutating func string(_ node: TOMLNode, _ what: String) -> String? {
        if case .string(let value) = node.value { return value }
        report("\(what): expected a string, found \(node.typeDescription)", at: node.position)
        return nil
    }

    mutating func bool(_ node: TOMLNode, _ what: String) -> Bool? {
        if case .boolean(let value) = node.value { return value }
        report("\(what): expected true or false, found \(node.typeDescription)", at: node.position)
        return nil
    }

    mutating func integer(_ node: TOMLNode, _ what: String, range: ClosedRange<Int64>) -> Int? {
        guard case .integer(let value) = node.value else {
            report("\(what): expected an integer, found \(node.typeDescription)", at: node.position)
            return nil
        }
        guard range.contains(value) else {
            report("\(what): expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value)", at: node.position)
            return nil
        }
        return Int(value)
    }

    /// A string or a list of strings, each with its position.
    mutating func strings(_ node: TOMLNode, _ what: String) -> [(String, SourcePosition)]? {
        switch node.value {
        case .string(let value):
            return [(value, node.position)]
        case .array(let items):
            var out: [(String, SourcePosition)] = []
            for item in items {
                guard case .string(let value) = item.value else {
                    report("\(what): expected a string or a list of strings, found a list containing \(item.typeDescription)", at: item.position)
                    return nil
                }
                out.append((value, item.position))
            }
            if out.isEmpty { report("\(what): the list is empty", at: node.position); return nil }
            return out
        default:
            report("\(what): expected a string or a list of strings, found \(node.typeDescription)", at: node.position)
            return nil
        }
    }

    /// The known word closest to `word` by edit distance, if close enough to be a typo.
    static func nearest(to word: String, among known: [String]) -> String? { NearestName.nearest(to: word, among: known) }
}
