/// `org.freedesktop.DBus.Properties` served from each interface's property table.
enum PropertiesInterface {
    static func handle(_ member: String, context: DBusMessageContext, object: DBusObject) throws -> [DBusValue] {
        let expected: String
        switch member {
        case "Get": expected = "ss"
        case "GetAll": expected = "s"
        case "Set": expected = "ssv"
        default:
            throw DBusError(
                name: DBusError.Name.unknownMethod,
                message: "No such method '\(member)' in interface '\(StandardInterface.properties)'")
        }
        guard context.signature == expected else {
            throw DBusError.invalidArgs("\(member) expects (\(expected)), got (\(context.signature))")
        }
        let arguments = try context.message.arguments()
        let interfaceName = arguments.first?.string ?? ""
        guard let interface = object.interface(named: interfaceName) else {
            throw DBusError(
                name: DBusError.Name.unknownInterface,
                message: "No such interface '\(interfaceName)' on object at path \(object.path)")
        }
        switch member {
        case "GetAll":
            var entries: [DBusDictEntry] = []
            for property in interface.properties where property.access != .write {
                entries.append(DBusDictEntry(key: .string(property.name), value: .variant(try value(of: property))))
            }
            return [.dictionary(keySignature: "s", valueSignature: "v", entries)]
        case "Get":
            let property = try lookup(arguments, in: interface)
            guard property.access != .write else {
                throw DBusError(name: DBusError.Name.accessDenied, message: "Property '\(property.name)' is not readable")
            }
            return [.variant(try value(of: property))]
        default:
            let property = try lookup(arguments, in: interface)
            guard let setter = property.set else {
                throw DBusError(
                    name: DBusError.Name.propertyReadOnly, message: "Property '\(property.name)' is not writable")
            }
            let newValue = arguments.count > 2 ? arguments[2].unwrapped : .string("")
            guard newValue.signature == property.signature else {
                throw DBusError.invalidArgs(
                    "Property '\(property.name)' has type '\(property.signature)', got '\(newValue.signature)'")
            }
            try setter(newValue)
            if property.emitsChanged, property.access != .write {
                try? context.connection.emitPropertiesChanged(
                    path: object.path, interface: interface.name, changed: [property.name: try value(of: property)])
            }
            return []
        }
    }

    private static func lookup(_ arguments: [DBusValue], in interface: DBusInterface) throws -> DBusProperty {
        let name = arguments.count > 1 ? arguments[1].string ?? "" : ""
        guard let property = interface.properties.first(where: { $0.name == name }) else {
            throw DBusError(
                name: DBusError.Name.unknownProperty, message: "No such property '\(name)' in '\(interface.name)'")
        }
        return property
    }

    private static func value(of property: DBusProperty) throws -> DBusValue {
        let value = try property.get()
        guard value.signature == property.signature else {
            throw DBusError.failed(
                "internal error: property '\(property.name)' is '\(value.signature)', declared '\(property.signature)'")
        }
        return value
    }
}

extension DBusConnection {
    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface` at `path`.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [String: DBusValue], invalidated: [String] = []
    ) throws {
        try emitSignal(
            path: path, interface: StandardInterface.properties, name: "PropertiesChanged",
            arguments: [.string(interface), .vardict(changed), .stringArray(invalidated)])
    }
}
