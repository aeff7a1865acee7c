import DBus
import Foundation
import TestSupport
import Testing

/// Issue 22 through the real daemon: a mailto with a line break in a recipient ends in "Link
/// not opened" with the reason; a copy with a Bcc says it left the Bcc out; each built-in mail
/// target hands its (recording) mailer an argv with neither injected Bcc nor attachment, the
/// same argv `openurl test --json` shows; a click's display stays with that click.
@Suite(.serialized) struct MailLinkTests {
    static let copyConfig = """
        [settings]
        clipboard = "xclip"

        [default]
        open = "browser.desktop"

        [[rules]]
        name = "copy mail"
        match.scheme = "mailto"
        copy = true
        """

    func clipboard(_ harness: DaemonHarness) -> String? {
        try? harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout
    }

    /// openurld's notifications once closed into dunst's history, newest first.
    func notifications(_ server: NotificationServer, count: Int) throws -> [DunstHistoryEntry] {
        try server.closeIntoHistory { $0.filter { $0.appName == "openurld" }.count >= count }.filter { $0.appName == "openurld" }
    }

    @Test func aLineBreakInARecipientEndsInLinkNotOpened() throws {
        let harness = try DaemonHarness(config: Self.copyConfig, name: "crlf", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let link = "mailto:a@b.com%0D%0ABcc:%20spy@evil.com"
        let result = try harness.run([harness.openurl, link])
        #expect(result.status == 4, "\(result)")
        let note = try #require(try notifications(server, count: 1).first)
        #expect(note.summary == "Link not opened")
        #expect(note.body.contains("line break (CR or LF)") && note.body.contains("hidden Bcc"), "\(note.body)")
        #expect(try harness.settledOutcomes(of: link).first?.hasPrefix("failed: mailto recipient") == true)
        #expect(clipboard(harness)?.contains("spy") != true)
        #expect(harness.browser.records().isEmpty)
    }

    @Test func aCopyWithABccSaysItLeftTheBccOut() throws {
        let harness = try DaemonHarness(config: Self.copyConfig, name: "bcc", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let result = try harness.run([harness.openurl, "mailto:a@x.org?cc=c@x.org&bcc=hidden@x.org"])
        #expect(result.status == 0, "\(result)")
        #expect(eventually { clipboard(harness) == "a@x.org, c@x.org" })
        let note = try #require(try notifications(server, count: 1).first)
        #expect(note.summary == "Copied address")
        #expect(note.body.contains("Bcc left out"), "\(note.body)")
        #expect(!note.body.contains("hidden@"), "\(note.body)")
        let test = try harness.run([harness.openurl, "test", "mailto:a@x.org?bcc=hidden@x.org"])
        #expect(test.stdout.contains("copy text: a@x.org (Bcc left out)"), "\(test)")
    }

    // MARK: - Built-in mail targets

    /// One mail program as Debian 12 installs its entry, its program replaced by the recorder.
    struct MailerCase: Sendable, CustomTestStringConvertible {
        var target: String
        var id: String
        var exec: String
        var terminal = false
        /// The argv before the handed URL: after the terminal's `-e` for a terminal mailer.
        var before: [String]
        var testDescription: String { target }
    }

    static let injected = [
        ("mailto:a@b.com?subject=x',bcc='spy@evil.com", "mailto:a@b.com?subject=x%27%2Cbcc%3D%27spy%40evil.com"),
        ("mailto:a@b.com?body=x%27,attachment=%27file:///etc/passwd", "mailto:a@b.com?body=x%27%2Cattachment%3D%27file%3A%2F%2F%2Fetc%2Fpasswd"),
    ]

    @Test(arguments: [
        MailerCase(target: "thunderbird", id: "thunderbird.desktop", exec: "@ %u", before: ["-compose"]),
        MailerCase(target: "evolution", id: "org.gnome.Evolution.desktop", exec: "@ %U", before: []),
        // Geary's real entry is DBusActivatable; the recorder is spawned from its Exec instead.
        MailerCase(target: "geary", id: "org.gnome.Geary.desktop", exec: "@ %U", before: []),
        MailerCase(target: "kmail", id: "org.kde.kmail2.desktop", exec: "@ -qwindowtitle %c %u", before: ["-qwindowtitle", "KMail"]),
        MailerCase(target: "claws-mail", id: "claws-mail.desktop", exec: "@ %u", before: ["--compose"]),
        MailerCase(target: "mutt", id: "mutt.desktop", exec: "BIN/mutt %u", terminal: true, before: ["-e", "BIN/mutt"]),
        MailerCase(target: "neomutt", id: "neomutt.desktop", exec: "BIN/neomutt %u", terminal: true, before: ["-e", "BIN/neomutt"]),
        MailerCase(target: "aerc", id: "aerc.desktop", exec: "BIN/aerc %u", terminal: true, before: ["-e", "BIN/aerc"]),
    ])
    func eachMailerGetsNoInjectedBccOrAttachment(mailer: MailerCase) throws {
        // The terminal is the recorder too, so a terminal mailer's argv is what the terminal got.
        let recorder = try #require(RecordingBrowser.locate(), "build openurl-fake-browser")
        let harness = try DaemonHarness(config: "[default]\nopen = \"\(mailer.target)\"\n", name: "mail-\(mailer.target)",
                                        session: ["TERMINAL": recorder])
        let name = mailer.target == "kmail" ? "KMail" : mailer.target
        // A terminal mailer's program must exist for its entry to count; the terminal never runs it.
        let bin = harness.desktop.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/" + mailer.target, withDestinationPath: recorder)
        let before = mailer.before.map { $0.replacingOccurrences(of: "BIN", with: bin) }
        try harness.desktop.writeDesktopEntry(id: mailer.id, contents: IsolatedDesktop.desktopEntry(
            name: name, exec: mailer.exec.replacingOccurrences(of: "@", with: recorder).replacingOccurrences(of: "BIN", with: bin),
            mimeTypes: ["x-scheme-handler/mailto"], extra: mailer.terminal ? "Terminal=true\n" : ""))
        let listed = try harness.run([harness.openurl, "apps", "mailto"])
        let line = listed.stdout.split(separator: "\n").first { $0.hasPrefix(mailer.target + " ") }
        #expect(line?.split(separator: " ").map(String.init) == [mailer.target, "mailer", name], "\(listed)")
        for (index, (link, handed)) in Self.injected.enumerated() {
            let test = try harness.run([harness.openurl, "test", "--json", link])
            #expect(test.status == 0, "\(test)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(test.stdout.utf8)) as? [String: Any])
            #expect(json["decision"] as? String == "open")
            #expect(json["target"] as? String == mailer.target)
            #expect(json["final_url"] as? String == handed)
            #expect(json["argv"] as? [String] == [recorder] + before + [handed], "\(test.stdout)")
            #expect(try harness.run([harness.openurl, link]).status == 0)
            let records = harness.browser.waitForRecords(index + 1)
            #expect(records.last == before + [handed], "\(records)")
            #expect(records.last?.contains { $0.contains("bcc=") || $0.contains("attachment=") } == false)
        }
    }

    @Test func checkWarnsAboutAQuotedMailFieldAndAGlobNoURLHolds() throws {
        let harness = try DaemonHarness(config: """
            [apps.tb]
            exec = ["thunderbird", "-compose", "to='{to}',subject='{subject}'"]

            [[rules]]
            match.path = "/[éè]/*"
            open = "tb"

            [[rules]]
            match.scheme = "mailto"
            ask = ["geary", "copy"]
            """, name: "checkwarn")
        let result = try harness.run([harness.openurl, "check"])
        #expect(result.status == 0, "\(result)")
        var warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 3, "\(result)")
        #expect(warnings.last == "warning: mail target geary: Geary is not installed (no org.gnome.Geary.desktop was found), so its links are refused", "\(result)")
        warnings.removeLast()
        #expect(warnings.first?.hasPrefix("warning: \(harness.configPath):2:") == true, "\(result)")
        #expect(warnings.first?.contains("{to} is inside a quoted argument") == true)
        #expect(warnings.last?.hasPrefix("warning: \(harness.configPath):5:") == true, "\(result)")
        #expect(warnings.last?.contains("the class [éè]") == true)
    }

    // MARK: - A click's display is that click's

    @Test func reopenAndNotificationButtonsUseTheirOwnCallersDisplay() throws {
        let harness = try DaemonHarness(name: "clickdisplay", withDesktopSession: true, activationHasDisplay: false)
        let server = try #require(harness.notifications)
        // A clipboard command that records the display it was given.
        let clipboardLog = harness.desktop.root + "/clipboard.display"
        let script = harness.desktop.root + "/clipboard.sh"
        try "#!/bin/sh\ncat >/dev/null\necho \"${DISPLAY:--}\" >> \(clipboardLog)\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        try harness.writeConfig("[settings]\nclipboard = [\"\(script)\"]\n\n[default]\nopen = \"browser.desktop\"\n")
        func options(display: String) -> DBusValue {
            .vardict(["environment": .dictionary(keySignature: "s", valueSignature: "s",
                                                   [DBusDictEntry(key: .string("DISPLAY"), value: .string(display))])])
        }
        func clipboardDisplays() -> [String] {
            ((try? String(contentsOfFile: clipboardLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        // Caller A opens a link on :71.
        _ = try harness.call("Open", [.string("https://a.example/1"), options(display: ":71")])
        #expect(harness.browser.waitForRecords(1) == [["https://a.example/1"]])
        // Caller B copies on :72: the clipboard tool runs there, and its notification offers "Open".
        _ = try harness.call("Copy", [.string("https://b.example/2"), options(display: ":72")])
        #expect(eventually { clipboardDisplays() == [":72"] }, "\(clipboardDisplays())")
        #expect(eventually { (try? harness.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "1" })
        // Caller C opens on :73.
        _ = try harness.call("Open", [.string("https://c.example/3"), options(display: ":73")])
        #expect(harness.browser.waitForRecords(2).count == 2)
        // A reopen from a caller that sent no display uses the daemon's own (none), not :73's.
        let recent = try #require(try harness.call("Recent", [.uint32(10)]).first?.array?.compactMap(\.dictionary))
        let first = try #require(recent.first { $0["final_url"]?.string == "https://a.example/1" }?["id"]?.uint32)
        _ = try harness.call("Reopen", [.uint32(first), .string("work.desktop")])
        #expect(harness.browser.waitForRecords(3).last == ["--work", "https://a.example/1"])
        // B's notification button opens on B's display.
        var chosen = false
        #expect(eventually(timeout: 5) {
            if !chosen, (try? server.chooseAction(key: "open")) != nil { chosen = server.lastMenu.contains { $0.contains("Open") } }
            return chosen
        }, "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(4).last == ["https://b.example/2"])
        #expect(harness.browser.displays().map(\.x11) == [":71", ":73", "-", ":72"])
    }
}
