import Foundation
import Glibc
import TestSupport

/// Small clients for the two browsers' own remote protocols, enough for issue 34's tests:
/// Marionette (Firefox: `LEN:JSON` over TCP) and the Chrome DevTools Protocol over
/// `--remote-debugging-pipe` (fds 3 and 4, NUL-separated JSON). Clicks they send are trusted
/// (`event.isTrusted`), as a user's are.

/// A JSON value as Foundation's `JSONSerialization` reads it.
typealias JSONObject = [String: Any]

/// A connection to Firefox's Marionette server (started with `--marionette`; the chrome
/// context also needs `-remote-allow-system-access` on Firefox 153).
final class MarionetteClient {
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var nextID = 0
    /// The element reference key of WebDriver.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// Connects to 127.0.0.1:`port`, reads the server's greeting and opens a session.
    init(port: UInt16, timeout: Double = 30) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(socket); throw HarnessError("Marionette on port \(port): connect failed, errno \(errno)") }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = try readPacket()
        _ = try command("WebDriver:NewSession", ["capabilities": ["alwaysMatch": ["pageLoadStrategy": "normal"]]])
    }

    deinit { close(socket) }

    private func readPacket() throws -> Any {
        func fill() throws {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { throw HarnessError("Marionette closed the connection (or did not answer in time)") }
            buffer += chunk[0..<count]
        }
        while !buffer.contains(UInt8(ascii: ":")) { try fill() }
        let colon = buffer.firstIndex(of: UInt8(ascii: ":"))!
        guard let length = Int(String(decoding: buffer[..<colon], as: UTF8.self)) else { throw HarnessError("Marionette sent a bad length") }
        while buffer.count < colon + 1 + length { try fill() }
        let body = Data(buffer[(colon + 1)..<(colon + 1 + length)])
        buffer.removeFirst(colon + 1 + length)
        return try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    }

    /// Sends one command and returns its result (the `value` of WebDriver's answers is left in).
    @discardableResult
    func command(_ name: String, _ parameters: JSONObject = [:]) throws -> Any {
        nextID += 1
        let id = nextID
        let data = try JSONSerialization.data(withJSONObject: [0, id, name, parameters] as [Any])
        let packet = Array("\(data.count):".utf8) + Array(data)
        let sent = packet.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == packet.count else { throw HarnessError("Marionette: send failed, errno \(errno)") }
        while true {
            guard let reply = try readPacket() as? [Any], reply.count == 4, (reply[1] as? Int) == id else { continue }
            if let error = reply[2] as? JSONObject {
                throw HarnessError("Marionette \(name): \(error["error"] ?? "?"): \(error["message"] ?? "")")
            }
            return reply[3]
        }
    }

    /// `"content"` (the page) or `"chrome"` (the browser's own windows).
    func setContext(_ context: String) throws { try command("Marionette:SetContext", ["value": context]) }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value; a
    /// returned promise is awaited.
    func execute(_ script: String, _ args: [Any] = []) throws -> Any? {
        let result = try command("WebDriver:ExecuteScript", ["script": script, "args": args])
        return (result as? JSONObject)?["value"]
    }

    func navigate(_ url: String) throws { try command("WebDriver:Navigate", ["url": url]) }

    /// The WebDriver reference of the element `selector` finds.
    func element(_ selector: String) throws -> JSONObject {
        let found = try command("WebDriver:FindElement", ["using": "css selector", "value": selector])
        guard let element = ((found as? JSONObject)?["value"] as? JSONObject)?[Self.elementKey] as? String else {
            throw HarnessError("Marionette found no element for \(selector): \(found)")
        }
        return [Self.elementKey: element]
    }

    /// Clicks the element `selector` finds, as WebDriver does: a trusted mouse click at its centre.
    func click(_ selector: String) throws {
        try command("WebDriver:ElementClick", ["id": try element(selector)[Self.elementKey] as Any])
    }

    /// Moves the mouse to the element's centre and presses the left button (`release` ends the click).
    func press(_ selector: String) throws {
        let pointer: JSONObject = ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
                                   "actions": [["type": "pointerMove", "origin": try element(selector), "x": 0, "y": 0], ["type": "pointerDown", "button": 0]]]
        try command("WebDriver:PerformActions", ["actions": [pointer]])
    }

    /// Releases the left button pressed by `press` (the browser fires the click).
    func release() throws {
        let pointer: JSONObject = ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": [["type": "pointerUp", "button": 0]]]
        try command("WebDriver:PerformActions", ["actions": [pointer]])
    }

    /// A left click with Ctrl held (the user's explicit "open in a new tab").
    func ctrlClick(_ selector: String) throws {
        let control = "\u{E009}"
        let keys: JSONObject = ["type": "key", "id": "keyboard",
                                "actions": [["type": "keyDown", "value": control], ["type": "pause"], ["type": "pause"], ["type": "keyUp", "value": control]]]
        let pointer: JSONObject = ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
                                   "actions": [["type": "pointerMove", "origin": try element(selector), "x": 0, "y": 0],
                                               ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0], ["type": "pause"]]]
        try command("WebDriver:PerformActions", ["actions": [keys, pointer]])
        try command("WebDriver:ReleaseActions")
    }

    /// The URL of the current page.
    func currentURL() throws -> String {
        ((try command("WebDriver:GetCurrentURL") as? JSONObject)?["value"] as? String) ?? ""
    }

    /// Every tab of every window: its URL and `userContextId` (0: no container). Leaves the
    /// client in the content context.
    func tabs() throws -> [(url: String, userContextId: Int)] {
        try setContext("chrome")
        defer { try? setContext("content") }
        let value = try execute("""
            const out = [];
            for (const win of Services.wm.getEnumerator("navigator:browser"))
              for (const tab of win.gBrowser.tabs) out.push([tab.linkedBrowser.currentURI.spec, tab.userContextId]);
            return out;
            """)
        return ((value as? [[Any]]) ?? []).map { (($0.first as? String) ?? "", ($0.last as? Int) ?? -1) }
    }
}

/// Chromium driven over `--remote-debugging-pipe`: the browser reads commands on its fd 3 and
/// writes answers and events on its fd 4, each a JSON text followed by NUL.
final class ChromiumPipe {
    let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private var buffer: [UInt8] = []
    private var nextID = 0
    /// Events read while waiting for an answer, oldest first.
    private(set) var events: [JSONObject] = []

    /// Spawns `argv` (its first element looked up in PATH) in a session of its own, with the
    /// pipe on fds 3 and 4 and its output appended to `logPath`.
    init(_ argv: [String], environment: [String: String], logPath: String) throws {
        guard let program = argv.first, ChildProcess.findExecutable(program) != nil else {
            throw HarnessError("\(argv.first ?? "?") is not installed: apt-get install -y chromium")
        }
        // Our ends must not land on 3 or 4 (dup2 onto itself would keep close-on-exec).
        func pipeAbove10() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw HarnessError("pipe: errno \(errno)") }
            let high = ends.map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
            close(ends[0]); close(ends[1])
            return (high[0], high[1])
        }
        let commands = try pipeAbove10()
        let answers = try pipeAbove10()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, commands.read, 3)
        posix_spawn_file_actions_adddup2(&actions, answers.write, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGMASK)) // 0x80: POSIX_SPAWN_SETSID
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, argv[0], &actions, &attributes, &cArgs, &cEnv)
        close(commands.read)
        close(answers.write)
        guard rc == 0 else {
            close(commands.write); close(answers.read)
            throw HarnessError("posix_spawn \(argv[0]): \(String(cString: strerror(rc)))")
        }
        pid = child
        toBrowser = commands.write
        fromBrowser = answers.read
    }

    private var reaped = false

    deinit {
        terminate()
        close(toBrowser)
        close(fromBrowser)
    }

    /// Kills the browser's process group and reaps it.
    func terminate() {
        guard !reaped else { return }
        reaped = true
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Reads one message, or nil when none comes within `timeout` (throws when the browser closed the pipe).
    private func readMessage(timeout: Double) throws -> JSONObject? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let text = Data(buffer[..<end])
                buffer.removeFirst(end + 1)
                return try JSONSerialization.jsonObject(with: text) as? JSONObject
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var fds = [pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, Int32(min(left, 1) * 1000) + 1) >= 0 else { continue }
            guard fds[0].revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(fromBrowser, &chunk, chunk.count)
            guard count > 0 else { throw HarnessError("chromium closed its debugging pipe (did it exit?)") }
            buffer += chunk[0..<count]
        }
    }

    /// Sends one command (to `session` when given) and returns its `result`; a CDP error throws.
    @discardableResult
    func send(_ method: String, _ params: JSONObject = [:], session: String? = nil, timeout: Double = 30) throws -> JSONObject {
        nextID += 1
        let id = nextID
        var message: JSONObject = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        let data = Array(try JSONSerialization.data(withJSONObject: message)) + [0]
        let written = data.withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        guard written == data.count else { throw HarnessError("writing to chromium's pipe failed, errno \(errno)") }
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let reply = try readMessage(timeout: deadline.timeIntervalSinceNow) else { break }
            if (reply["id"] as? Int) == id {
                if let error = reply["error"] as? JSONObject { throw HarnessError("CDP \(method): \(error)") }
                return (reply["result"] as? JSONObject) ?? [:]
            }
            if reply["method"] != nil { events.append(reply) }
        }
        throw HarnessError("CDP \(method): no answer within \(timeout) s")
    }

    /// The targets the browser knows (pages, service workers, …).
    func targets() throws -> [JSONObject] {
        (try send("Target.getTargets")["targetInfos"] as? [JSONObject]) ?? []
    }

    /// Attaches to `targetId` in flat mode; returns the session id for `send(_:_:session:)`.
    func attach(_ targetId: String) throws -> String {
        guard let session = try send("Target.attachToTarget", ["targetId": targetId, "flatten": true])["sessionId"] as? String else {
            throw HarnessError("CDP: attaching to \(targetId) gave no session")
        }
        return session
    }

    /// Evaluates `expression` in the page of `session`; awaits a promise; returns the value.
    func evaluate(_ expression: String, session: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], session: session)
        if let exception = result["exceptionDetails"] { throw HarnessError("CDP evaluate \(expression): \(exception)") }
        return (result["result"] as? JSONObject)?["value"]
    }

    /// Navigates the page of `session` and waits until `document.readyState` is complete there.
    func navigate(_ url: String, session: String, timeout: Double = 30) throws {
        try send("Page.navigate", ["url": url], session: session)
        let loaded = try eventually(timeout: timeout) {
            let state = try? evaluate("location.href + ' ' + document.readyState", session: session) as? String
            return state == url + " complete"
        }
        guard loaded else { throw HarnessError("chromium did not load \(url) within \(timeout) s") }
    }

    /// The centre of the element `selector` finds, in CSS pixels of the viewport (scrolled into view).
    func centre(_ selector: String, session: String) throws -> (x: Double, y: Double) {
        let script = "(() => { const e = document.querySelector(\(Self.quoted(selector))); e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        guard let point = try evaluate(script, session: session) as? [Double], point.count == 2 else {
            throw HarnessError("chromium: no element for \(selector)")
        }
        return (point[0], point[1])
    }

    /// One trusted mouse event (Input.dispatchMouseEvent): `mouseMoved`, `mousePressed` or
    /// `mouseReleased` of the left button; `modifiers` 2 is Ctrl, 8 Shift.
    func mouse(_ type: String, at point: (x: Double, y: Double), modifiers: Int = 0, session: String) throws {
        var event: JSONObject = ["type": type, "x": point.x, "y": point.y, "modifiers": modifiers]
        if type != "mouseMoved" {
            event["button"] = "left"
            event["clickCount"] = 1
            event["buttons"] = type == "mousePressed" ? 1 : 0
        }
        try send("Input.dispatchMouseEvent", event, session: session)
    }

    /// A trusted left click at the centre of the element `selector` finds.
    func click(_ selector: String, modifiers: Int = 0, session: String) throws {
        let point = try centre(selector, session: session)
        try mouse("mouseMoved", at: point, session: session)
        try mouse("mousePressed", at: point, modifiers: modifiers, session: session)
        try mouse("mouseReleased", at: point, modifiers: modifiers, session: session)
    }

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }
}

/// A port the kernel says is free now (bound to 127.0.0.1, then released).
func freeLocalPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw HarnessError("bind: errno \(errno)") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}
