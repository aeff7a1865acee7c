import RoutingCore



/// What an X11 display says at one moment: the title of the active window (`_NET_ACTIVE_WINDOW`
/// on the root window, then that window's `_NET_WM_NAME`, else `WM_NAME`) and the modifier keys
/// held (the mask of `QueryPointer`). It speaks the few X11 requests it needs itself over the
/// display's local socket (no libX11 in the process), with MIT-MAGIC-COOKIE-1 from
/// `XAUTHORITY`, and gives up after `timeout` seconds, so a hung X server costs a click at most that.
public enum X11Snapshot {
    /// The window title and modifiers of the display in `environment` (`DISPLAY`, `XAUTHORITY`,
    /// `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE`, `HOME`), or why they cannot be known.
    public static func read(environment: [String: String], timeout: Double = 0.25) -> (window: Known<String>, modifiers: Known<Set<Modifier>>) {
        if let why = unavailable(environment) { return (.unknown(why), .unknown(why)) }
        let display = environment["DISPLAY"] ?? ""
        guard let (number, screen) = parseDisplay(display) else {
            let why = "DISPLAY=\(display) is not a local X11 display (:N)"
            return (.unknown(why), .unknown(why))
        }
        let cookie = XAuthority.cookie(display: number, file: environment["XAUTHORITY"].flatMap { $0.isEmpty ? nil : $0 }
                                       ?? (environment["HOME"].map { $0 + "/.Xauthority" } ?? ""))
        do {
            let connection = try X11Connection(display: number, screen: screen, cookie: cookie, timeout: timeout)
            defer { connection.close() }
            return try connection.snapshot()
        } catch {
            let why = "X11 display \(display): \(error)"
            return (.unknown(why), .unknown(why))
        }
    }

    /// Why a session has no X11 answer: a Wayland session (its compositor tells no other program
    /// which window has the focus or which keys are held), or no display at all.
    public static func unavailable(_ environment: [String: String]) -> String? {
        let wayland = environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        if environment["XDG_SESSION_TYPE"] == "wayland" || wayland {
            return "a Wayland session: the compositor tells no other program the focused window or the keys held"
        }
        guard let display = environment["DISPLAY"], !display.isEmpty else { return "no DISPLAY for this click" }
        return nil
    }

    /// `:1`, `:1.0`, `unix:1` → (1, 0); nil for a remote display (`host:1`).
    static func parseDisplay(_ text: String) -> (Int, Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let host = text[..<colon]
        guard host.isEmpty || host == "unix" else { return nil }
        let rest = text[text.index(after: colon)...].split(separator: ".", omittingEmptySubsequences: false)
        guard let first = rest.first, let number = Int(first), number >= 0 else { return nil }
        let screen = rest.count > 1 ? Int(rest[1]) ?? 0 : 0
        return (number, screen)
    }
}

/// Why an X11 exchange failed.
struct X11Error: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `~/.Xauthority`'s MIT-MAGIC-COOKIE-1 for a local display.
enum XAuthority {
    /// The cookie of the first entry for this host (or any host) and display number.
    static func cookie(display: Int, file: String) -> [UInt8]? {
        guard !file.isEmpty, let bytes = LocalSocket.readFile(file) else { return nil }
        let host = LocalSocket.hostName()
        var index = 0
        func field() -> [UInt8]? {
            guard index + 2 <= bytes.count else { return nil }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
            guard index + length <= bytes.count else { return nil }
            defer { index += length }
            return Array(bytes[index..<(index + length)])
        }
        while index + 2 <= bytes.count {
            let family = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
            guard let address = field(), let number = field(), let name = field(), let data = field() else { return nil }
            let local = family == 256 && String(decoding: address, as: UTF8.self) == host
            guard local || family == 65535 else { continue }
            guard number.isEmpty || String(decoding: number, as: UTF8.self) == String(display) else { continue }
            if String(decoding: name, as: UTF8.self) == "MIT-MAGIC-COOKIE-1" { return data }
        }
        return nil
    }
}

/// One short-lived connection to a local X server.
final class X11Connection {
    private let socket: LocalSocket
    private let root: UInt32
    private var sequence: UInt16 = 0

    init(display: Int, screen: Int, cookie: [UInt8]?, timeout: Double) throws {
        socket = try LocalSocket(path: "/tmp/.X11-unix/X\(display)", timeout: timeout)
        var setup: [UInt8] = [0x6C, 0]  // little-endian
        setup += Self.le16(11) + Self.le16(0)
        let name = cookie == nil ? [] : Array("MIT-MAGIC-COOKIE-1".utf8)
        let data = cookie ?? []
        setup += Self.le16(name.count) + Self.le16(data.count) + [0, 0]
        setup += Self.padded(name) + Self.padded(data)
        try socket.write(setup)
        let head = try socket.read(8)
        let extra = try socket.read(Int(Self.u16(head, 6)) * 4)
        guard head[0] == 1 else {
            let reason = String(decoding: extra.prefix(Int(head[1])), as: UTF8.self)
            socket.close()
            throw X11Error("the X server refused the connection (\(reason.isEmpty ? "authorization" : reason))")
        }
        // The fixed part is 32 bytes, then the vendor (padded) and 8 bytes per pixmap format.
        let vendor = Int(Self.u16(extra, 16)), formats = Int(extra[21]), screens = Int(extra[20])
        var offset = 32 + (vendor + 3) / 4 * 4 + formats * 8
        guard screen < screens else { socket.close(); throw X11Error("no screen \(screen)") }
        for _ in 0..<screen {
            // A screen is 40 bytes and its depths: 8 bytes each plus 24 per visual.
            guard offset + 40 <= extra.count else { break }
            let depths = Int(extra[offset + 39])
            offset += 40
            for _ in 0..<depths {
                guard offset + 8 <= extra.count else { break }
                offset += 8 + Int(Self.u16(extra, offset + 2)) * 24
            }
        }
        guard offset + 4 <= extra.count else { socket.close(); throw X11Error("a short connection setup") }
        root = Self.u32(extra, offset)
    }

    func close() { socket.close() }

    /// The active window's title and the modifiers held: three round trips.
    func snapshot() throws -> (window: Known<String>, modifiers: Known<Set<Modifier>>) {
        let atoms = ["_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "UTF8_STRING"]
        var requests: [UInt8] = []
        for atom in atoms { requests += internAtom(atom) }
        requests += request(38, 0, Self.le32(root))  // QueryPointer
        try socket.write(requests)
        var values: [UInt32] = []
        for _ in atoms { values.append(Self.u32(try reply(), 8)) }
        let pointer = try reply()
        let modifiers = Modifier.held(x11Mask: Self.u16(pointer, 24))
        let (activeAtom, nameAtom, utf8Atom) = (values[0], values[1], values[2])
        guard activeAtom != 0 else {
            return (.unknown("the window manager does not set _NET_ACTIVE_WINDOW"), .known(modifiers))
        }
        try socket.write(getProperty(root, activeAtom, type: 33, length: 1))  // WINDOW
        let active = try reply()
        guard Self.u32(active, 16) >= 1, active.count >= 36 else {
            return (.unknown("no window has the focus"), .known(modifiers))
        }
        let window = Self.u32(active, 32)
        guard window != 0 else { return (.unknown("no window has the focus"), .known(modifiers)) }
        try socket.write(getProperty(window, nameAtom, type: utf8Atom, length: 256) + getProperty(window, 39, type: 0, length: 256))  // WM_NAME
        let netName = Self.propertyBytes(try reply())
        let wmName = Self.propertyBytes(try reply())
        let title = netName.isEmpty ? wmName : netName
        return (.known(String(decoding: title, as: UTF8.self)), .known(modifiers))
    }

    private func internAtom(_ name: String) -> [UInt8] {
        let bytes = Array(name.utf8)
        return request(16, 1, Self.le16(bytes.count) + [0, 0] + Self.padded(bytes))  // only if it exists
    }

    private func getProperty(_ window: UInt32, _ property: UInt32, type: UInt32, length: UInt32) -> [UInt8] {
        request(20, 0, Self.le32(window) + Self.le32(property) + Self.le32(type) + Self.le32(0) + Self.le32(length))
    }

    private func request(_ opcode: UInt8, _ detail: UInt8, _ body: [UInt8]) -> [UInt8] {
        sequence &+= 1
        return [opcode, detail] + Self.le16((body.count + 4) / 4) + body
    }

    /// The next reply (events are skipped); an X error is thrown.
    private func reply() throws -> [UInt8] {
        while true {
            let head = try socket.read(32)
            switch head[0] {
            case 0: throw X11Error("X error \(head[1]) for request \(head[10])")
            case 1:
                let length = Int(Self.u32(head, 4))
                guard length < 1 << 16 else { throw X11Error("an oversized reply") }
                return head + (length > 0 ? try socket.read(length * 4) : [])
            default: continue
            }
        }
    }

    private static func propertyBytes(_ reply: [UInt8]) -> [UInt8] {
        let format = Int(reply[1]), count = Int(u32(reply, 16))
        guard format == 8, reply.count >= 32 + count else { return [] }
        return Array(reply[32..<(32 + count)])
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }
    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    static func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + Array(repeating: 0, count: (4 - bytes.count % 4) % 4) }
}
