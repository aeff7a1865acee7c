import DBus
import RouterContract
import RoutingCore
import Testing

/// `ListTargets` and `ListApps`: what the daemon encodes a caller reads back, with the keys
/// and their order as the wire format.
@Suite struct ListingWireTests {
    @Test(arguments: [
        TargetListing(target: "firefox:Work", kind: .profile, name: "Work", app: "firefox-esr.desktop", isDefault: true),
        TargetListing(target: "system", kind: .system, name: "System default"),
        TargetListing(target: "chromium:app", kind: .appWindow, name: "App window (no tabs)", app: "chromium.desktop"),
    ])
    func aTargetRoundTrips(listing: TargetListing) {
        #expect(TargetListing(dbusValue: listing.dbusValue) == listing)
        #expect(TargetListing.list(.array(elementSignature: TargetListing.dbusSignature, [listing.dbusValue])) == [listing])
    }

    @Test func aTargetsKeysAreTheWireFormat() {
        let listing = TargetListing(target: "firefox", kind: .browser, name: "Firefox", app: "firefox-esr.desktop")
        #expect(listing.dbusValue.dictionaryEntries?.compactMap(\.key.string) == ["target", "kind", "name", "default", "app"])
    }

    @Test(arguments: [DBusValue.vardict(pairs: [("kind", .string("browser"))]),
                      .vardict(pairs: [("target", .string("x")), ("kind", .string("spaceship"))]), .string("firefox")])
    func whatIsNoTarget(value: DBusValue) {
        #expect(TargetListing(dbusValue: value) == nil)
    }

    @Test func anAppRoundTripsAndAStrangeEntryIsLeftOut() {
        let app = ListedApp(id: "firefox-esr.desktop", name: "Firefox ESR")
        #expect(ListedApp.list(.array(elementSignature: ListedApp.signature, [app.dbusValue])) == [app])
        #expect(ListedApp(dbusValue: .structure([.string("a")])) == nil)
    }
}
