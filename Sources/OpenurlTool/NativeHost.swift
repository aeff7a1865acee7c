import BrowserCompanion
import DBus
import DesktopDefaults
import JSON
import Launching
import Platform
import RouterContract
import URLModel

/// `openurl-native-host`: the browser companion's native-messaging host. The browser starts it
/// (one per extension connection) with its stdin and stdout as the message channel; it asks the
/// daemon whether a clicked link stays in this browser (`Open` with `dry-run`: Explain's decision, no trace) and hands the others to
/// `Open` with the page's context, the browser as the opener. It never launches anything itself.
public enum NativeHost {
    /// Serves the browser until it closes the channel; the exit status.
    public static func run(arguments: [String]) -> Int32 {
        if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            StandardStream.output.writeLine("""
                usage: openurl-native-host [ORIGIN...]
                The native-messaging host of openurld's browser companion: a browser starts it with
                the extension's origin; it reads length-prefixed JSON messages on stdin and answers
                on stdout. See README.md, "Links clicked inside the browser".
                """)
            return 0
        }
        ProcessSpawn.ignoreBrokenPipes()
        let environment = Environment.current()
        // Chromium starts a host with the extension's origin, `chrome-extension://ID/`.
        let origin = arguments.dropFirst().first { $0.hasPrefix("chrome-extension://") }
        let extensionID = origin.map { String($0.dropFirst("chrome-extension://".count).prefix { $0 != "/" }) }
        var session = HostSession(environment: environment, browser: HostBrowser.read(pid: Environment.parentProcessID, environment: environment),
                                  extensionID: extensionID)
        var buffer = NativeMessageBuffer()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            switch Descriptor.read(0, into: &chunk) {
            case .bytes(let count): buffer.append(chunk[0..<count])
            case .endOfFile, .failed: return 0
            case .wouldBlock: continue
            }
            do {
                while let message = try buffer.next() {
                    guard write(session.answer(message)) else { return 0 }
                }
            } catch {
                StandardStream.error.writeLine("openurl-native-host: \(error); closing")
                return 1
            }
        }
    }

    /// At most 64 KiB of `text` (the daemon refuses longer context), cut at a character.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > 65536 else { return text }
        return String(decoding: text.utf8.prefix(65536), as: UTF8.self)
    }

    private static func write(_ value: JSONValue) -> Bool {
        let bytes = NativeMessageFrame.frame(value)
        var offset = 0
        while offset < bytes.count {
            guard let written = Descriptor.write(1, bytes[offset...]) else { return false }
            offset += written
        }
        return true
    }
}

/// Why a call to the daemon failed, as the extension is told.
struct HostFailure: Error {
    let message: String
}

/// One browser's connection: the bus, the browser it serves, what it has looked up.
struct HostSession {
    let environment: [String: String]
    private(set) var browser: HostBrowser
    /// Chromium: the extension's id, where its storage is kept in each profile.
    let extensionID: String?
    /// The random id the extension's hello named, kept in its profile's storage.
    private var instance: String?
    private var connection: DBusConnection?
    private let sameSite = SameSite(listText: FileSystem.contents(PublicSuffixList.debianPath))
    private var systemEntries: [String: String?] = [:]

    init(environment: [String: String], browser: HostBrowser, extensionID: String?) {
        self.environment = environment
        self.browser = browser
        self.extensionID = extensionID
    }

    /// The answer to one message's bytes.
    mutating func answer(_ bytes: [UInt8]) -> JSONValue {
        let request: CompanionRequest
        do { request = try CompanionRequest(bytes: bytes) } catch {
            return .object([("id", error.id), ("error", .string(error.description))])
        }
        var members: [(String, JSONValue)] = [("id", request.id)]
        switch request.kind {
        case .hello(_, _, let instance):
            if let instance, !instance.isEmpty { self.instance = instance }
            findProfile()
            members += [("ok", .bool(true)), ("host", .string("0.1.0")), ("browser", .string(browser.program)),
                        ("profile", browser.profile.map { .string(Path.lastComponent($0)) } ?? .null)]
        case .explain(let link):
            members += explain(link)
        case .open(let link):
            members += open(link)
        }
        return .object(members)
    }

    /// Several Chromium profiles open: the one whose extension storage holds this instance's id.
    /// Looked for again at each question until found, since a freshly made id reaches the disk
    /// (LevelDB's log) a moment after the extension's write resolves.
    private mutating func findProfile() {
        guard browser.profile == nil, let instance, let extensionID, let userData = browser.userData else { return }
        browser.profile = HostBrowser.chromiumProfile(holding: instance, extensionID: extensionID, userData: userData)
    }

    private mutating func explain(_ link: ClickedLink) -> [(String, JSONValue)] {
        findProfile()
        if !link.sameSite, sameSite.holds(url: link.url, origin: link.origin) {
            return [("keep", .bool(true)), ("why", .string("a link to the page's own site"))]
        }
        let reply: [String: DBusValue]
        // Open with dry-run decides as Explain does without writing the rule-by-rule trace
        // (1.5 ms of a 1,001-rule config's 1.6 ms); nothing is carried out or recorded.
        switch call(Router1.Method.open, link, dryRun: true) {
        case .success(let result): reply = result
        case .failure(let failure): return [("error", .string(failure.message))]
        }
        typealias Key = Router1.Result
        let launch = reply[Key.launch]?.dictionary
        let safety = reply[Key.safety]?.dictionary?["verdict"]?.string ?? "safe"
        let explained = ExplainedLink(decision: reply[Key.decision]?.string ?? "", target: reply[Key.target]?.string,
                                      url: reply[Key.url]?.string ?? link.url, finalURL: reply[Key.finalURL]?.string ?? link.url,
                                      launchEntry: launch?[Router1.Launch.entry]?.string,
                                      launchArguments: launch?[Router1.Launch.arguments]?.stringArray ?? [],
                                      launchURL: launch?[Router1.Launch.url]?.string, warns: safety != "safe")
        let verdict = KeepVerdict.judge(explained, in: browser, systemEntry: systemEntry(for: link.url))
        var members: [(String, JSONValue)] = [("keep", .bool(verdict.keep)), ("decision", .string(explained.decision))]
        if let target = explained.target { members.append(("target", .string(target))) }
        members.append(("why", .string(verdict.why)))
        return members
    }

    private mutating func open(_ link: ClickedLink) -> [(String, JSONValue)] {
        switch call(Router1.Method.open, link) {
        case .failure(let failure): return [("error", .string(failure.message))]
        case .success(let reply):
            typealias Key = Router1.Result
            var members: [(String, JSONValue)] = [("outcome", .string(reply[Key.outcome]?.string ?? "")),
                                                  ("decision", .string(reply[Key.decision]?.string ?? ""))]
            if let target = reply[Key.target]?.string { members.append(("target", .string(target))) }
            return members
        }
    }

    /// Calls `method` for `link` with the page's context and the browser as the opener.
    private mutating func call(_ method: String, _ link: ClickedLink, dryRun: Bool = false) -> Result<[String: DBusValue], HostFailure> {
        var options: [(String, DBusValue)] = dryRun ? [(Router1.Option.dryRun, .bool(true))] : []
        options += [
            (Router1.Option.opener, .string(browser.program)),
            (Router1.Option.processID, .uint32(UInt32(truncatingIfNeeded: browser.pid))),
        ]
        var context: [(String, DBusValue)] = []
        if let text = link.text, !text.isEmpty { context.append((Router1.Context.linkText, .string(NativeHost.capped(text)))) }
        if let origin = link.origin, !origin.isEmpty { context.append((Router1.Context.originURL, .string(NativeHost.capped(origin)))) }
        if !context.isEmpty { options.append((Router1.Option.context, .vardict(pairs: context))) }
        if let display = ClickEnvironment.option({ environment[$0] }) { options.append((ClickEnvironment.optionKey, display)) }
        do {
            let bus: DBusConnection
            if let connection { bus = connection } else {
                bus = try DBusConnection.session()
                connection = bus
            }
            let reply = try bus.call(destination: Router1.busName, path: Router1.objectPath, interface: Router1.interface, method: method,
                                     arguments: [.string(link.url), .vardict(pairs: options)], timeout: 10)
            guard let result = reply.first?.dictionary else { return .failure(HostFailure(message: "\(method): the daemon's reply has no result")) }
            return .success(result)
        } catch {
            connection = nil
            return .failure(HostFailure(message: "\(method): \(error)"))
        }
    }

    /// The desktop entry `system` opens for the link's scheme (the handler before openurld).
    private mutating func systemEntry(for url: String) -> String? {
        let scheme = url.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        if let known = systemEntries[scheme] { return known }
        let entry = DefaultHandlers(paths: XDGPaths(environment: environment)).previousHandlers(schemes: [scheme])[scheme]?.id
        systemEntries[scheme] = entry
        return entry
    }
}
