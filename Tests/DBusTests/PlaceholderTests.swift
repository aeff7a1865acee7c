import Testing
import DBus

@Test func dbusModuleBuilds() { #expect(Bool(true)) }
