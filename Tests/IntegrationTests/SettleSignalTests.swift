import Foundation
import TestSupport
import Testing
import DBus
import RouterContract

/// Every outcome ends in one place (`settle`): a reopen to a target and a `Copy` outside the
/// rules are recorded in `recent` and signalled with `Routed`, like a click.
@Suite struct SettleSignalTests {
    static let config = DaemonTests.config

    /// Watches `Routed` on the harness's bus; `signals()` pumps the watcher and returns what came.
    final class RoutedWatcher {
        let connection: DBusConnection
        var received: [[String]] = []
        init(_ harness: DaemonHarness) throws {
            connection = try harness.connect()
            try connection.onSignal(interface: DaemonHarness.interface, member: RoutedSignal.name) { [unowned self] signal in
                guard let routed = try? RoutedSignal(arguments: signal.arguments) else { return }
                self.received.append(routed.arguments.compactMap(\.string))
            }
        }
        func waitFor(_ condition: ([[String]]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if condition(received) { return true }
                _ = connection.readWriteDispatch(timeout: 0.1)
                while connection.dispatch() {}
            }
            return condition(received)
        }
    }

    @Test func reopenToATargetIsRecordedAndSignalled() throws {
        let harness = try DaemonHarness(config: Self.config, name: "settle-reopen")
        let watcher = try RoutedWatcher(harness)
        _ = try harness.call("Open", [.string("https://example.org/s"), .vardict([:])])
        #expect(watcher.waitFor { $0.count == 1 }, "\(watcher.received)")
        let id = try #require(try harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary?["id"]?.uint32)
        _ = try harness.call("Reopen", [.uint32(id), .string("work.desktop")])
        #expect(watcher.waitFor { $0.count == 2 }, "\(watcher.received)")
        #expect(watcher.received.last == ["https://example.org/s", "open", "work.desktop", ""])
        #expect(eventually(timeout: 5) { (try? harness.outcomes(of: "https://example.org/s")) == ["done", "done"] },
                "\((try? harness.outcomes(of: "https://example.org/s")) ?? [])")
    }

    @Test func copyOutsideTheRulesIsRecordedAndSignalled() throws {
        let harness = try DaemonHarness(config: Self.config, name: "settle-copy", withDesktopSession: true)
        let watcher = try RoutedWatcher(harness)
        _ = try harness.call("Copy", [.string("mailto:a@example.org?subject=Hi"), .vardict([:])])
        #expect(watcher.waitFor { $0.count == 1 }, "\(watcher.received)")
        #expect(watcher.received.first?[1] == "copy")
        #expect(try harness.outcomes(of: "mailto:a@example.org?subject=Hi") == ["done"])
    }
}
