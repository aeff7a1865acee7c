import DBus

/// Why a value read off the wire (a Router1 reply, property or signal, a chooser line, a
/// pending-asks line) is not the one the contract describes: which value, which key, and what
/// was wrong, so a caller reports it rather than guessing a default.
public struct ContractError: Error, Equatable, CustomStringConvertible {
    /// What was being read (`DescribeRules entry`, `Routed`).
    public var value: String
    /// The key (or argument) at fault, nil when the whole value is.
    public var key: String?
    /// What was wrong: `missing`, `must be a string (s)`, `must be a{sv}`.
    public var problem: String

    /// An error about `key` of `value`.
    public init(_ value: String, key: String? = nil, _ problem: String) {
        self.value = value
        self.key = key
        self.problem = problem
    }

    /// `DescribeRules entry: name: missing`.
    public var description: String { "\(value): " + (key.map { "\($0): " } ?? "") + problem }
}

/// An `a{sv}` read key by key, each read saying exactly which key was missing or mistyped.
struct VardictReader {
    let what: String
    let entries: [String: DBusValue]

    init(_ value: DBusValue, _ what: String) throws(ContractError) {
        guard let entries = value.dictionary else {
            throw ContractError(what, "must be a{sv}")
        }
        self.what = what
        self.entries = entries
    }

    private func required(_ key: String) throws(ContractError) -> DBusValue {
        guard let item = entries[key] else { throw ContractError(what, key: key, "missing") }
        return item
    }

    func string(_ key: String) throws(ContractError) -> String {
        guard case .string(let text) = try required(key) else { throw ContractError(what, key: key, "must be a string (s)") }
        return text
    }

    func optionalString(_ key: String) throws(ContractError) -> String? {
        guard entries[key] != nil else { return nil }
        return try string(key)
    }

    func bool(_ key: String) throws(ContractError) -> Bool {
        guard case .bool(let flag) = try required(key) else { throw ContractError(what, key: key, "must be a boolean (b)") }
        return flag
    }

    func uint32(_ key: String) throws(ContractError) -> UInt32 {
        guard case .uint32(let number) = try required(key) else { throw ContractError(what, key: key, "must be a uint32 (u)") }
        return number
    }

    func int32(_ key: String) throws(ContractError) -> Int32 {
        guard case .int32(let number) = try required(key) else { throw ContractError(what, key: key, "must be an int32 (i)") }
        return number
    }

    func double(_ key: String) throws(ContractError) -> Double {
        guard case .double(let number) = try required(key) else { throw ContractError(what, key: key, "must be a double (d)") }
        return number
    }
}

/// The elements of an `aa{sv}` (or any array) reply, each decoded by `decode`.
func decodeArray<Element>(_ value: DBusValue?, _ what: String, _ decode: (DBusValue) throws(ContractError) -> Element) throws(ContractError) -> [Element] {
    guard let items = value?.array else { throw ContractError(what, "must be an array") }
    var decoded: [Element] = []
    for item in items { decoded.append(try decode(item)) }
    return decoded
}
