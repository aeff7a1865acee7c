import DBus
import Foundation
import TestSupport
import Testing

/// Issue 26, case 3: a notification server that goes away while it shows a question (dunst
/// killed, then started again) is a failure to ask, not the user's cancel: the question goes to
/// the window, or, with no other way, waits for the server and is shown again when its name is
/// back on the bus; nothing is shown twice.
@Suite(.serialized) struct NotificationServerFaultTests {
    static let prompt = "Open link with…"

    func prompts(_ server: NotificationServer) -> Int { server.shown.filter { $0.summary == Self.prompt }.count }

    @Test func aVanishedServerHandsTheQuestionToTheWindowAndShowsNothingTwice() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("ask_with = \"notification\""), name: "dunstgone", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let url = "https://one.ask.example/asked"
        let id = try Fault.open(harness, url).id
        #expect(eventually(timeout: 10) { prompts(server) == 1 }, "\(server.shown)")
        try server.kill()
        // The window takes the question over; the link is still being asked, not cancelled.
        let window = try #require(Fault.window(harness, host: "one.ask.example"), "the window did not take the question over; the daemon said:\n\(Fault.log(harness))\nand its stderr (the chooser's too):\n\(harness.bus.log.suffix(3000))")
        #expect(Fault.outcomes(harness, [id]) == ["asking"])
        try server.start()
        // A copy after the server is back shows its confirmation, and only that: the question is
        // in the window, so it is not shown again.
        #expect(try harness.run([harness.openurl, "copy", "https://example.org/copied"]).status == 0)
        #expect(eventually(timeout: 10) { server.shown.contains { $0.summary == "Copied link" } }, "\(server.shown)")
        #expect(prompts(server) == 1, "the question was shown twice: \(server.shown)")
        #expect(try server.displayedCount() == 1)
        try Fault.press(harness, window, "2")
        #expect(harness.browser.waitForRecords(1) == [["--work", url]])
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [id]) == ["done"] })
        #expect(Fault.log(harness).contains("the notification server left the bus with the question on screen"), "\(Fault.log(harness))")
    }

    @Test func withNoOtherWayTheQuestionWaitsForTheServerAndIsShownWhenItIsBack() throws {
        try Fault.requireTools()
        // The daemon has no display (the bus never got DISPLAY) and no picker: notifications are the only way.
        let harness = try DaemonHarness(config: Fault.config("ask_with = \"notification\""), name: "dunstback",
                                        withDesktopSession: true, activationHasDisplay: false)
        let server = try #require(harness.notifications)
        let url = "https://two.ask.example/waits"
        let id = try Fault.open(harness, url).id
        #expect(eventually(timeout: 10) { prompts(server) == 1 }, "\(server.shown)")
        try server.kill()
        #expect(eventually(timeout: 10) { Fault.log(harness).contains("asking again when a notification server is back") }, "\(Fault.log(harness))")
        #expect(Fault.outcomes(harness, [id]) == ["asking"], "a vanished server is not a cancel")
        #expect(harness.browser.records().isEmpty)
        try server.start()
        #expect(eventually(timeout: 10) { prompts(server) == 2 }, "the question was not shown by the new server: \(server.shown)")
        #expect(Fault.choose(server, key: "browser.desktop", label: "Recording Browser"), "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [id]) == ["done"] })
        #expect(Fault.windows(harness).isEmpty)
    }
}
