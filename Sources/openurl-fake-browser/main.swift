// A recording fake browser: appends its argv (NUL-separated, one record per line of the log
// file named by OPENURL_FAKE_BROWSER_LOG) so tests can see exactly what a launch passed.
import Platform

let arguments = CommandLine.arguments.dropFirst()
// `--stay READY`: a browser that is already running: it writes READY and waits to be stopped,
// so tests can see targets picked by which browser runs (run through a link named after it).
if arguments.first == "--stay" {
    if let ready = arguments.dropFirst().first {
        try? FileSystem.write([], to: ready, mode: 0o644)
    }
    while true { pause(seconds: 3600) }
}
guard let path = Environment.value("OPENURL_FAKE_BROWSER_LOG") else {
    StandardStream.error.write("openurl-fake-browser: set OPENURL_FAKE_BROWSER_LOG\n")
    exitProcess(2)
}

/// Appends `line` to `file`; the reason when it cannot.
@discardableResult
func append(_ line: String, to file: String) -> SystemError? {
    do {
        try AppendingFile(file, mode: 0o644).write(line)
        return nil
    } catch {
        return error
    }
}

// The side files come first: once a test sees the argv record, they are complete too.
// LOG.tokens: the activation token the launcher passed, so tests can check that a browser
// window would be raised. LOG.display: the display it was given, so tests can check that a
// daemon started without one still launches apps on the click's display. `-` when unset.
let token = Environment.value("XDG_ACTIVATION_TOKEN") ?? "-"
let startupID = Environment.value("DESKTOP_STARTUP_ID") ?? "-"
append("\(token) \(startupID)\n", to: path + ".tokens")
let display = Environment.value("DISPLAY") ?? "-"
let wayland = Environment.value("WAYLAND_DISPLAY") ?? "-"
append("\(display) \(wayland)\n", to: path + ".display")

let record = arguments.map { arg in
    // Escape so one record is one line: backslash, newline and NUL become \\, \n and \0.
    arg.replacingAll("\\", "\\\\").replacingAll("\n", "\\n").replacingAll("\0", "\\0")
}.joined(separator: "\u{1F}") + "\n"
if let error = append(record, to: path) {
    StandardStream.error.write("openurl-fake-browser: \(error)\n")
    exitProcess(1)
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
