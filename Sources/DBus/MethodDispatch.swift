import CDBus
import Platform

/// The interfaces every exported object answers besides its own.
enum StandardInterface {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let peer = "org.freedesktop.DBus.Peer"
}

extension DBusConnection {
    /// Serves `object` at its path. Throws if the path is taken or invalid.
    public func export(_ object: DBusObject) throws {
        try Names.checkPath(object.path)
        for interface in object.interfaces { try Names.checkInterface(interface.name) }
        try state.withLock {
            guard objects[object.path] == nil else {
                throw DBusError.failed("an object is already exported at \(object.path)")
            }
            objects[object.path] = object
        }
    }

    /// Stops serving the object at `path`.
    public func unexport(path: String) {
        _ = state.withLock { objects.removeValue(forKey: path) }
    }

    /// Handles a method call addressed to an exported object (or a parent path's `Introspect`).
    func handleMethodCall(_ message: Message) -> Bool {
        guard let path = message.path, let member = message.member else { return false }
        let (object, children) = state.withLock { (objects[path], childNodes(of: path)) }
        guard let object else {
            // Parent paths such as "/" introspect to their children so tools can walk the tree.
            guard !children.isEmpty, message.interface ?? StandardInterface.introspectable
                    == StandardInterface.introspectable, member == "Introspect"
            else { return false }
            reply(to: message, with: .success([.string(Introspection.xml(for: nil, children: children))]), expecting: "s")
            return true
        }
        let context = DBusMessageContext(connection: self, message: message)
        let (outcome, expected) = invoke(member: member, on: object, children: children, context: context)
        if !context.isDeferred {
            reply(to: message, with: outcome, expecting: expected)
        }
        return true
    }

    private func childNodes(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var names = Set<String>()
        for key in objects.keys where key.hasPrefix(prefix) && key != path {
            if let first = key.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    private func invoke(
        member: String, on object: DBusObject, children: [String], context: DBusMessageContext
    ) -> (Result<[DBusValue], Error>, expecting: String?) {
        let interfaceName = context.interface
        let signature = context.signature
        if interfaceName == StandardInterface.introspectable || (interfaceName == nil && member == "Introspect") {
            guard member == "Introspect" else { return (.failure(unknownMethod(member, context)), nil) }
            guard signature.isEmpty else { return (.failure(DBusError.invalidArgs("Introspect expects (), got (\(signature))")), nil) }
            return (.success([.string(Introspection.xml(for: object, children: children))]), "s")
        }
        if interfaceName == StandardInterface.properties {
            return (Result { try PropertiesInterface.handle(member, context: context, object: object) }, nil)
        }
        let candidates: [DBusInterface]
        if let interfaceName {
            guard let found = object.interface(named: interfaceName) else {
                return (.failure(DBusError(
                    name: DBusError.Name.unknownInterface,
                    message: "No such interface '\(interfaceName)' on object at path \(object.path)")), nil)
            }
            candidates = [found]
        } else {
            candidates = object.interfaces
        }
        guard let method = candidates.lazy.compactMap({ $0.methods.first { $0.name == member } }).first else {
            return (.failure(unknownMethod(member, context)), nil)
        }
        guard signature == method.inputSignature else {
            return (.failure(DBusError.invalidArgs(
                "\(method.name) expects (\(method.inputSignature)), got (\(signature))")), nil)
        }
        context.expectedOutputSignature = method.outputSignature
        return (Result {
            let arguments: [DBusValue]
            do { arguments = try context.message.arguments() } catch {
                throw DBusError.invalidArgs("\(method.name): cannot read arguments: \(error)")
            }
            if let observer = state.withLock({ callObserver }) { observer(.served(argumentBytes: arguments.reduce(0) { $0 + $1.payloadSize })) }
            return try method.handler(arguments, context)
        }, method.outputSignature)
    }

    private func unknownMethod(_ member: String, _ context: DBusMessageContext) -> DBusError {
        DBusError(
            name: DBusError.Name.unknownMethod,
            message: "No such method '\(member)' in interface '\(context.interface ?? "")' at object path "
                + "'\(context.path)' (signature '\(context.signature)')")
    }

    /// Sends the reply for `outcome`, checking the handler kept to its declared output signature.
    func reply(to call: Message, with outcome: Result<[DBusValue], Error>, expecting expected: String?) {
        if let observer = state.withLock({ callObserver }) { observer(.answered) }
        guard !call.noReplyExpected else { return }
        var reply: Message?
        switch outcome {
        case .success(let values):
            let actual = DBusValue.signature(of: values)
            if let expected, expected != actual {
                reply = call.errorReply(DBusError.failed(
                    "internal error: \(call.member ?? "") returned (\(actual)), declared (\(expected))"))
            } else {
                do {
                    for value in values { try value.validate() }
                    if let whole = WireMessage.methodReturn(to: call, values: values, signature: actual, serial: takeWireSerial()) {
                        reply = whole
                    } else {
                        let message = try call.methodReturn()
                        try message.append(values)
                        reply = message
                    }
                } catch {
                    reply = call.errorReply(Self.asDBusError(error))
                }
            }
        case .failure(let error):
            reply = call.errorReply(Self.asDBusError(error))
        }
        if let reply { try? send(reply) }
    }

    static func asDBusError(_ error: Error) -> DBusError {
        if let error = error as? DBusError { return error }
        return DBusError.failed(String(describing: error))
    }
}

/// What a method handler knows about the call it serves.
public final class DBusMessageContext: @unchecked Sendable {
    /// The connection the call arrived on (use it to emit signals or make calls).
    public let connection: DBusConnection
    /// Unique bus name of the caller, e.g. `:1.7`.
    public let sender: String
    /// The object path called.
    public let path: String
    /// The interface named by the caller (may be nil: D-Bus allows calls without one).
    public let interface: String?
    /// The method name.
    public let member: String
    /// The signature of the call's arguments.
    public let signature: String
    let message: Message
    var expectedOutputSignature: String?
    private(set) var isDeferred = false

    init(connection: DBusConnection, message: Message) {
        self.connection = connection
        self.message = message
        sender = message.sender ?? ""
        path = message.path ?? ""
        interface = message.interface
        member = message.member ?? ""
        signature = message.signature
    }

    /// The caller's process id, asked of the bus daemon (`GetConnectionUnixProcessID`).
    public func callerProcessID() throws -> UInt32 {
        try connection.processID(of: sender)
    }

    /// Takes over replying: the handler's return value is ignored and the caller waits
    /// until `DBusDeferredReply.send(_:)` or `.fail(_:)` is called (from any thread).
    public func deferReply() -> DBusDeferredReply {
        isDeferred = true
        return DBusDeferredReply(connection: connection, call: message, expecting: expectedOutputSignature)
    }
}

/// A reply to be sent later; if dropped unanswered it replies `Failed` so no caller waits forever.
public final class DBusDeferredReply: @unchecked Sendable {
    private let connection: DBusConnection
    private let call: Message
    private let expected: String?
    private let lock = Lock()
    private var answered = false

    init(connection: DBusConnection, call: Message, expecting expected: String?) {
        self.connection = connection
        self.call = call
        self.expected = expected
    }

    deinit {
        if !answered {
            connection.reply(to: call, with: .failure(DBusError.failed("the service dropped this call unanswered")), expecting: nil)
        }
    }

    /// Sends the method's return values (only the first answer counts).
    public func send(_ values: [DBusValue]) { finish(.success(values)) }

    /// Sends an error reply; a non-`DBusError` becomes `org.freedesktop.DBus.Error.Failed`.
    public func fail(_ error: Error) { finish(.failure(error)) }

    private func finish(_ outcome: Result<[DBusValue], Error>) {
        let first = lock.withLock { () -> Bool in
            defer { answered = true }
            return !answered
        }
        if first { connection.reply(to: call, with: outcome, expecting: expected) }
    }
}
