// A recording fake browser: appends its argv (NUL-separated, one record per line of the log
// file named by OPENURL_FAKE_BROWSER_LOG) so tests can see exactly what a launch passed.
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
// `--stay READY`: a browser that is already running: it writes READY and waits to be stopped,
// so tests can see targets picked by which browser runs (run through a link named after it).
if arguments.first == "--stay" {
    if let ready = arguments.dropFirst().first {
        let fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 { close(fd) }
    }
    while true { pause() }
}
guard let path = getenv("OPENURL_FAKE_BROWSER_LOG").map({ String(cString: $0) }) else {
    fputs("openurl-fake-browser: set OPENURL_FAKE_BROWSER_LOG\n", stderr)
    exit(2)
}

/// Appends `line` to `file`; false when it cannot be opened.
@discardableResult
func append(_ line: String, to file: String) -> Bool {
    let fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard fd >= 0 else { return false }
    var text = line
    _ = text.withUTF8 { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return true
}

// The side files come first: once a test sees the argv record, they are complete too.
// LOG.tokens: the activation token the launcher passed, so tests can check that a browser
// window would be raised. LOG.display: the display it was given, so tests can check that a
// daemon started without one still launches apps on the click's display. `-` when unset.
let token = getenv("XDG_ACTIVATION_TOKEN").map { String(cString: $0) } ?? "-"
let startupID = getenv("DESKTOP_STARTUP_ID").map { String(cString: $0) } ?? "-"
append("\(token) \(startupID)\n", to: path + ".tokens")
let display = getenv("DISPLAY").map { String(cString: $0) } ?? "-"
let wayland = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "-"
append("\(display) \(wayland)\n", to: path + ".display")

let record = arguments.map { arg in
    // Escape so one record is one line: backslash, newline and NUL become \\, \n and \0.
    arg.replacingAll("\\", "\\\\").replacingAll("\n", "\\n").replacingAll("\0", "\\0")
}.joined(separator: "\u{1F}") + "\n"
if !append(record, to: path) { perror("openurl-fake-browser"); exit(1) }

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
