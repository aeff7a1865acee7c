// openurl: the XDG handler. Every click that does not come through D-Bus activation runs this,
// so it is Embedded Swift over libc alone (no Swift runtime to start, no Foundation, and no
// libdbus: SessionBus speaks the bus's wire format itself): it hands each URL to openurld's
// Router1.Open and exits. Everything else (the other commands, and routing
// in-process when there is no daemon) is `openurl-tool`, which it becomes with execv, keeping the
// same arguments.
import COpenurl
import CRouterContract

/// How long the daemon gets to answer, and the deadline sent with each call (router1.h).
let clientTimeoutMilliseconds: Int32 = OPENURL_CLIENT_TIMEOUT_MS
let deadlineMicroseconds = UInt64(OPENURL_CLIENT_TIMEOUT_MS - OPENURL_DEADLINE_MARGIN_MS) * 1000

/// What the command line asks of the client, or nil when it belongs to openurl-tool: no
/// arguments, a first word that cannot be a URL (no colon: a command, or a typo the tool answers
/// with "did you mean"), or any option but -v, --ask and --. Commands and the global flags
/// (-h, --help, --version) all fall in these cases; CommandTableTests keeps it so.
func parse(_ arguments: [String]) -> (urls: [String], verbose: Bool, ask: Bool)? {
    guard let first = arguments.first else { return nil }
    if !starts(first, with: "-"), !first.utf8.contains(UInt8(ascii: ":")) { return nil }
    var verbose = false, ask = false, optionsEnded = false
    var urls: [String] = []
    for argument in arguments {
        if !optionsEnded, same(argument, "--") { optionsEnded = true; continue }
        if !optionsEnded, same(argument, "-v") || same(argument, "--verbose") { verbose = true; continue }
        if !optionsEnded, same(argument, "--ask") { ask = true; continue }
        if !optionsEnded, starts(argument, with: "-"), argument.utf8.count > 1 { return nil }
        urls.append(argument)
    }
    return (urls, verbose, ask)
}

/// Reports a failure on stderr and, without a terminal (a desktop started us), as a notification.
func report(_ message: String, on bus: SessionBus) {
    writeError("openurl: \(message)\n")
    guard isatty(2) == 0 else { return }
    var markup = false
    let capabilities = Call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                            interface: "org.freedesktop.Notifications", method: "GetCapabilities")
    if let reply = bus.send(capabilities, timeoutMilliseconds: 5000).reply {
        markup = reply.stringArray.contains { same($0, "body-markup") }
    }
    // Escaped once, and only for a server that reads markup: a URL must not become a live link.
    let body = markup ? escapedMarkup(message) : message
    var notify = Call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                      interface: "org.freedesktop.Notifications", method: "Notify")
    notify.append("openurld")
    notify.append(uint32: 0)
    notify.append("dialog-error")
    notify.append("Could not open link")
    notify.append(body)
    notify.append(strings: [])
    notify.append(options: [("urgency", .byte(2)), ("desktop-entry", .string(OPENURL_BUS_NAME))])
    notify.append(int32: -1)
    _ = bus.send(notify, timeoutMilliseconds: 5000)
}

/// `message` with the markup characters escaped. Over bytes: the five are ASCII, and no byte of
/// a multi-byte UTF-8 sequence is ASCII, so every other character passes through whole.
func escapedMarkup(_ message: String) -> String {
    var bytes: [UInt8] = []
    for byte in message.utf8 {
        switch byte {
        case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
        case UInt8(ascii: "<"): bytes += Array("&lt;".utf8)
        case UInt8(ascii: ">"): bytes += Array("&gt;".utf8)
        case UInt8(ascii: "\""): bytes += Array("&quot;".utf8)
        case UInt8(ascii: "'"): bytes += Array("&#39;".utf8)
        default: bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The flags to pass on when the tool takes over the remaining URLs: `--no-daemon` routes them
/// in-process without asking the daemon a second time (it is missing, or did not answer in time).
func toolFlags(verbose: Bool, ask: Bool) -> [String] {
    ["--no-daemon"] + (verbose ? ["-v"] : []) + (ask ? ["--ask"] : []) + ["--"]
}

/// The `Open` options for the link at `offset`, in the order the daemon has always received them.
func openOptions(offset: Int, ask: Bool, token: String?, display: [(String, String)]) -> [(String, OptionValue)] {
    var options: [(String, OptionValue)] = []
    // A token raises one window: only the first link carries it. The daemon finds the opener
    // from our process id, walking past us and xdg-open to the app.
    if let token, offset == 0 { options.append((OPENURL_OPTION_ACTIVATION_TOKEN, .string(token))) }
    if ask { options.append((OPENURL_OPTION_ASK, .bool(true))) }
    // The daemon may lack the display (activated before the session exported it): send ours.
    if !display.isEmpty { options.append((OPENURL_OPTION_ENVIRONMENT, .stringMap(display))) }
    options.append((OPENURL_OPTION_PROCESS_ID, .uint32(UInt32(bitPattern: getpid()))))
    options.append((OPENURL_OPTION_DEADLINE, .uint64(monotonicMicroseconds() + deadlineMicroseconds)))
    return options
}

@_cdecl("openurl_main")
func openurlMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var arguments: [String] = []
    for index in 0..<Int(argc) {
        guard let pointer = argv[index] else { continue }
        if index == 0 { programPath = String(cString: pointer) } else { arguments.append(String(cString: pointer)) }
    }
    guard let (urls, verbose, ask) = parse(arguments) else { becomeTool(arguments) }
    let flags = toolFlags(verbose: verbose, ask: ask)

    // Without a bus or a daemon the tool takes over, and it says so with -v.
    guard let bus = SessionBus.connect() else {
        if verbose { writeError("openurl: no session bus; routing in-process (embedded mode)\n") }
        becomeTool(flags + urls)
    }
    var status: Int32 = 0
    var display: [(String, String)] = []
    for index in 0..<OPENURL_DISPLAY_VARIABLE_COUNT {
        guard let cName = openurl_display_variable(index) else { continue }
        let name = String(cString: cName)
        if let value = environment(name), !value.isEmpty { display.append((name, value)) }
    }
    let token = environment("XDG_ACTIVATION_TOKEN") ?? environment("DESKTOP_STARTUP_ID")
    for (offset, url) in urls.enumerated() {
        var call = Call(destination: OPENURL_BUS_NAME, path: OPENURL_OBJECT_PATH, interface: OPENURL_INTERFACE, method: OPENURL_METHOD_OPEN)
        call.append(url)
        call.append(options: openOptions(offset: offset, ask: ask, token: token, display: display))
        let (reply, failure) = bus.send(call, timeoutMilliseconds: clientTimeoutMilliseconds)
        if let reply {
            let result = reply.stringEntries
            func value(_ key: String) -> String? { result.first { $0.0.utf8.elementsEqual(key.utf8) }?.1 }
            let outcome = value(OPENURL_RESULT_OUTCOME) ?? ""
            // The daemon answered, but past the deadline (a slow start): it did nothing, so we route it.
            if outcome.utf8.elementsEqual(OPENURL_OUTCOME_ABANDONED.utf8) {
                writeError("openurl: openurld answered after the deadline; routing in-process\n")
                becomeTool(flags + Array(urls[offset...]))
            }
            if verbose {
                writeError("openurl: \(value(OPENURL_RESULT_DECISION) ?? "?") \(value(OPENURL_RESULT_FINAL_URL) ?? url) (\(outcome), by openurld)\n")
            }
            // The daemon has already notified about a failure it saw: one notification per failure.
            if let error = value(OPENURL_RESULT_ERROR) {
                writeError("openurl: \(url): \(error)\n")
                status = max(status, 4)
            } else if outcome.utf8.starts(with: OPENURL_OUTCOME_FAILED.utf8) {
                writeError("openurl: \(url): \(outcome)\n")
                status = max(status, 4)
            }
        } else if let failure {
            if failure.name.utf8.elementsEqual(OPENURL_ERROR_INVALID_ARGS.utf8) {
                report(failure.message, on: bus)
                status = max(status, 2)
            } else if failure.isTimeout {
                // Stopped or deadlocked: the daemon drops this call when it resumes (its deadline passed).
                writeError("openurl: openurld did not answer within \(clientTimeoutMilliseconds / 1000) s; routing in-process\n")
                becomeTool(flags + Array(urls[offset...]))
            } else if failure.meansServiceUnavailable {
                if verbose { writeError("openurl: openurld is not available (\(failure.message)); routing in-process (embedded mode)\n") }
                if status != 0 { writeError("openurl: earlier links failed (exit \(status))\n") }
                becomeTool(flags + Array(urls[offset...]))
            } else {
                report("\(url): \(failure.name): \(failure.message)", on: bus)
                status = max(status, 4)
            }
        }
    }
    return status
}
