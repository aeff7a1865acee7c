import Foundation
import RoutingCore
@testable import SessionState
import TestSupport
import Testing

/// The X11 reader behind a click's moment (focused window, held keys), against a real Xvfb, and
/// each way it cannot answer: every such case is an `unknown` with a reason a person can act on.
@Suite struct X11SnapshotTests {
    /// Reads `display` with a timeout generous enough for a loaded test machine.
    static func read(_ environment: [String: String]) -> (window: Known<String>, modifiers: Known<Set<Modifier>>) {
        X11Snapshot.read(environment: environment, timeout: 5)
    }

    @Test func aDisplayWithoutAWindowManagerKnowsTheKeysButNotTheWindow() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }  // alive to the end: Swift may release it after its last use
        let moment = Self.read(display.environment())
        #expect(moment.window == .unknown("the window manager does not set _NET_ACTIVE_WINDOW"))
        #expect(moment.modifiers == .known([]))
    }

    /// With a window manager (openbox) setting `_NET_ACTIVE_WINDOW`: the focused window's title,
    /// then the keys xdotool holds down.
    @Test func theFocusedWindowsTitleAndTheHeldKeysAreRead() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        var environment = display.environment()
        // openbox needs its rc.xml from the system's config directories.
        environment["XDG_CONFIG_DIRS"] = "/etc/xdg"
        let manager = try ChildProcess(["openbox", "--sm-disable"], environment: environment, captureOutput: false)
        defer { _ = manager.terminate(grace: 1) }
        let window = try ChildProcess(["xev", "-name", "openurld test window"], environment: environment, captureOutput: false)
        defer { _ = window.terminate(grace: 1) }
        let search = try Command.run(["xdotool", "search", "--sync", "--name", "openurld test window"], environment: environment, timeout: 20)
        let id = try #require(search.stdout.split(separator: "\n").last.map(String.init), "\(search)")
        // openbox may not manage the screen yet when the window maps (a loaded CI machine saw "no
        // window has the focus" for 10 s after one activation): ask again until the manager takes it.
        #expect(eventually(timeout: 20) {
            _ = try? Command.run(["xdotool", "windowactivate", id], environment: environment, timeout: 5)
            return Self.read(environment).window == .known("openurld test window")
        }, "\(Self.read(environment).window)")
        #expect(Self.read(environment).modifiers == .known([]))

        for key in ["shift", "ctrl"] { _ = try Command.run(["xdotool", "keydown", key], environment: environment, timeout: 10) }
        #expect(eventually { Self.read(environment).modifiers == .known([.shift, .ctrl]) }, "\(Self.read(environment).modifiers)")
        for key in ["shift", "ctrl"] { _ = try Command.run(["xdotool", "keyup", key], environment: environment, timeout: 10) }
        #expect(eventually { Self.read(environment).modifiers == .known([]) }, "\(Self.read(environment).modifiers)")
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        var name: String
        var environment: [String: String]
        /// The reason, or its start when it ends with ": ".
        var reason: String
        var testDescription: String { name }
    }

    static let failures: [FailureCase] = [
        FailureCase(name: "no display", environment: [:], reason: "no DISPLAY for this click"),
        FailureCase(name: "an empty DISPLAY", environment: ["DISPLAY": ""], reason: "no DISPLAY for this click"),
        FailureCase(name: "a Wayland session", environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"],
                    reason: "a Wayland session: the compositor tells no other program the focused window or the keys held"),
        FailureCase(name: "a Wayland display beside Xwayland", environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"],
                    reason: "a Wayland session: the compositor tells no other program the focused window or the keys held"),
        FailureCase(name: "a remote display", environment: ["DISPLAY": "remote.example:0"],
                    reason: "DISPLAY=remote.example:0 is not a local X11 display (:N)"),
        FailureCase(name: "a display nothing serves", environment: ["DISPLAY": ":54321", "HOME": "/nonexistent"],
                    reason: "X11 display :54321: "),
    ]

    @Test(arguments: failures)
    func aDisplayThatCannotAnswerGivesAReason(_ test: FailureCase) {
        let moment = Self.read(test.environment)
        guard case .unknown(let reason) = moment.window else { Issue.record("known: \(moment.window)"); return }
        #expect(moment.modifiers == .unknown(reason), "window and keys give the same reason")
        if test.reason.hasSuffix(": ") {
            #expect(reason.hasPrefix(test.reason) && reason.count > test.reason.count, "\(reason)")
        } else {
            #expect(reason == test.reason)
        }
    }

    struct DisplayName: Sendable, CustomTestStringConvertible {
        var text: String
        var parsed: [Int]?
        var testDescription: String { text.isEmpty ? "(empty)" : text }
    }

    static let displayNames: [DisplayName] = [
        DisplayName(text: ":1", parsed: [1, 0]), DisplayName(text: ":1.2", parsed: [1, 2]), DisplayName(text: "unix:3", parsed: [3, 0]),
        DisplayName(text: "host:1", parsed: nil), DisplayName(text: ":x", parsed: nil), DisplayName(text: "", parsed: nil),
        DisplayName(text: ":-1", parsed: nil),
    ]

    @Test(arguments: displayNames)
    func onlyLocalDisplayNamesAreSpokenTo(_ test: DisplayName) {
        #expect(X11Snapshot.parseDisplay(test.text).map { [$0.0, $0.1] } == test.parsed)
    }
}
