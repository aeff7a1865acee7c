import Foundation
import Testing
@testable import Launching
import TestSupport
import RoutingCore

/// Everything that spawns children runs serialized. Leftover children are collected with
/// `ChildProcess.reapStrays`, never `ChildReaper.reapAll`: its `waitpid(-1)` would take the
/// children that tests of other suites, running in parallel, are waiting on.
@Suite(.serialized) struct ProcessTests {}

/// A sandbox with the recording browser installed as `browser.desktop`.
struct LaunchFixture {
    let desktop: IsolatedDesktop
    let browser: RecordingBrowser
    let launcher: AppLauncher

    init(name: String = "launch") throws {
        desktop = try IsolatedDesktop(name: name)
        browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
        var environment = desktop.environment.merging(browser.environment) { $1 }
        environment["TERMINAL"] = browser.executable + " --terminal-flag"
        launcher = AppLauncher(paths: XDGPaths(environment: environment), environment: environment,
                               launcher: ProcessLauncher(workingDirectory: desktop.home))
        try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Recording Browser", exec: "\(browser.executable) --new-tab %u",
            mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"],
            extra: "Actions=private;plain;\n\n[Desktop Action private]\nName=Private\nExec=\(browser.executable) --private-window\n"
                + "\n[Desktop Action plain]\nName=Plain\nExec=\(browser.executable) --x=%u --y\n"))
    }

    /// Launches and returns the one recorded argv (fails the test if none arrives in time).
    func launchAndRecord(_ launch: Launch) throws -> [String] {
        let before = browser.records().count
        try launcher.launch(launch)
        let records = browser.waitForRecords(before + 1, timeout: 10)
        ChildProcess.reapStrays()
        try #require(records.count == before + 1, "the fake browser was not launched")
        return records[before]
    }
}

extension ProcessTests {
    @Suite struct Launching {
        static let hostileURLs = [
            "https://example.com/$(touch x)",
            "https://example.com/`touch x`",
            "https://example.com/a'b\"c\\d",
            "https://example.com/a b  c\t",
            "https://example.com/line\nbreak",
            "https://example.com/;touch x|touch x&>x",
            "https://example.com/%u %U %% %c %k",
            "https://example.com/" + String(repeating: "a", count: 4096),
        ]

        @Test(arguments: hostileURLs)
        func hostileURLArrivesAsOneIntactArgument(url: String) throws {
            let fixture = try LaunchFixture()
            let argv = try fixture.launchAndRecord(.desktopEntry(id: "browser.desktop", action: nil, url: url))
            #expect(argv == ["--new-tab", url])
            #expect(!FileManager.default.fileExists(atPath: fixture.desktop.home + "/x"))
            #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/x"))
        }

        @Test func desktopActions() throws {
            let fixture = try LaunchFixture()
            let url = "https://example.com/?q=1"
            #expect(try fixture.launchAndRecord(.desktopEntry(id: "browser.desktop", action: "private", url: url))
                    == ["--private-window", url])
            #expect(try fixture.launchAndRecord(.desktopEntry(id: "browser", action: "plain", url: url))
                    == ["--x=" + url, "--y"])
            #expect(throws: LaunchError.noSuchAction(entry: "browser.desktop", action: "nope")) {
                try fixture.launcher.launch(.desktopEntry(id: "browser.desktop", action: "nope", url: url))
            }
            #expect(throws: LaunchError.noSuchEntry("missing.desktop")) {
                try fixture.launcher.launch(.desktopEntry(id: "missing.desktop", action: nil, url: url))
            }
        }

        @Test func namedAppsWithArgumentsAndRawArgv() throws {
            let fixture = try LaunchFixture()
            let url = "https://example.com/p"
            #expect(try fixture.launchAndRecord(
                .desktopEntryWithArguments(id: "browser.desktop", arguments: ["--profile-directory=Profile 1", url])) == ["--profile-directory=Profile 1", url])
            #expect(try fixture.launchAndRecord(.argv([fixture.browser.executable, "--private-window", url]))
                    == ["--private-window", url])
        }

        @Test func terminalEntriesRunInsideTheTerminal() throws {
            let fixture = try LaunchFixture()
            try fixture.desktop.writeDesktopEntry(id: "mutt.desktop", contents: IsolatedDesktop.desktopEntry(
                name: "Mutt", exec: "/usr/bin/env mutt %u", mimeTypes: ["x-scheme-handler/mailto"], extra: "Terminal=true\n"))
            // $TERMINAL is the recording browser, so it records what the terminal would run.
            let url = "mailto:a@b.example?subject=hi there"
            #expect(try fixture.launchAndRecord(.desktopEntry(id: "mutt.desktop", action: nil, url: url))
                    == ["--terminal-flag", "-e", "/usr/bin/env", "mutt", url])
            var noTerminal = fixture.launcher
            noTerminal.environment["TERMINAL"] = nil
            #expect(noTerminal.terminalCommand() == ["x-terminal-emulator", "-e"])
        }

        @Test func dbusActivatableEntriesGoToTheActivator() throws {
            let fixture = try LaunchFixture()
            try fixture.desktop.writeDesktopEntry(id: "org.example.Mail-App.desktop", contents: IsolatedDesktop.desktopEntry(
                name: "Mail", exec: "\(fixture.browser.executable) --fallback %u", extra: "DBusActivatable=true\n"))
            let url = "mailto:x@y.example"
            var received: DBusActivationRequest?
            let pid = try fixture.launcher.launch(.desktopEntry(id: "org.example.Mail-App.desktop", action: nil, url: url),
                                                  activationToken: "tok-1") { received = $0 }
            #expect(pid == nil)
            #expect(received == DBusActivationRequest(
                busName: "org.example.Mail-App", objectPath: "/org/example/Mail_App", uris: [url], action: nil,
                platformData: ["activation-token": "tok-1", "desktop-startup-id": "tok-1"]))
            // Without an activator (no bus), the Exec line is the fallback.
            #expect(try fixture.launchAndRecord(.desktopEntry(id: "org.example.Mail-App.desktop", action: nil, url: url))
                    == ["--fallback", url])
        }

        @Test func listAppsExcludesOpenurld() throws {
            let fixture = try LaunchFixture()
            try fixture.desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: IsolatedDesktop.desktopEntry(
                name: "openurl", exec: "/bin/true %u", mimeTypes: ["x-scheme-handler/http"]))
            let apps = fixture.launcher.listApps(forScheme: "http")
            #expect(apps.map(\.id) == ["browser.desktop"])
            #expect(apps.first?.name == "Recording Browser")
        }
    }

    @Suite struct Spawning {
        @Test func activationTokenAndEnvironmentAreExplicit() throws {
            let launcher = ProcessLauncher()
            let base = ["PATH": "/usr/bin:/bin", "ONLY_THIS": "1", "DESKTOP_STARTUP_ID": "stale"]
            let withToken = try launcher.run(["env"], environment: ProcessLauncher.environment(base, activationToken: "T"))
            #expect(Set(withToken.outputText.split(separator: "\n").map(String.init))
                    == ["PATH=/usr/bin:/bin", "ONLY_THIS=1", "XDG_ACTIVATION_TOKEN=T", "DESKTOP_STARTUP_ID=T"])
            let without = try launcher.run(["env"], environment: ProcessLauncher.environment(base, activationToken: nil))
            #expect(!without.outputText.contains("DESKTOP_STARTUP_ID"))
        }

        @Test func childIsInItsOwnSessionWithStdinFromDevNull() throws {
            let result = try ProcessLauncher().run(["sh", "-c", "ps -o sid= -p $$; ps -o pid= -p $$; cat; echo end"],
                                                   environment: ["PATH": "/usr/bin:/bin"])
            let lines = result.outputText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.count == 3)
            #expect(lines.first == lines.dropFirst().first, "session id equals the child's pid")
            #expect(lines.last == "end")
        }

        @Test func stdinIsFedThenClosed() throws {
            let bytes = Array("copy me\n\u{0}binary\u{FF}".utf8) + Array(repeating: UInt8(ascii: "z"), count: 200_000)
            let result = try ProcessLauncher().run(["cat"], environment: ["PATH": "/usr/bin:/bin"], stdin: bytes)
            #expect(result.exitCode == 0)
            #expect(result.standardOutput.count == bytes.count)
            #expect(result.standardOutput == bytes, "stdout differs from stdin")
            let dir = try IsolatedDesktop(name: "stdin")
            let pid = try ProcessLauncher().spawn(["sh", "-c", "cat > \(dir.root)/out"], environment: ["PATH": "/usr/bin:/bin"],
                                                  stdin: Array("hello".utf8))
            #expect(ChildReaper.waitForExit(pid, timeout: 10) == 0)
            #expect(FileManager.default.contents(atPath: dir.root + "/out") == Data("hello".utf8))
        }

        @Test func errorsAreClear() {
            #expect(throws: SpawnError.notFound("no-such-program-xyz")) {
                try ProcessLauncher().spawn(["no-such-program-xyz"], environment: ["PATH": "/usr/bin:/bin"])
            }
            #expect(throws: SpawnError.emptyArgv) { try ProcessLauncher().spawn([], environment: [:]) }
        }

        @Test func runKillsAHangingCommandAtTheTimeout() throws {
            let start = Date()
            let result = try ProcessLauncher().run(["sleep", "30"], environment: ["PATH": "/usr/bin:/bin"], timeout: 0.3)
            #expect(result.exitCode == nil)
            #expect(Date().timeIntervalSince(start) < 5)
        }

        @Test func hundredSpawnsLeaveNoZombies() throws {
            #expect(ChildReaper.becomeSubreaper())
            var pending = Set<Int32>()
            for index in 0..<100 {
                // Every tenth child daemonises a grandchild, which the subreaper must collect too.
                let argv = index % 10 == 0 ? ["sh", "-c", "sleep 0.1 & exit 0"] : ["true"]
                pending.insert(try ProcessLauncher().spawn(argv, environment: ["PATH": "/usr/bin:/bin"]))
            }
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                for child in ChildProcess.reapStrays(settled: 0.05) { pending.remove(child.pid) }
                if pending.isEmpty && ChildProcess.children().isEmpty { break }
                usleep(20_000)
            }
            #expect(pending.isEmpty)
            #expect(ChildProcess.zombieChildren().isEmpty)
        }
    }

    @Suite struct RealOpenerChain {
        @Test func walksARealProcessChain() throws {
            // Test process → sh → env → sh → sleep. From the inner shell the walk must pass sh,
            // env and sh and land on this test process; from sleep it stops at sleep.
            let outer = try ProcessLauncher().spawn(["sh", "-c", "env sh -c 'sleep 20; :'; :"],
                                                    environment: ["PATH": "/usr/bin:/bin"])
            defer {
                kill(-outer, SIGKILL)
                _ = ChildReaper.waitForExit(outer, timeout: 5)
            }
            var sleeper: Int32?
            let deadline = Date().addingTimeInterval(10)
            while sleeper == nil, Date() < deadline {
                sleeper = Self.descendants(of: outer).first { Self.comm($0) == "sleep" }
                if sleeper == nil { usleep(10_000) }
            }
            let sleepPID = try #require(sleeper, "sleep did not start")
            let detector = OpenerDetector()
            #expect(detector.detect(pid: sleepPID).processName == "sleep")
            let innerShell = try #require(Self.parent(of: sleepPID))
            let opener = detector.detect(pid: innerShell)
            #expect(opener.pid == getpid())
            #expect(opener.processName == ProcessInfo.processInfo.processName
                    || (CommandLine.arguments[0] as NSString).lastPathComponent.hasPrefix(opener.processName ?? "-"))
        }

        static func comm(_ pid: Int32) -> String? {
            FileManager.default.contents(atPath: "/proc/\(pid)/comm").map {
                String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines)
            }
        }

        static func parent(of pid: Int32) -> Int32? { OpenerDetector().readStat(pid)?.parent }

        static func descendants(of root: Int32) -> [Int32] {
            let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
            var found: Set<Int32> = [root]
            var changed = true
            while changed {
                changed = false
                for pid in all where !found.contains(pid) {
                    if let parent = parent(of: pid), found.contains(parent) { found.insert(pid); changed = true }
                }
            }
            return Array(found.subtracting([root]))
        }
    }
}
