// openurl: the XDG handler. Every click that does not come through D-Bus activation runs this,
// so it links only libdbus: it hands each URL to openurld's Router1.Open and exits. Everything
// else (the other commands, and routing in-process when there is no daemon) is `openurl-tool`,
// which it becomes with execv, keeping the same arguments.
#if canImport(Glibc)
import Glibc
#endif
import DBus
import OpenurlCommands

let arguments = Array(CommandLine.arguments.dropFirst())

/// Replaces this process with `openurl-tool` from the same directory, with `arguments`.
func becomeTool(_ arguments: [String]) -> Never {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var directory = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    if let slash = directory.lastIndex(of: "/") { directory = String(directory[..<slash]) } else { directory = "." }
    let tool = directory + "/openurl-tool"
    let argv = ["openurl"] + arguments
    var cArguments = argv.map { strdup($0) } + [nil]
    execv(tool, &cArguments)
    let message = "openurl: cannot run \(tool): \(String(cString: strerror(errno))); reinstall openurld (make install)\n"
    fputs(message, stderr)
    exit(4)
}

// Commands, and first words that cannot be URLs (so a typo gets "did you mean"), go to the tool;
// the table decides, so the two binaries cannot disagree.
if CommandTable.isForTool(arguments) { becomeTool(arguments) }

var verbose = false
var ask = false
var urls: [String] = []
var optionsEnded = false
for argument in arguments {
    if !optionsEnded, argument == "--" { optionsEnded = true; continue }
    if !optionsEnded, argument == "-v" || argument == "--verbose" { verbose = true; continue }
    if !optionsEnded, argument == "--ask" { ask = true; continue }
    if !optionsEnded, argument.hasPrefix("-"), argument.count > 1 { becomeTool(arguments) }
    urls.append(argument)
}

/// The flags to pass on when the tool takes over the remaining URLs: `--no-daemon` routes them
/// in-process without asking the daemon a second time (it is missing, or did not answer in time).
func flags() -> [String] { ["--no-daemon"] + (verbose ? ["-v"] : []) + (ask ? ["--ask"] : []) + ["--"] }

/// Reports a failure on stderr and, without a terminal (a desktop started us), as a notification.
func report(_ message: String, on connection: DBusConnection?) {
    fputs("openurl: \(message)\n", stderr)
    guard isatty(2) == 0, let connection else { return }
    // Escaped once, and only for a server that reads markup: a URL must not become a live link.
    let capabilities = (try? connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                             interface: "org.freedesktop.Notifications", method: "GetCapabilities", timeout: 5))?.first?.stringArray ?? []
    var body = message
    if capabilities.contains("body-markup") {
        body = ""
        for character in message {
            switch character {
            case "&": body += "&amp;"
            case "<": body += "&lt;"
            case ">": body += "&gt;"
            case "\"": body += "&quot;"
            case "'": body += "&#39;"
            default: body.append(character)
            }
        }
    }
    _ = try? connection.call(
        destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
        interface: "org.freedesktop.Notifications", method: "Notify",
        arguments: [.string("openurld"), .uint32(0), .string("dialog-error"), .string("Could not open link"), .string(body),
                    .stringArray([]), .vardict(["urgency": .byte(2), "desktop-entry": .string("io.github.openurld")]), .int32(-1)],
        timeout: 5)
}

// Without a bus or a daemon the tool takes over, and it says so with -v.
guard let connection = try? DBusConnection.session() else {
    if verbose { fputs("openurl: no session bus; routing in-process (embedded mode)\n", stderr) }
    becomeTool(flags() + urls)
}
var status: Int32 = 0
let display = ClickEnvironment.ofThisProcess()
let token = getenv("XDG_ACTIVATION_TOKEN").map { String(cString: $0) } ?? getenv("DESKTOP_STARTUP_ID").map { String(cString: $0) }
for (offset, url) in urls.enumerated() {
    var options: [(String, DBusValue)] = []
    // A token raises one window: only the first link carries it. The daemon finds the opener
    // from our process id, walking past us and xdg-open to the app.
    if let token, offset == 0 { options.append(("activation-token", .string(token))) }
    if ask { options.append(("ask", .bool(true))) }
    // The daemon may lack the display (activated before the session exported it): send ours.
    if let display { options.append((ClickEnvironment.optionKey, display)) }
    options.append((ClickDeadline.optionKey, .uint64(ClickDeadline.forCallMadeNow())))
    do {
        let reply = try connection.call(destination: "io.github.openurld", path: "/io/github/openurld", interface: "io.github.openurld.Router1",
                                        method: "Open", arguments: [.string(url), .vardict(pairs: options)], timeout: ClickDeadline.clientTimeout)
        let result = reply.first?.dictionary ?? [:]
        let outcome = result["outcome"]?.string ?? ""
        // The daemon answered, but past the deadline (a slow start): it did nothing, so we route it.
        if outcome == "abandoned" {
            fputs("openurl: openurld answered after the deadline; routing in-process\n", stderr)
            becomeTool(flags() + Array(urls[offset...]))
        }
        if verbose {
            fputs("openurl: \(result["decision"]?.string ?? "?") \(result["final_url"]?.string ?? url) (\(outcome), by openurld)\n", stderr)
        }
        // The daemon has already notified about a failure it saw: one notification per failure.
        if let error = result["error"]?.string {
            fputs("openurl: \(url): \(error)\n", stderr)
            status = max(status, 4)
        } else if outcome.hasPrefix("failed") {
            fputs("openurl: \(url): \(outcome)\n", stderr)
            status = max(status, 4)
        }
    } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.InvalidArgs" {
        report(error.message, on: connection)
        status = max(status, 2)
    } catch let error as DBusError where ClickDeadline.isTimeout(error) {
        // Stopped or deadlocked: the daemon drops this call when it resumes (its deadline passed).
        fputs("openurl: openurld did not answer within \(Int(ClickDeadline.clientTimeout)) s; routing in-process\n", stderr)
        becomeTool(flags() + Array(urls[offset...]))
    } catch let error as DBusError where error.meansServiceUnavailable {
        if verbose { fputs("openurl: openurld is not available (\(error.message)); routing in-process (embedded mode)\n", stderr) }
        if status != 0 { fputs("openurl: earlier links failed (exit \(status))\n", stderr) }
        becomeTool(flags() + Array(urls[offset...]))
    } catch {
        report("\(url): \(error)", on: connection)
        status = max(status, 4)
    }
}
exit(status)
