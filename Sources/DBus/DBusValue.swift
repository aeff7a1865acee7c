/// A typed D-Bus value, marshalled through `DBusMessageIter`.
///
/// Containers carry their element signatures so that empty arrays and
/// dictionaries still have a type on the wire.
public indirect enum DBusValue: Equatable, Sendable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s` — must not contain NUL (checked when sent).
    case string(String)
    /// `o` — must be a valid object path (checked when sent).
    case objectPath(String)
    /// `g` — must be a valid signature (checked when sent).
    case signature(String)
    /// `v` — a value carrying its own type.
    case variant(DBusValue)
    /// `a…` — every element must have `elementSignature`.
    case array(elementSignature: String, [DBusValue])
    /// `a{…}` — keys must be basic types; entry order is kept.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    /// `(…)` — a struct of at least one field.
    case structure([DBusValue])

    /// Roughly the bytes this value holds in memory: its strings' UTF-8 and 8 a number.
    public var payloadSize: Int {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): return text.utf8.count
        case .variant(let value): return value.payloadSize
        case .array(_, let items): return items.reduce(8) { $0 + $1.payloadSize }
        case .dictionary(_, _, let entries): return entries.reduce(8) { $0 + $1.key.payloadSize + $1.value.payloadSize }
        case .structure(let fields): return fields.reduce(0) { $0 + $1.payloadSize }
        default: return 8
        }
    }

    /// The D-Bus signature of this value, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .variant: return "v"
        case .array(let element, _): return "a" + element
        case .dictionary(let key, let value, _): return "a{" + key + value + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The concatenated signature of a list of values, as in a message body.
    public static func signature(of values: [DBusValue]) -> String {
        values.map(\.signature).joined()
    }
}

/// One key/value entry of a D-Bus dictionary.
public struct DBusDictEntry: Equatable, Sendable {
    /// The key (a basic type).
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Building common shapes

extension DBusValue {
    /// `as` from Swift strings.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `a{sv}` from a Swift dictionary; keys are sorted so output is stable.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v", entries.keys.sorted().map { key in
            let value = entries[key] ?? .string("")
            return DBusDictEntry(key: .string(key), value: value.asVariant)
        })
    }

    /// `a{sv}` from ordered pairs (order kept as given).
    public static func vardict(pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v", pairs.map {
            DBusDictEntry(key: .string($0.0), value: $0.1.asVariant)
        })
    }

    /// `aa{sv}` from a list of Swift dictionaries.
    public static func vardictArray(_ list: [[String: DBusValue]]) -> DBusValue {
        .array(elementSignature: "a{sv}", list.map { vardict($0) })
    }

    /// Wraps the value in a variant unless it already is one.
    public var asVariant: DBusValue {
        if case .variant = self { return self }
        return .variant(self)
    }
}

// MARK: - Reading values

extension DBusValue {
    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of an `s`, `o` or `g` value (looking through variants).
    public var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    /// The value of a `b` (looking through variants).
    public var bool: Bool? {
        if case .bool(let b) = unwrapped { return b }
        return nil
    }

    /// Any integer type converted to `Int64` when it fits (looking through variants).
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let v): return Int64(v)
        case .int16(let v): return Int64(v)
        case .uint16(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        default: return nil
        }
    }

    /// The value of a `u`, or any non-negative integer that fits (looking through variants).
    public var uint32: UInt32? { integer.flatMap { UInt32(exactly: $0) } }

    /// The value of an `i`, or any integer that fits (looking through variants).
    public var int32: Int32? { integer.flatMap { Int32(exactly: $0) } }

    /// The value of a `d` (looking through variants).
    public var double: Double? {
        if case .double(let d) = unwrapped { return d }
        return nil
    }

    /// The elements of an array (looking through variants).
    public var array: [DBusValue]? {
        if case .array(_, let elements) = unwrapped { return elements }
        return nil
    }

    /// An `as` as Swift strings (looking through variants).
    public var stringArray: [String]? {
        guard let elements = array else { return nil }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let s = element.string else { return nil }
            result.append(s)
        }
        return result
    }

    /// A dictionary with string keys (e.g. `a{sv}`), variants unwrapped; later duplicate keys win.
    public var dictionary: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            result[key] = entry.value.unwrapped
        }
        return result
    }

    /// The entries of any dictionary, in wire order (looking through variants).
    public var dictionaryEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// The fields of a struct (looking through variants).
    public var fields: [DBusValue]? {
        if case .structure(let fields) = unwrapped { return fields }
        return nil
    }
}
