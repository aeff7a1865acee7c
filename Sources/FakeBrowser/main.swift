// A recording fake browser: appends its argv (NUL-separated, one record per line of the log
// file named by OPENURL_FAKE_BROWSER_LOG) so tests can see exactly what a launch passed.
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
guard let path = getenv("OPENURL_FAKE_BROWSER_LOG").map({ String(cString: $0) }) else {
    fputs("openurl-fake-browser: set OPENURL_FAKE_BROWSER_LOG\n", stderr)
    exit(2)
}
var record = arguments.map { arg in
    // Escape so one record is one line: backslash, newline and NUL become \\, \n and \0.
    arg.replacingAll("\\", "\\\\").replacingAll("\n", "\\n").replacingAll("\0", "\\0")
}.joined(separator: "\u{1F}") + "\n"
let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
if fd < 0 { perror("openurl-fake-browser"); exit(1) }
_ = record.withUTF8 { write(fd, $0.baseAddress, $0.count) }
close(fd)

// The activation token the launcher passed, one line per launch in LOG.tokens, so tests can
// check that a browser window would be raised.
let token = getenv("XDG_ACTIVATION_TOKEN").map { String(cString: $0) } ?? "-"
let startupID = getenv("DESKTOP_STARTUP_ID").map { String(cString: $0) } ?? "-"
var tokenLine = "\(token) \(startupID)\n"
let tokenFD = open(path + ".tokens", O_WRONLY | O_CREAT | O_APPEND, 0o644)
if tokenFD >= 0 {
    _ = tokenLine.withUTF8 { write(tokenFD, $0.baseAddress, $0.count) }
    close(tokenFD)
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

// The display it was given, one line per launch in LOG.display (`-` when unset), so tests can
// check that a daemon started without one still launches apps on the click's display.
let display = getenv("DISPLAY").map { String(cString: $0) } ?? "-"
let wayland = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "-"
var displayLine = "\(display) \(wayland)\n"
let displayFD = open(path + ".display", O_WRONLY | O_CREAT | O_APPEND, 0o644)
if displayFD >= 0 {
    _ = displayLine.withUTF8 { write(displayFD, $0.baseAddress, $0.count) }
    close(displayFD)
}
