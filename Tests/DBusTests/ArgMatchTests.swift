import DBus
import Foundation
import TestSupport
import Testing

@Suite struct ArgMatchTests {
    @Test func arg0SubscriptionSeesOnlyThatNamesOwnerChanges() throws {
        let bus = try PrivateBus()
        let watcher = try bus.connect()
        let owner = try bus.connect()
        let seen = Locked<[String]>([])
        try watcher.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: "/org/freedesktop/DBus",
                             sender: "org.freedesktop.DBus", arg0: "io.github.openurld.Watched") { signal in
            seen.value.append(signal.arguments.first?.string ?? "")
        }
        #expect(try owner.requestName("io.github.openurld.Other") == .primaryOwner)
        #expect(try owner.requestName("io.github.openurld.Watched") == .primaryOwner)
        try owner.releaseName("io.github.openurld.Watched")
        let end = Date().addingTimeInterval(5)
        while seen.value.count < 2, Date() < end { _ = watcher.readWriteDispatch(timeout: 0.05) }
        _ = watcher.readWriteDispatch(timeout: 0.1)
        #expect(seen.value == ["io.github.openurld.Watched", "io.github.openurld.Watched"])
        #expect(throws: DBusError.self) {
            try watcher.onSignal(interface: nil, member: "X", arg0: "it's") { _ in }
        }
    }
}
