import DBus
import Foundation
import Testing
@testable import Execution
import TestSupport
@testable import ConfigLanguage

/// Reads a selection back with the tool's own reader, polling briefly: xsel hands the text to a
/// forked child after it exits, so the selection can change a few milliseconds later.
func readClipboard(_ argv: [String], environment: [String: String], expecting text: String) throws -> String {
    var last = ""
    let end = Date().addingTimeInterval(10)  // generous: xsel hands the selection to a forked child, slow on a loaded machine
    repeat {
        last = try Command.run(argv, environment: environment, timeout: 5).stdout
        if last == text { return last }
        usleep(20_000)
    } while Date() < end
    return last
}


/// Serves `connection` from an `EventLoop` on its own thread until deinit.
final class LoopThread {
    let loop: EventLoop
    private let finished = DispatchSemaphore(value: 0)

    init(serving connections: [DBusConnection], clock: LoopClock = .monotonic) throws {
        loop = try EventLoop(clock: clock)
        for connection in connections { try loop.add(connection) }
        let loop = self.loop, finished = self.finished
        Thread {
            loop.run(timeout: 60)  // bounded so a broken test cannot hang the suite
            finished.signal()
        }.start()
    }

    deinit {
        loop.stop()
        _ = finished.wait(timeout: .now() + 5)
    }
}

extension ProcessTests {
    @Suite struct ClipboardRoundTrips {
        static let texts = ["a@example.org", "https://bücher.de/a b?q='x'&y=\"$(touch z)\"", "two\nlines\n"]

        @Test func xclipIsChosenUnderX11AndTheTextOutlivesTheCopyingProcess() throws {
            let display = try VirtualDisplay()
            let env = display.environment()
            let choice = try #require(ClipboardSelector.select(setting: .auto, environment: env, bus: nil))
            #expect(choice.description == "xclip (auto: DISPLAY=\(display.display))")
            for text in Self.texts {
                try choice.writer.copy(text)
                // copy() returned: the xclip we spawned has exited; its forked server keeps the selection.
                #expect(try readClipboard(["xclip", "-o", "-selection", "clipboard"], environment: env, expecting: text) == text)
            }
        }

        @Test func xselRoundTrip() throws {
            let display = try VirtualDisplay()
            let env = display.environment()
            let writer = try #require(ClipboardSelector.choose(setting: .backend("xsel"), environment: env, bus: nil))
            #expect(writer.name == "xsel")
            for text in Self.texts {
                try writer.copy(text)
                #expect(try readClipboard(["xsel", "--clipboard", "--output"], environment: env, expecting: text) == text)
            }
        }

        @Test func wlCopyIsChosenUnderWaylandAndRoundTrips() throws {
            let display = try VirtualDisplay()
            let weston = try NestedWeston(display: display)
            let env = weston.environment()
            let choice = try #require(ClipboardSelector.select(setting: .auto, environment: env, bus: nil))
            #expect(choice.description == "wl-copy (auto: WAYLAND_DISPLAY=\(weston.waylandDisplay))")
            for text in Self.texts {
                try choice.writer.copy(text)
                #expect(try readClipboard(["wl-paste", "--no-newline"], environment: env, expecting: text) == text)
            }
        }

        @Test func customCommandGetsTheTextOnStdin() throws {
            let desktop = try IsolatedDesktop(name: "clip")
            let file = desktop.root + "/copied"
            let writer = try #require(ClipboardSelector.choose(
                setting: .command(["tee", file]), environment: desktop.environment, bus: nil))
            try writer.copy("a@example.org")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "a@example.org")
            let failing = CommandClipboard.custom(["false"], environment: desktop.environment)
            #expect(throws: ClipboardError.failed(backend: "false", message: "exited with status 1")) { try failing.copy("x") }
        }

        /// A command that never reads its stdin: the copy fails and says so (it used to report
        /// done after blocking the daemon ~5 s with only the pipe's 64 KiB delivered).
        @Test func aCommandThatDoesNotReadStdinIsAFailureNotADone() throws {
            let desktop = try IsolatedDesktop(name: "clip")
            let sleeper = CommandClipboard.custom(["sleep", "30"], environment: desktop.environment)
            let text = String(repeating: "x", count: 1 << 20)
            do {
                try sleeper.copy(text)
                Issue.record("a command that reads nothing was reported as copied")
            } catch let error as ClipboardError {
                #expect("\(error)".contains("took only") && "\(error)".contains("of the 1048576 bytes"), "\(error)")
            }
        }
    }

    @Suite struct ClipboardSelection {
        /// A PATH holding only the named (fake) tools.
        static func environment(tools: [String], _ extra: [String: String]) throws -> (IsolatedDesktop, [String: String]) {
            let desktop = try IsolatedDesktop(name: "clipsel")
            let bin = desktop.root + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            for tool in tools {
                try "#!/bin/sh\nexit 0\n".write(toFile: "\(bin)/\(tool)", atomically: true, encoding: .utf8)
                chmod("\(bin)/\(tool)", 0o755)
            }
            return (desktop, ["PATH": bin, "HOME": desktop.home].merging(extra) { $1 })
        }

        @Test(arguments: [
            (["wl-copy", "xclip", "xsel"], ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":3"], "wl-copy (auto: WAYLAND_DISPLAY=wayland-1)"),
            (["xclip", "xsel"], ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":3"], "xclip (auto: DISPLAY=:3)"),
            (["wl-copy", "xclip"], ["DISPLAY": ":3"], "xclip (auto: DISPLAY=:3)"),
            (["xsel"], ["DISPLAY": ":3"], "xsel (auto: DISPLAY=:3, xclip not installed)"),
            (["xclip", "xsel"], [:], "none (no clipboard tool: install wl-clipboard, xclip or xsel)"),
            ([], ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":3"], "none (no clipboard tool: install wl-clipboard, xclip or xsel)"),
        ])
        func autoOrder(tools: [String], variables: [String: String], expected: String) throws {
            let (desktop, env) = try Self.environment(tools: tools, variables)
            #expect(ClipboardSelector.describe(setting: .auto, environment: env, bus: nil) == expected)
            withExtendedLifetime(desktop) {}
        }

        @Test func noBackendAndMissingToolErrorsSayWhatToInstall() throws {
            let (desktop, env) = try Self.environment(tools: [], ["DISPLAY": ":3"])
            defer { withExtendedLifetime(desktop) {} }
            #expect(throws: ClipboardError.noBackend) { try ClipboardSelector.writer(setting: .auto, environment: env, bus: nil) }
            #expect(ClipboardError.noBackend.description == "no clipboard tool: install wl-clipboard, xclip or xsel")
            let xclip = try #require(ClipboardSelector.choose(setting: .backend("xclip"), environment: env, bus: nil))
            #expect(throws: ClipboardError.notInstalled(program: "xclip", package: "xclip")) { try xclip.copy("x") }
            #expect(ClipboardSelector.describe(setting: .backend("wl-copy"), environment: env, bus: nil) == "wl-copy (configured)")
        }

        @Test func klipperOnTheBusIsUsedWhenNoToolFits() throws {
            let bus = try PrivateBus()
            let service = try bus.connect()
            let received = Locked<[String]>([])
            try service.export(DBusObject(path: "/klipper", interfaces: [DBusInterface(
                name: "org.kde.klipper.klipper",
                methods: [DBusMethod("setClipboardContents", inputs: [DBusArgument("s", "s")]) { arguments, _ in
                    received.value.append(arguments.first?.string ?? "")
                    return []
                }])]))
            #expect(try service.requestName(KlipperClipboard.busName) == .primaryOwner)
            let serving = try LoopThread(serving: [service])
            let client = try bus.connect()
            let (desktop, env) = try Self.environment(tools: [], [:])
            defer { withExtendedLifetime(desktop) {} }
            let choice = try #require(ClipboardSelector.select(setting: .auto, environment: env, bus: client))
            #expect(choice.description == "klipper (auto: org.kde.klipper on the session bus)")
            try choice.writer.copy("a@example.org")
            #expect(received.value == ["a@example.org"])
            withExtendedLifetime(serving) {}
            try service.releaseName(KlipperClipboard.busName)
            #expect(throws: ClipboardError.self) { try KlipperClipboard(bus: client, timeout: 1).copy("x") }
        }
    }
}
