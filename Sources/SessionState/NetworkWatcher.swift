import DBus
import Platform
import RoutingCore

/// NetworkManager's view of the network, kept up to date from its signals on the system bus, so
/// a click reads `facts` and never asks the bus. It reads the active connections (`Id`, `Type`,
/// `Vpn`) and, for Wi-Fi, the SSID of the connection's access point, whenever NetworkManager
/// says one of those may have changed (PropertiesChanged, a connection added or removed, the
/// service coming or going). Without a system bus or NetworkManager, `facts` says why.
public final class NetworkWatcher {
    /// NetworkManager's bus name, object and interfaces.
    public enum Names {
        static let service = "org.freedesktop.NetworkManager"
        static let path = "/org/freedesktop/NetworkManager"
        static let manager = "org.freedesktop.NetworkManager"
        static let active = "org.freedesktop.NetworkManager.Connection.Active"
        static let accessPoint = "org.freedesktop.NetworkManager.AccessPoint"
        static let wireless = "org.freedesktop.NetworkManager.Device.Wireless"
        static let properties = "org.freedesktop.DBus.Properties"
        /// Properties whose change may change the facts (not an access point's Strength, say).
        static let relevant: Set<String> = ["ActiveConnections", "PrimaryConnection", "Id", "Type", "Vpn", "State",
                                            "SpecificObject", "Ssid", "ActiveAccessPoint", "Devices"]
    }

    /// What a click sees: the last complete reading, or why there is none.
    public private(set) var facts: Known<NetworkFacts>
    /// Called with each new reading (on the loop's thread), for the log.
    private let onChange: (Known<NetworkFacts>) -> Void

    private let environment: [String: String]
    private let loop: EventLoop
    private var connection: DBusConnection?
    private var subscriptions: [DBusSignalSubscription] = []
    /// Bumped by each refresh, so an older one's late answers are dropped.
    private var generation = 0
    private var refreshing = false
    private var refreshAgain = false

    /// A watcher that connects when `start()` is first called; `environment` gives
    /// `DBUS_SYSTEM_BUS_ADDRESS`; `onChange` hears each new reading.
    public init(loop: EventLoop, environment: [String: String], onChange: @escaping (Known<NetworkFacts>) -> Void = { _ in }) {
        self.onChange = onChange
        self.loop = loop
        self.environment = environment
        facts = .unknown("not watched: no rule looks at the network")
    }

    /// Connects to the system bus and starts watching; safe to call again (once connected it does nothing).
    public func start() {
        guard connection == nil else { return }
        let address = DBusConnection.systemAddress(environment: environment)
        let bus: DBusConnection
        do {
            bus = try DBusConnection(address: address)
            try loop.add(bus)
        } catch {
            facts = .unknown("no system bus at \(address) (\(error)); network and vpn conditions are false")
            Log.warning("network conditions: \(facts.whyUnknown ?? "")")
            return
        }
        connection = bus
        do {
            subscriptions.append(try bus.onSignal(interface: nil, member: nil, sender: Names.service) { [weak self] signal in
                self?.signalled(signal)
            })
            subscriptions.append(try bus.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: "/org/freedesktop/DBus",
                                                  sender: "org.freedesktop.DBus", arg0: Names.service) { [weak self] _ in
                self?.refresh()
            })
        } catch {
            Log.warning("network conditions: cannot watch NetworkManager's signals: \(error)")
        }
        facts = .unknown("NetworkManager not read yet")
        refresh()
    }

    private func signalled(_ signal: DBusSignal) {
        if signal.member == "PropertiesChanged" {
            // org.freedesktop.DBus.Properties (s, a{sv}, as) or NetworkManager's own (a{sv}).
            let changed = signal.arguments.lazy.compactMap(\.dictionary).first ?? [:]
            let invalidated = signal.arguments.count > 2 ? (signal.arguments[2].stringArray ?? []) : []
            guard !Names.relevant.isDisjoint(with: changed.keys) || !Names.relevant.isDisjoint(with: invalidated) else { return }
        } else if !["StateChanged", "DeviceAdded", "DeviceRemoved"].contains(signal.member) {
            return
        }
        refresh()
    }

    /// Reads everything again, without waiting; a refresh asked for while one runs runs after it.
    public func refresh() {
        guard let bus = connection else { return }
        guard !refreshing else { refreshAgain = true; return }
        refreshing = true
        generation += 1
        let mine = generation
        NetworkReading.read(on: bus) { [weak self] result in
            guard let self, mine == self.generation else { return }
            self.refreshing = false
            if self.facts != result {
                self.facts = result
                self.onChange(result)
            }
            if self.refreshAgain {
                self.refreshAgain = false
                self.refresh()
            }
        }
    }

    /// One reading, waiting for it (embedded mode and `openurl test` have no loop to watch on):
    /// at most `timeout` seconds for each of the few calls.
    public static func readOnce(environment: [String: String], timeout: Double = 0.5) -> Known<NetworkFacts> {
        let address = DBusConnection.systemAddress(environment: environment)
        guard let bus = try? DBusConnection(address: address) else {
            return .unknown("no system bus at \(address); network and vpn conditions are false")
        }
        var result: Known<NetworkFacts>?
        NetworkReading.read(on: bus, timeout: timeout) { result = $0 }
        let deadline = Deadline(after: timeout * 4)
        while result == nil, !deadline.hasPassed {
            _ = bus.readWriteDispatch(timeout: min(0.05, max(0.001, deadline.remainingSeconds)))
        }
        return result ?? .unknown("NetworkManager did not answer within \(timeout * 4) s")
    }
}

extension Known {
    /// Why the fact is unknown, nil when it is known.
    public var whyUnknown: String? {
        if case .unknown(let why) = self { return why }
        return nil
    }
}

/// One asynchronous reading of NetworkManager's active connections.
enum NetworkReading {
    typealias Names = NetworkWatcher.Names

    /// Reads the active connections and their SSIDs; `completion` runs once, on the thread that
    /// dispatches `bus`.
    static func read(on bus: DBusConnection, timeout: Double = 2, completion: @escaping (Known<NetworkFacts>) -> Void) {
        call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(Names.service)], timeout) { owned in
            guard case .success(let values) = owned, values.first?.bool == true else {
                return completion(.unknown("NetworkManager is not running on the system bus; network and vpn conditions are false"))
            }
            get(bus, Names.path, Names.manager, "ActiveConnections", timeout) { value in
                guard let paths = value?.array?.compactMap(\.string) else {
                    return completion(.unknown("NetworkManager did not give its ActiveConnections"))
                }
                readConnections(bus, paths, timeout) { connections in completion(.known(NetworkFacts(connections: connections))) }
            }
        }
    }

    private static func readConnections(_ bus: DBusConnection, _ paths: [String], _ timeout: Double, completion: @escaping ([ActiveConnection]) -> Void) {
        var found: [ActiveConnection?] = Array(repeating: nil, count: paths.count)
        var left = paths.count
        guard left > 0 else { return completion([]) }
        func finished() {
            left -= 1
            if left == 0 { completion(found.compactMap { $0 }) }
        }
        for (index, path) in paths.enumerated() {
            call(bus, Names.service, path, Names.properties, "GetAll", [.string(Names.active)], timeout) { reply in
                guard case .success(let values) = reply, let properties = values.first?.dictionary else { return finished() }
                var connection = ActiveConnection(id: properties["Id"]?.string ?? "", type: properties["Type"]?.string ?? "",
                                                  vpn: properties["Vpn"]?.bool ?? false)
                guard connection.type == "802-11-wireless" else {
                    found[index] = connection
                    return finished()
                }
                ssid(bus, accessPoint: properties["SpecificObject"]?.string, devices: properties["Devices"]?.array?.compactMap(\.string) ?? [], timeout) { ssid in
                    connection.ssid = ssid
                    found[index] = connection
                    finished()
                }
            }
        }
    }

    /// The SSID of the connection's access point, else of its device's active access point.
    private static func ssid(_ bus: DBusConnection, accessPoint: String?, devices: [String], _ timeout: Double, completion: @escaping (String?) -> Void) {
        func ssidOf(_ path: String, _ done: @escaping (String?) -> Void) {
            get(bus, path, Names.accessPoint, "Ssid", timeout) { value in
                guard var bytes = value?.array?.compactMap({ $0.integer.map { UInt8(truncatingIfNeeded: $0) } }) else { return done(nil) }
                // An SSID is 0 to 32 arbitrary bytes: trailing NULs dropped, inner ones shown as ?.
                while bytes.last == 0 { bytes.removeLast() }
                guard !bytes.isEmpty else { return done(nil) }
                done(String(decoding: bytes.map { $0 == 0 ? 0x3F : $0 }, as: UTF8.self))
            }
        }
        if let accessPoint, accessPoint != "/" { return ssidOf(accessPoint, completion) }
        guard let device = devices.first else { return completion(nil) }
        get(bus, device, Names.wireless, "ActiveAccessPoint", timeout) { value in
            guard let path = value?.string, path != "/" else { return completion(nil) }
            ssidOf(path, completion)
        }
    }

    private static func get(_ bus: DBusConnection, _ path: String, _ interface: String, _ name: String, _ timeout: Double, completion: @escaping (DBusValue?) -> Void) {
        call(bus, Names.service, path, Names.properties, "Get", [.string(interface), .string(name)], timeout) { reply in
            completion((try? reply.get())?.first?.unwrapped)
        }
    }

    private static func call(_ bus: DBusConnection, _ destination: String, _ path: String, _ interface: String, _ method: String,
                             _ arguments: [DBusValue], _ timeout: Double, completion: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        do {
            try bus.callAsync(destination: destination, path: path, interface: interface, method: method, arguments: arguments,
                              timeout: timeout, completion: completion)
        } catch let error as DBusError {
            completion(.failure(error))
        } catch {
            completion(.failure(DBusError(name: DBusError.Name.disconnected, message: "\(error)")))
        }
    }
}
