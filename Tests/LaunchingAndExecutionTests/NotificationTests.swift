import DBus
import Foundation
import Testing
@testable import Execution
@testable import Notifying
import TestSupport
import ConfigLanguage
import Routing
@testable import RoutingCore

/// A private bus with dunst in an Xvfb, our connection served by an `EventLoop` thread, and a client on it.
final class NotifyFixture {
    let bus: PrivateBus
    let server: NotificationServer
    let connection: DBusConnection
    let client: NotificationClient
    let serving: LoopThread

    init() throws {
        bus = try PrivateBus()
        server = try NotificationServer(bus: bus)
        connection = try bus.connect()
        client = try NotificationClient(connection: connection)
        serving = try LoopThread(serving: [connection])
    }

    var loop: EventLoop { serving.loop }
}


/// The labels a picker is shown.
let labels = ["firefox.desktop", "Work", "Copy"]

/// An `ask` for https://example.org/x offering Firefox, Work and Copy.
func askRequest() throws -> AskRequest {
    let config = try ConfigLoader.load(text: """
        [apps.work]
        exec = ["true", "{url}"]

        [default]
        ask = ["firefox.desktop", "work", "copy"]
        """, path: "ask.toml")
    let decision = try RuleEngine(config: config).decide("https://example.org/x")
    #expect(decision.choices.map(\.label) == labels)
    return AskRequest(decision: decision)
}

extension ProcessTests {
    @Suite struct Notifications {
        @Test func notifyShowsUpWithOurAppNameAndAnEscapedBody() throws {
            let fixture = try NotifyFixture()
            let capabilities = try fixture.client.capabilities()
            #expect(capabilities.isSuperset(of: ["actions", "body-markup"]))
            #expect(try fixture.client.serverInformation().name == "dunst")
            let hostile = "<b>bold</b> & <a href=\"https://evil.example\">click</a>"
            let id = try fixture.client.notify(NotificationRequest(summary: "Copied link", body: hostile, icon: "edit-copy"))
            #expect(id > 0)
            try fixture.server.closeAll()
            let history = try fixture.server.waitForHistory { $0.contains { $0.id == Int(id) } }
            let entry = try #require(history.first { $0.id == Int(id) })
            #expect(entry.appName == "openurld")
            #expect(entry.summary == "Copied link")
            #expect(entry.body == "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;a href=&quot;https://evil.example&quot;&gt;click&lt;/a&gt;")
        }

        @Test func askByNotificationDeliversTheChosenActionKey() throws {
            let fixture = try NotifyFixture()
            let asker = Asker(notifications: fixture.client, picker: nil, loop: fixture.loop)
            let answer = Locked<[AskAnswer]>([])
            asker.ask(try askRequest()) { answer.value.append($0) }
            #expect(eventually { !fixture.client.pendingIDs.isEmpty })
            let id = try #require(fixture.client.pendingIDs.first)
            try fixture.server.chooseAction(id: id, key: "work")
            #expect(eventually { !answer.value.isEmpty })
            #expect(fixture.server.lastMenu.contains("#Work (Open link with…) [\(id),work]"))
            // The close that follows the action must not produce a second answer.
            #expect(eventually { fixture.client.pendingIDs.isEmpty })
            #expect(answer.value == [.chosen(try askRequest().choices[1], url: nil, remember: nil, keepAsking: false)])
        }

        @Test func closingTheAskNotificationAnswersCancelled() throws {
            let fixture = try NotifyFixture()
            let asker = Asker(notifications: fixture.client, picker: nil, loop: fixture.loop)
            let answer = Locked<[AskAnswer]>([])
            asker.ask(try askRequest()) { answer.value.append($0) }
            #expect(eventually { !fixture.client.pendingIDs.isEmpty })
            try fixture.server.closeAll()
            #expect(eventually { !answer.value.isEmpty })
            #expect(answer.value == [.cancelled])
        }

        @Test func aServerThatGoesAwayClosesPendingNotificationsAndDropsTheCache() throws {
            let fixture = try NotifyFixture()
            let reasons = Locked<[NotificationCloseReason]>([])
            try fixture.client.notify(NotificationRequest(summary: "s", body: "b"), onClose: { reasons.value.append($0) })
            #expect(try fixture.client.capabilities().contains("actions"))
            fixture.server.stop()
            #expect(eventually { reasons.value == [.serverGone] })
            #expect(throws: NotificationError.self) { try fixture.client.capabilities() }
        }

        @Test func aConfiguredPickerIsUsedEvenWhenTheServerHasActions() throws {
            let fixture = try NotifyFixture()
            // A dmenu stand-in that always picks the second line.
            let picker = Picker(argv: ["sed", "-n", "2p"], environment: fixture.server.environment)
            let asker = Asker(notifications: fixture.client, picker: picker, order: [.picker, .notification],
                              environment: fixture.server.environment, loop: fixture.loop)
            let answer = Locked<[AskAnswer]>([])
            asker.ask(try askRequest()) { answer.value.append($0) }
            #expect(eventually { !answer.value.isEmpty })
            #expect(answer.value == [.chosen(try askRequest().choices[1], url: nil, remember: nil, keepAsking: false)])
            #expect(fixture.client.pendingIDs.isEmpty)
        }
    }

    @Suite struct NoNotificationServer {
        @Test func notifyFailsFastWithAClearErrorAndCopyStillWorks() throws {
            let bus = try PrivateBus()
            let display = try VirtualDisplay()
            let connection = try bus.connect()
            let client = try NotificationClient(connection: connection)
            let start = Date()
            #expect {
                try client.notify(NotificationRequest(summary: "Copied link", body: "x"))
            } throws: { error in
                (error as? NotificationError)?.message.hasPrefix("no notification server on the session bus") == true
            }
            #expect(Date().timeIntervalSince(start) < 1)
            #expect(!client.supportsActions)
            let serving = try LoopThread(serving: [connection])
            let asker = Asker(notifications: client, picker: nil, loop: serving.loop)
            let answer = Locked<[AskAnswer]>([])
            asker.ask(try askRequest()) { answer.value.append($0) }
            #expect(eventually { !answer.value.isEmpty })
            guard case .unavailable(let why)? = answer.value.first else { Issue.record("answer: \(answer.value)"); return }
            #expect(why.contains("no notification server"), "\(why)")

            let env = bus.environment(display.environment())
            let writer = try ClipboardSelector.writer(setting: .auto, environment: env, bus: connection)
            try writer.copy("a@example.org")
            #expect(try readClipboard(["xclip", "-o", "-selection", "clipboard"], environment: env, expecting: "a@example.org") == "a@example.org")
        }
    }

    @Suite struct Pickers {
        @Test(arguments: [
            (["sed", "-n", "2p"], Optional(1)),
            (["head", "-n", "1"], Optional(0)),
            (["true"], nil),
            (["false"], nil),
            (["sh", "-c", "cat >/dev/null; echo Copy; exit 1"], nil),
        ] as [([String], Int?)])
        func pickerOutcomes(argv: [String], expected: Int?) {
            let picker = Picker(argv: argv, environment: ProcessInfo.processInfo.environment, timeout: 5)
            #expect(picker.pick(labels: labels).index == expected)
        }

        @Test func aPickerNobodyAnswersIsKilledAtTheTimeout() {
            let picker = Picker(argv: ["sleep", "30"], environment: ProcessInfo.processInfo.environment, timeout: 0.3)
            let start = Date()
            #expect(picker.pick(labels: labels) == .expired)
            #expect(Date().timeIntervalSince(start) < 3)
        }

        @Test func asyncPickDeliversOnTheLoopWhileItKeepsRunning() throws {
            let serving = try LoopThread(serving: [])
            let picker = Picker(argv: ["sh", "-c", "sleep 0.2; sed -n 3p"], environment: ProcessInfo.processInfo.environment)
            let outcome = Locked<PickerOutcome?>(nil)
            let ticks = Locked(0)
            serving.loop.addTimer(after: 0.01, repeating: 0.01) { ticks.value += 1 }
            picker.pick(labels: labels, loop: serving.loop) { outcome.value = $0 }
            #expect(eventually { outcome.value != nil })
            #expect(outcome.value == .chosen(2))
            #expect(ticks.value >= 5)  // the loop kept turning while the picker ran
        }
    }
}
