@testable import ArrivalPaths
import Testing

/// Lines that set `$BROWSER`, in the shells' and systemd's forms, and lines that do not.
struct BrowserVariableTests {
    @Test(arguments: [
        ("BROWSER=firefox", "firefox"),
        ("export BROWSER=chromium", "chromium"),
        ("export BROWSER=\"w3m %s\"", "\"w3m %s\""),
        ("declare -x BROWSER=lynx", "lynx"),
        ("set -gx BROWSER brave", "brave"),
        ("set -x BROWSER  brave ", "brave"),
    ])
    func readsAnAssignment(line: String, value: String) {
        #expect(BrowserVariable.assignment(line) == value)
    }

    @Test(arguments: ["# BROWSER=firefox", "MYBROWSER=firefox", "echo $BROWSER", "set -gx EDITOR vim", "BROWSERS=x", ""])
    func ignoresOtherLines(line: String) {
        #expect(BrowserVariable.assignment(line) == nil)
    }
}
