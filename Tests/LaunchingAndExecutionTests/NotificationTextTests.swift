import Testing
@testable import Execution
@testable import Notifying
@testable import Launching
import TestSupport
import URLModel
import RoutingCore
import Catalog

@Suite struct NotificationTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;"),
        ("a & b", "a &amp; b"),
        ("&amp; stays visible", "&amp;amp; stays visible"),
        ("<a href=\"https://evil.example\">x</a>", "&lt;a href=&quot;https://evil.example&quot;&gt;x&lt;/a&gt;"),
        ("it's", "it&#39;s"),
        ("bücher ✓", "bücher ✓"),
    ])
    func markupIsEscaped(input: String, expected: String) {
        #expect(NotificationText.escapeMarkup(input) == expected)
    }

    @Test(arguments: [
        ("https://example.org/a", "example.org"),
        ("https://bücher.de/", "bücher.de (xn--bcher-kva.de)"),
        ("https://xn--bcher-kva.de/x", "bücher.de (xn--bcher-kva.de)"),
        // Cyrillic "а" in a look-alike of apple.com must show its punycode.
        ("https://\u{0430}pple.com/", "\u{0430}pple.com (xn--pple-43d.com)"),
    ])
    func hostLabelShowsBothFormsForIDN(url: String, expected: String) throws {
        #expect(NotificationText.hostLabel(try ParsedURL(url)) == expected)
    }

    @Test func copiedLinkLeadsWithTheHostAndOffersOpen() throws {
        let url = try ParsedURL("https://bücher.de/kaufen?x=1")
        let request = NotificationText.copied(text: url.string, url: url)
        #expect(request.summary == "Copied link")
        #expect(request.body == "bücher.de (xn--bcher-kva.de)\nhttps://xn--bcher-kva.de/kaufen?x=1")
        #expect(request.actions.map(\.key) == ["open"])
        #expect(request.icon == "edit-copy")
    }

    @Test func copiedAddressShowsTheAddressesWithIDNDomains() throws {
        let url = try ParsedURL("mailto:a@example.org,b@b%C3%BCcher.de")
        let request = NotificationText.copied(text: "a@example.org, b@bücher.de", url: url)
        #expect(request.summary == "Copied address")
        #expect(request.body == "a@example.org, b@bücher.de (b@xn--bcher-kva.de)")
    }

    @Test func aCopyThatLeftBccOutSaysSo() throws {
        let url = try ParsedURL("mailto:a@example.org?bcc=hidden@example.org")
        let request = NotificationText.copied(text: "a@example.org", url: url, leftOutBcc: true)
        #expect(request.body == "a@example.org\n" + NotificationText.bccLeftOutLine)
        let linkOnly = NotificationText.copied(text: "mailto:?subject=Hi", url: try ParsedURL("mailto:?bcc=h@x.org&subject=Hi"), leftOutBcc: true)
        #expect(linkOnly.summary == "Copied link" && linkOnly.body.hasSuffix(NotificationText.bccLeftOutLine))
        #expect(!NotificationText.copied(text: "a@example.org", url: url).body.contains("Bcc"))
    }

    @Test func longLinksAreShortenedForDisplay() throws {
        let long = "https://example.org/" + String(repeating: "a", count: 5000)
        let request = NotificationText.copied(text: long, url: try ParsedURL(long))
        #expect(request.body.count < 400)
        #expect(request.body.hasSuffix("…"))
    }

    @Test func errorTexts() {
        let launch = NotificationText.launchFailed(target: "firefox.desktop", url: "https://example.org/", error: "firefox: command not found")
        #expect(launch.summary == "Could not open link in firefox.desktop")
        #expect(launch.body == "firefox: command not found\nhttps://example.org/")
        let reload = NotificationText.configReloadFailed("/home/u/.config/openurld/config.toml:3:9: unknown key \"opn\"; did you mean \"open\"?")
        #expect(reload.summary == "openurld: config not reloaded")
        #expect(reload.body.hasPrefix("/home/u/.config/openurld/config.toml:3:9: unknown key"))
        #expect(reload.urgency == .critical)
    }

    @Test func summariesSayWhatHappened() {
        let defaults = NotificationText.configReloadFailed("\nc.toml:1:1: bad", usingDefaults: true)
        #expect(defaults.summary == "openurld: config error, using built-in defaults")
        #expect(defaults.body.hasPrefix("c.toml:1:1: bad\nLinks go to the previous default handler"))
        #expect(NotificationText.copyFailed(url: "mailto:a@x.org", error: "install xclip").summary == "Could not copy")
        #expect(NotificationText.discarded(url: "https://t.example/", rule: "no trackers").summary == "Link discarded by rule no trackers")
        #expect(NotificationText.discarded(url: "https://t.example/", rule: nil).summary == "Link discarded by [default]")
        let blocked = NotificationText.blocked(provider: "ads", url: "https://ads.example/")
        #expect(blocked.summary == "Link blocked by ads")
        #expect(blocked.actions.map(\.key) == [NotificationText.openAnywayActionKey])
        #expect(blocked.actions.map(\.label) == ["Open anyway"])
    }

    @Test func askOffersOneActionPerChoiceKeyedByTheConfigSpelling() throws {
        let choices = ChoiceLabels(catalog: AppCatalog()).choices([.open(.desktopEntry(id: "firefox.desktop", action: nil)), .open(.app("work")), .copy])
        // An entry discovery does not know is named by its id, never by a name made up from it (issue 21).
        #expect(choices.map(\.label) == ["firefox.desktop", "Work", "Copy"])
        let request = NotificationText.ask(url: try ParsedURL("https://example.org/x"), choices: choices)
        #expect(request.actions.map(\.key) == ["firefox.desktop", "work", "copy"])
        #expect(request.actions.map(\.label) == ["firefox.desktop", "Work", "Copy"])
        #expect(request.timeout == 0)
    }

    @Test func choiceLabelsComeFromDesktopEntries() throws {
        let desktop = try IsolatedDesktop(name: "labels")
        try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Recording Browser", exec: "true %u",
            extra: "Actions=private;\n\n[Desktop Action private]\nName=Private Window\nExec=true --private %u\n"))
        // As a config load sees it: the entry opens no links, so it is described because a target names it.
        let discovery = AppDiscovery(paths: XDGPaths(environment: desktop.environment), environment: desktop.environment)
        var catalog = discovery.catalog()
        catalog.others = discovery.entries(ids: ["browser.desktop"])
        let choices: [Choice.Action] = [.open(.desktopEntry(id: "browser.desktop", action: nil)),
                                    .open(.desktopEntry(id: "browser.desktop", action: "private")),
                                    .open(.webmail("gmail")), .open(.system), .discard]
        #expect(ChoiceLabels(catalog: catalog).choices(choices).map(\.label)
            == ["Recording Browser", "Recording Browser: Private Window", "Gmail", "Default browser", "Discard"])
    }

    @Test func duplicateLabelsAreMadeDistinct() {
        let catalog = AppCatalog(entries: [AppEntry(id: "work.desktop", name: "Work", schemes: ["https"])])
        let choices: [Choice.Action] = [.open(.app("work")), .open(.desktopEntry(id: "work.desktop", action: nil))]
        #expect(ChoiceLabels(catalog: catalog).choices(choices).map(\.label) == ["Work (work)", "Work (work.desktop)"])
    }

    @Test(arguments: [
        ("Work\n", PickerOutcome.chosen(1)),
        ("Work", .chosen(1)),
        ("  Copy  \n", .chosen(2)),
        ("Firefox\r\n", .chosen(0)),
        ("", .cancelled),
        ("\n", .cancelled),
        ("Something else\n", .failed("picker printed \"Something else\", which is none of the choices")),
    ])
    func pickerOutputMapsBackToAChoice(output: String, expected: PickerOutcome) {
        #expect(Picker.match(output: output, labels: ["Firefox", "Work", "Copy"]) == expected)
    }
}

