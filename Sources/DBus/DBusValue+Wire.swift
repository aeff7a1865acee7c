import CDBus

// Marshalling between `DBusValue` and libdbus's `DBusMessageIter`.
//
// libdbus aborts the process on invalid UTF-8, bad object paths or bad
// signatures ("check failed"), so every value is validated in full before the
// first byte is appended: a bad value becomes a thrown `DBusError`, never a crash.

/// Containers nested deeper than this are refused (libdbus allows 32 arrays + 32 structs).
private let maximumNesting = 64

extension DBusValue {
    /// Throws `InvalidArgs` if libdbus would refuse (or abort on) this value.
    public func validate() throws {
        try validate(depth: 0)
    }

    private func validate(depth: Int) throws {
        guard depth <= maximumNesting else {
            throw DBusError.invalidArgs("value nested deeper than \(maximumNesting) containers")
        }
        switch self {
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .string(let s):
            try Self.validateString(s)
        case .objectPath(let path):
            guard !path.utf8.contains(0), Self.isValidObjectPath(path) else {
                throw DBusError.invalidArgs("invalid object path \(String(reflecting: path))")
            }
        case .signature(let sig):
            guard Self.isValidSignature(sig, single: false) else {
                throw DBusError.invalidArgs("invalid signature \(String(reflecting: sig))")
            }
        case .variant(let inner):
            try inner.validate(depth: depth + 1)
        case .array(let element, let items):
            guard Self.isValidSignature(element, single: true) else {
                throw DBusError.invalidArgs("invalid array element signature \(String(reflecting: element))")
            }
            for item in items {
                guard item.signature == element else {
                    throw DBusError.invalidArgs("array of \(element) holds an element of type \(item.signature)")
                }
                try item.validate(depth: depth + 1)
            }
        case .dictionary(let key, let value, let entries):
            guard key.utf8.count == 1, let code = key.utf8.first, dbus_type_is_basic(Int32(code)) != 0 else {
                throw DBusError.invalidArgs("dictionary key type \(String(reflecting: key)) is not a basic type")
            }
            guard Self.isValidSignature(value, single: true) else {
                throw DBusError.invalidArgs("invalid dictionary value signature \(String(reflecting: value))")
            }
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == value else {
                    throw DBusError.invalidArgs(
                        "a{\(key)\(value)} holds an entry of type {\(entry.key.signature)\(entry.value.signature)}")
                }
                try entry.key.validate(depth: depth + 1)
                try entry.value.validate(depth: depth + 1)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError.invalidArgs("a struct needs at least one field") }
            for field in fields { try field.validate(depth: depth + 1) }
        }
    }

    /// A Swift `String` is valid UTF-8 by construction, and D-Bus takes every scalar value but
    /// NUL (the specification allows noncharacters since 0.21; libdbus checks the same again when
    /// the value is appended): only NUL is looked for. Asking `dbus_validate_utf8` too was ~12k
    /// instructions of every reply and signal.
    static func validateString(_ s: String) throws {
        var s = s
        guard !s.withUTF8({ $0.contains(0) }) else {
            throw DBusError.invalidArgs("string contains a NUL character")
        }
    }

    /// A `.string` from raw bytes, throwing `InvalidArgs` for invalid UTF-8 or NUL.
    public static func string(utf8Bytes bytes: [UInt8]) throws -> DBusValue {
        guard !bytes.contains(0) else { throw DBusError.invalidArgs("string contains a NUL character") }
        let valid = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_validate_utf8($0.baseAddress, nil) != 0 }
        }
        guard valid else { throw DBusError.invalidArgs("string is not valid UTF-8") }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    static func isValidObjectPath(_ path: String) -> Bool {
        !path.utf8.contains(0) && path.withCString { dbus_validate_path($0, nil) != 0 }
    }

    static func isValidSignature(_ sig: String, single: Bool) -> Bool {
        guard !sig.utf8.contains(0) else { return false }
        return sig.withCString {
            single ? dbus_signature_validate_single($0, nil) != 0 : dbus_signature_validate($0, nil) != 0
        }
    }
}

// MARK: - Appending

extension DBusValue {
    /// Appends an already validated value; returns false only when libdbus is out of memory.
    func append(to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        switch self {
        case .byte(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_BYTE, &v) != 0
        case .bool(let b):
            var v: dbus_bool_t = b ? 1 : 0
            return dbus_message_iter_append_basic(iter, CDBUS_TYPE_BOOLEAN, &v) != 0
        case .int16(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_INT16, &v) != 0
        case .uint16(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_UINT16, &v) != 0
        case .int32(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_INT32, &v) != 0
        case .uint32(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_UINT32, &v) != 0
        case .int64(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_INT64, &v) != 0
        case .uint64(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_UINT64, &v) != 0
        case .double(var v): return dbus_message_iter_append_basic(iter, CDBUS_TYPE_DOUBLE, &v) != 0
        case .string(let s): return Self.appendText(s, type: CDBUS_TYPE_STRING, to: iter)
        case .objectPath(let s): return Self.appendText(s, type: CDBUS_TYPE_OBJECT_PATH, to: iter)
        case .signature(let s): return Self.appendText(s, type: CDBUS_TYPE_SIGNATURE, to: iter)
        case .variant(let inner):
            return Self.appendContainer(CDBUS_TYPE_VARIANT, signature: inner.signature, to: iter) { sub in
                inner.append(to: sub)
            }
        case .array(let element, let items):
            return Self.appendContainer(CDBUS_TYPE_ARRAY, signature: element, to: iter) { sub in
                items.allSatisfy { $0.append(to: sub) }
            }
        case .dictionary(let key, let value, let entries):
            return Self.appendContainer(CDBUS_TYPE_ARRAY, signature: "{" + key + value + "}", to: iter) { sub in
                entries.allSatisfy { entry in
                    Self.appendContainer(CDBUS_TYPE_DICT_ENTRY, signature: nil, to: sub) { pair in
                        entry.key.append(to: pair) && entry.value.append(to: pair)
                    }
                }
            }
        case .structure(let fields):
            return Self.appendContainer(CDBUS_TYPE_STRUCT, signature: nil, to: iter) { sub in
                fields.allSatisfy { $0.append(to: sub) }
            }
        }
    }

    private static func appendText(_ s: String, type: Int32, to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        s.withCString { cString in
            // libdbus takes the address of a `const char *`, not the characters.
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(iter, type, &pointer) != 0
        }
    }

    private static func appendContainer(
        _ type: Int32, signature: String?, to iter: UnsafeMutablePointer<DBusMessageIter>,
        body: (UnsafeMutablePointer<DBusMessageIter>) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(iter, type, $0, &sub) != 0 }
        } else {
            opened = dbus_message_iter_open_container(iter, type, nil, &sub) != 0
        }
        guard opened else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(iter, &sub) != 0
    }
}

// MARK: - Reading

extension DBusValue {
    /// Reads the value at the iterator's current position.
    static func read(from iter: UnsafeMutablePointer<DBusMessageIter>) throws -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iter)
        switch type {
        case CDBUS_TYPE_BYTE: var v: UInt8 = 0; dbus_message_iter_get_basic(iter, &v); return .byte(v)
        case CDBUS_TYPE_BOOLEAN: var v: dbus_bool_t = 0; dbus_message_iter_get_basic(iter, &v); return .bool(v != 0)
        case CDBUS_TYPE_INT16: var v: Int16 = 0; dbus_message_iter_get_basic(iter, &v); return .int16(v)
        case CDBUS_TYPE_UINT16: var v: UInt16 = 0; dbus_message_iter_get_basic(iter, &v); return .uint16(v)
        case CDBUS_TYPE_INT32: var v: Int32 = 0; dbus_message_iter_get_basic(iter, &v); return .int32(v)
        case CDBUS_TYPE_UINT32: var v: UInt32 = 0; dbus_message_iter_get_basic(iter, &v); return .uint32(v)
        case CDBUS_TYPE_INT64: var v: Int64 = 0; dbus_message_iter_get_basic(iter, &v); return .int64(v)
        case CDBUS_TYPE_UINT64: var v: UInt64 = 0; dbus_message_iter_get_basic(iter, &v); return .uint64(v)
        case CDBUS_TYPE_DOUBLE: var v: Double = 0; dbus_message_iter_get_basic(iter, &v); return .double(v)
        case CDBUS_TYPE_STRING: return .string(readText(iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(readText(iter))
        case CDBUS_TYPE_SIGNATURE: return .signature(readText(iter))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            return .variant(try read(from: &sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            return .structure(try readAll(from: &sub))
        case CDBUS_TYPE_ARRAY:
            return try readArray(iter)
        default:
            let code = UnicodeScalar(UInt8(truncatingIfNeeded: type))
            throw DBusError.invalidArgs("unsupported D-Bus type '\(Character(code))'")
        }
    }

    /// Reads every remaining value from the iterator's position on.
    static func readAll(from iter: UnsafeMutablePointer<DBusMessageIter>) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iter) != CDBUS_TYPE_INVALID {
            values.append(try read(from: iter))
            _ = dbus_message_iter_next(iter)
        }
        return values
    }

    private static func readText(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func readArray(_ iter: UnsafeMutablePointer<DBusMessageIter>) throws -> DBusValue {
        guard let raw = dbus_message_iter_get_signature(iter) else { throw DBusError.noMemory }
        let arraySignature = String(cString: raw)
        dbus_free(raw)
        let element = String(arraySignature.dropFirst())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(iter, &sub)
        guard dbus_message_iter_get_element_type(iter) == CDBUS_TYPE_DICT_ENTRY else {
            return .array(elementSignature: element, try readAll(from: &sub))
        }
        // element is "{KV…}": one basic key character, then the value type.
        let inner = element.dropFirst().dropLast()
        let key = String(inner.prefix(1))
        let value = String(inner.dropFirst())
        var entries: [DBusDictEntry] = []
        while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
            var pair = DBusMessageIter()
            dbus_message_iter_recurse(&sub, &pair)
            let k = try read(from: &pair)
            _ = dbus_message_iter_next(&pair)
            let v = try read(from: &pair)
            entries.append(DBusDictEntry(key: k, value: v))
            _ = dbus_message_iter_next(&sub)
        }
        return .dictionary(keySignature: key, valueSignature: value, entries)
    }
}
