import Foundation
import Glibc
import Launching
import Testing
import TestSupport

extension ProcessTests {
    /// The test process's children are shared by every suite running in parallel: collecting
    /// leftovers must never take a child a harness is waiting on, and a harness whose child was
    /// taken says so at once instead of timing out as if the child hung.
    @Suite struct StrayReaping {
        @Test func aChildAHarnessWaitsOnIsLeftToIt() throws {
            let child = try ChildProcess(["sh", "-c", "exit 7"], captureOutput: false)
            let deadline = Date().addingTimeInterval(10)
            while !ChildProcess.zombieChildren().contains(child.pid), Date() < deadline { usleep(2_000) }
            #expect(ChildProcess.zombieChildren().contains(child.pid), "the child never exited")
            let reaped = ChildProcess.reapStrays(settled: 0)
            #expect(!reaped.contains { $0.pid == child.pid })
            #expect(child.poll() == 7)
        }

        @Test func aLauncherLeftoverIsCollectedOnceSettled() throws {
            let pid = try ProcessLauncher().spawn(["true"], environment: ["PATH": "/usr/bin:/bin"])
            let deadline = Date().addingTimeInterval(10)
            var collected = false
            while !collected, Date() < deadline {
                collected = ChildProcess.reapStrays(settled: 0.05).contains { $0.pid == pid }
                usleep(10_000)
            }
            #expect(collected)
            #expect(!ChildProcess.zombieChildren().contains(pid))
        }

        @Test func aChildInheritsNoDescriptorButItsThree() throws {
            // A descriptor opened without O_CLOEXEC, as Foundation's file writes open theirs.
            let path = FileManager.default.temporaryDirectory.path + "/inherit-\(getpid())"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            #expect(fd > 2)
            defer { close(fd); unlink(path) }
            let result = try Command.run(["sh", "-c", "ls /proc/$$/fd"])
            let inherited = result.stdout.split(separator: "\n").compactMap { Int32($0) }.filter { $0 > 2 }
            // The shell may hold one of its own (a script or the directory it lists), never ours.
            #expect(!inherited.contains(fd), "the child inherited descriptor \(fd): \(result.stdout)")
        }

        @Test func aChildTakenByAnotherWaitIsReportedNotWaitedOn() throws {
            let child = try ChildProcess(["true"], captureOutput: false)
            var status: Int32 = 0
            #expect(waitpid(child.pid, &status, 0) == child.pid)
            let started = Date()
            #expect(child.waitForExit(timeout: 10) == ChildProcess.reapedElsewhere)
            #expect(Date().timeIntervalSince(started) < 1)
            let result = ToolResult(status: ChildProcess.reapedElsewhere, stdout: "", stderr: "", timedOut: false)
            #expect(result.description.contains("taken by another waitpid"))
        }
    }
}
