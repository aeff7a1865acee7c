/// An object exported on a connection: a path plus the interfaces it implements.
///
/// The same tables dispatch incoming calls, answer `Properties` and generate the
/// `Introspect` XML, so what a client sees in introspection is exactly what is callable.
public final class DBusObject: @unchecked Sendable {
    /// The object path, e.g. `/io/github/openurld`.
    public let path: String
    /// The interfaces, in introspection order (the standard ones are added automatically).
    public let interfaces: [DBusInterface]

    /// Creates an object; export it with `DBusConnection.export(_:)`.
    public init(path: String, interfaces: [DBusInterface]) {
        self.path = path
        self.interfaces = interfaces
    }

    /// The interface with `name`, if the object implements it.
    public func interface(named name: String) -> DBusInterface? {
        interfaces.first { $0.name == name }
    }
}

/// One interface of an exported object: its methods, properties and signals.
public struct DBusInterface {
    /// The interface name, e.g. `io.github.openurld.Router1`.
    public var name: String
    /// Callable methods.
    public var methods: [DBusMethod]
    /// Properties served through `org.freedesktop.DBus.Properties`.
    public var properties: [DBusProperty]
    /// Signals the interface may emit (for introspection and `DBusObject.emit`).
    public var signals: [DBusSignalDeclaration]

    /// Creates an interface description.
    public init(
        name: String, methods: [DBusMethod] = [], properties: [DBusProperty] = [],
        signals: [DBusSignalDeclaration] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// A named, typed argument of a method or signal.
public struct DBusArgument: Sendable, Equatable {
    /// The argument name shown in introspection.
    public var name: String
    /// One complete D-Bus type, e.g. `a{sv}`.
    public var signature: String

    /// Creates an argument.
    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// A method: its argument lists and the handler that runs for each call.
public struct DBusMethod {
    /// Runs for a call whose signature already matched `inputs`; returns values matching `outputs`.
    public typealias Handler = ([DBusValue], DBusMessageContext) throws -> [DBusValue]

    /// The method name.
    public var name: String
    /// Input arguments; a call with a different signature gets `InvalidArgs`.
    public var inputs: [DBusArgument]
    /// Output arguments; the handler's return must match them.
    public var outputs: [DBusArgument]
    /// The implementation.
    public var handler: Handler

    /// Creates a method.
    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [], handler: @escaping Handler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
    }

    /// The concatenated input signature, e.g. `sa{sv}`.
    public var inputSignature: String { inputs.map(\.signature).joined() }
    /// The concatenated output signature.
    public var outputSignature: String { outputs.map(\.signature).joined() }
}

/// Whether a property can be read, written or both.
public enum DBusPropertyAccess: String, Sendable {
    /// Get only.
    case read
    /// Set only.
    case write
    /// Get and Set.
    case readwrite
}

/// A property with a getter and, when writable, a setter.
public struct DBusProperty {
    /// The property name.
    public var name: String
    /// Its one complete D-Bus type.
    public var signature: String
    /// Read, write or both (derived from which closures are given).
    public var access: DBusPropertyAccess
    /// Whether a successful `Set` emits `PropertiesChanged` with the new value.
    public var emitsChanged: Bool
    /// Produces the current value.
    public var get: () throws -> DBusValue
    /// Stores a new value whose type already matched `signature`; nil for read-only.
    public var set: ((DBusValue) throws -> Void)?

    /// Creates a property; passing `set` makes it writable.
    public init(
        _ name: String, signature: String, emitsChanged: Bool = true,
        get: @escaping () throws -> DBusValue, set: ((DBusValue) throws -> Void)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.access = set == nil ? .read : .readwrite
        self.emitsChanged = emitsChanged
        self.get = get
        self.set = set
    }
}

/// A signal an interface declares.
public struct DBusSignalDeclaration: Sendable, Equatable {
    /// The signal name.
    public var name: String
    /// Its arguments.
    public var arguments: [DBusArgument]

    /// Creates a declaration.
    public init(_ name: String, arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

extension DBusObject {
    /// Emits a declared signal, refusing names or argument types the interface does not declare.
    public func emit(
        _ signal: String, interface: String, arguments: [DBusValue], on connection: DBusConnection
    ) throws {
        guard let declaration = self.interface(named: interface)?.signals.first(where: { $0.name == signal }) else {
            throw DBusError.invalidArgs("\(interface) declares no signal \(signal) on \(path)")
        }
        let expected = declaration.arguments.map(\.signature).joined()
        let actual = DBusValue.signature(of: arguments)
        guard expected == actual else {
            throw DBusError.invalidArgs("signal \(signal) expects (\(expected)), got (\(actual))")
        }
        try connection.emitSignal(path: path, interface: interface, name: signal, arguments: arguments)
    }
}
