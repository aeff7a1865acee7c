import Foundation
import TestSupport
import Testing

extension RealBrowsers {
/// Issue 34: the companion WebExtension (`browser/`) in Debian's real Firefox ESR and Chromium,
/// talking to a native messaging host. Until openurld's own host exists, the host is the
/// stand-in `Fixtures/standin-native-host.py` (keep for hosts containing "stay", "elsewhere"
/// otherwise; records every message). Under Xvfb (so a second `firefox-esr --profile DIR URL`
/// or `chromium --profile-directory=Work URL`, as the daemon launches them, reaches the running
/// browser); every page goes through one recording proxy, which also serves the test page, so
/// what it recorded proves what the browser loaded. Every browser is killed before a test ends.
@Suite(.serialized) struct CompanionExtensionTests {
    static let page = "http://page.example/links.html"

    /// A kept click navigates in the page; a click that goes elsewhere does not, and the host got
    /// an `open` with the link's visible text and the page's URL.
    static func checkClicks(_ desktop: CompanionDesktop, _ page: PageDriver) throws {
        let proxy = desktop.proxy
        // Kept: the browser navigates (after waiting for the answer or finding it cached).
        try page.navigate(Self.page)
        try page.click("#keep")
        #expect(proxy.wait(for: "http://stay.example/kept", timeout: 20), "the kept link was not loaded: \(proxy.requests)")
        #expect(eventually(timeout: 20) { (try? page.evaluate("location.href") as? String) == "http://stay.example/kept" }, "the page did not go to http://stay.example/kept")
        #expect(try desktop.explained("http://stay.example/kept").first?["origin"] as? String == Self.page,
                "the host was not asked about the kept link: \(desktop.records("messages.jsonl"))")

        // Same site, setting off: the host says keep, the page navigates.
        try page.navigate(Self.page)
        try page.click("#samesite")
        #expect(proxy.wait(for: "http://page.example/same", timeout: 20), "the same-site link was not loaded: \(proxy.requests)")
        #expect(eventually(timeout: 20) { (try? page.evaluate("location.href") as? String) == "http://page.example/same" }, "the page did not go to http://page.example/same")
        #expect(try desktop.explained("http://page.example/same").first?["sameSite"] as? Bool == false)

        // Elsewhere: stopped here, sent to openurld with its text and origin.
        for (selector, url, text) in [("#elsewhere", "http://elsewhere.example/away?x=1", "Elsewhere link"),
                                      ("#spoof", "http://evil.example/login", "paypal.com"),
                                      ("#image", "http://elsewhere.example/image", "Picture link")] {
            try page.navigate(Self.page)
            let pageLoads = proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count
            try page.click(selector)
            try expectOpenedElsewhere(desktop, page, url: url, text: text, pageLoads: pageLoads)
        }
        // Nothing kept was sent to open.
        #expect(desktop.opens("http://stay.example/kept").isEmpty && desktop.opens("http://page.example/same").isEmpty)
    }

    /// `url` reached the host's `open` once, with `text` and the page as origin, and the browser
    /// neither loaded it nor reloaded the page.
    static func expectOpenedElsewhere(_ desktop: CompanionDesktop, _ page: PageDriver, url: String, text: String, pageLoads: Int,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        var opened: [JSONObject] = []
        #expect(eventually(timeout: 20) { opened = desktop.opens(url); return !opened.isEmpty },
                "no open for \(url); the host saw \(desktop.records("messages.jsonl"))", sourceLocation: sourceLocation)
        #expect(opened.count == 1, "\(opened)", sourceLocation: sourceLocation)
        #expect(opened.first?["text"] as? String == text, "\(opened)", sourceLocation: sourceLocation)
        #expect(opened.first?["origin"] as? String == Self.page, "\(opened)", sourceLocation: sourceLocation)
        // The host said done: the page stays (no load of the link, no reload of the page).
        #expect(try page.evaluate("location.href") as? String == Self.page, sourceLocation: sourceLocation)
        #expect(!desktop.proxy.saw(url), "\(url) was loaded in the browser too", sourceLocation: sourceLocation)
        #expect(desktop.proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count == pageLoads, "the page was reloaded",
                sourceLocation: sourceLocation)
    }

    /// A click whose answer is late waits for it; one the host never answers in time stays in
    /// the browser; a link answered before the click is released is left to the page at once;
    /// Ctrl+click is the user's: the browser opens it in a new tab.
    static func checkTiming(_ desktop: CompanionDesktop, _ page: PageDriver) throws {
        let proxy = desktop.proxy
        // Answered (keep) after 0.5 s: the extension navigates itself.
        try page.navigate(Self.page)
        try page.click("#lagkeep")
        #expect(proxy.wait(for: "http://stay-lag.example/k", timeout: 20), "the late-kept link was not loaded: \(proxy.requests)")
        #expect(eventually(timeout: 20) { (try? page.evaluate("location.href") as? String) == "http://stay-lag.example/k" }, "the page did not go to http://stay-lag.example/k")
        // Kept late, target=_blank: a new tab loads it, the page stays.
        try page.navigate(Self.page)
        try page.click("#blank")
        #expect(proxy.wait(for: "http://stay-lag.example/new-tab", timeout: 20), "the late-kept _blank link was not loaded: \(proxy.requests)")
        #expect(try page.evaluate("location.href") as? String == Self.page)
        try page.front()
        // Answered (elsewhere) after 0.5 s: sent to the host, not loaded.
        try page.navigate(Self.page)
        var pageLoads = proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count
        try page.click("#lagaway")
        try expectOpenedElsewhere(desktop, page, url: "http://lag-away.example/a", text: "elsewhere, answered late", pageLoads: pageLoads)
        // Pressed, answered, then released: the cached keep lets the page see a plain click (no
        // preventDefault, no stopped propagation) and the browser follows the link itself.
        try page.navigate(Self.page)
        try page.press("#anchor")
        #expect(eventually(timeout: 10) { (try? desktop.explained(Self.page + "#here").isEmpty == false) ?? false },
                "pressing the link did not ask the host: \(desktop.records("messages.jsonl"))")
        usleep(200_000) // the answer's way back to the page (background → content script)
        try page.release()
        #expect(eventually(timeout: 10) { (try? page.evaluate("location.hash") as? String) == "#here" })
        #expect(try page.evaluate("document.body.getAttribute('data-saw')") as? String == "anchor:plain ")
        // Pressed, answered (elsewhere), then released: stopped before the page's own handlers.
        try page.navigate(Self.page)
        pageLoads = proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count
        try page.press("#spoof")
        #expect(eventually(timeout: 10) { (try? desktop.explained("http://evil.example/login").isEmpty == false) ?? false })
        usleep(200_000)
        try page.release()
        try expectOpenedElsewhere(desktop, page, url: "http://evil.example/login", text: "paypal.com", pageLoads: pageLoads)
        #expect(try page.evaluate("String(document.body.getAttribute('data-saw'))") as? String == "null",
                "the page's handlers saw a click that went elsewhere")
        // The keyboard: Enter on a focused link.
        try page.navigate(Self.page)
        pageLoads = proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count
        try page.enter("#elsewhere")
        try expectOpenedElsewhere(desktop, page, url: "http://elsewhere.example/away?x=1", text: "Elsewhere link", pageLoads: pageLoads)
        try page.navigate(Self.page)
        try page.enter("#keep")
        #expect(proxy.wait(for: "http://stay.example/kept", timeout: 20), "Enter on the kept link did not load it")
        // Ctrl+click: the extension stays out of it (the browser opens a background tab).
        try page.navigate(Self.page)
        pageLoads = proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count
        try page.ctrlClick("#elsewhere")
        #expect(proxy.wait(for: "http://elsewhere.example/away?x=1", timeout: 20), "Ctrl+click did not open the link in the browser")
        #expect(desktop.opens("http://elsewhere.example/away?x=1").count == 1, "Ctrl+click was sent to openurld (only Enter's open is expected)")
        #expect(try page.evaluate("document.body.getAttribute('data-saw')") as? String == "elsewhere:plain ")
        // Never answered in time (3 s > 1.5 s): the browser keeps the link; last, as the
        // stand-in answers nothing else while it sleeps.
        try page.navigate(Self.page)
        try page.click("#slow")
        #expect(proxy.wait(for: "http://slow.example/x", timeout: 20), "the unanswered link was lost: \(proxy.requests)")
        #expect(desktop.opens("http://slow.example/x").isEmpty)
    }

    /// A mailto link goes to the host; a link in a frame is sent with the frame's URL as origin;
    /// with "Route links to the same site too" ticked in the options page, a same-site link is
    /// asked with `sameSite: true` (and the stand-in sends it elsewhere).
    static func checkDetails(_ desktop: CompanionDesktop, _ page: PageDriver) throws {
        try page.navigate(Self.page)
        try page.click("#mail")
        var opened: [JSONObject] = []
        #expect(eventually(timeout: 20) { opened = desktop.opens("mailto:someone@example.org?subject=Hi%20there"); return !opened.isEmpty },
                "the mailto link did not reach the host: \(desktop.records("messages.jsonl"))")
        #expect(opened.first?["text"] as? String == "write to someone")

        try page.navigate(Self.page)
        #expect(eventually(timeout: 20) { (try? page.evaluate("document.body.getAttribute('data-frame')") as? String) == "loaded" }, "the frame did not load")
        try page.clickInFrame("#frame", "#framed")
        #expect(eventually(timeout: 20) { opened = desktop.opens("http://elsewhere.example/from-frame"); return !opened.isEmpty },
                "the framed link did not reach the host: \(desktop.records("messages.jsonl")); the proxy saw \(desktop.proxy.requests)")
        #expect(opened.first?["origin"] as? String == "http://frame.example/inner.html", "\(opened)")
        #expect(opened.first?["text"] as? String == "framed link", "\(opened)")
        #expect(!desktop.proxy.saw("http://elsewhere.example/from-frame"))

        try page.navigate(page.extensionBase + "options.html")
        #expect(eventually(timeout: 10) { (try? page.evaluate("document.getElementById('status').textContent") as? String)?.hasPrefix("Connected to openurld 0.1.0-standin") == true },
                "the options page does not show the host: \(String(describing: try? page.evaluate("document.body.innerText")))")
        #expect(try page.evaluate("document.getElementById('sameSite').checked") as? Bool == false, "the same-site setting is not off by default")
        try page.click("#sameSite")
        #expect(try page.evaluate("document.getElementById('sameSite').checked") as? Bool == true)
        try page.navigate(Self.page)
        let pageLoads = desktop.proxy.requests.filter { $0.hasPrefix("GET \(Self.page) ") }.count
        try page.click("#samesite")
        try expectOpenedElsewhere(desktop, page, url: "http://page.example/same", text: "same site", pageLoads: pageLoads)
        #expect(try desktop.explained("http://page.example/same").last?["sameSite"] as? Bool == true)
    }

    /// With no host installed every click stays in the browser.
    static func checkNoHost(_ desktop: CompanionDesktop, _ page: PageDriver) throws {
        for (selector, url) in [("#elsewhere", "http://elsewhere.example/away?x=1"), ("#keep", "http://stay.example/kept")] {
            try page.navigate(Self.page)
            try page.click(selector)
            #expect(desktop.proxy.wait(for: url, timeout: 20), "\(url) was lost with no host: \(desktop.proxy.requests)")
        }
        #expect(desktop.records("launch.jsonl").isEmpty)
    }

    @Test func firefoxRoutesClicksThroughTheExtensionAndOpensContainers() throws {
        let desktop = try CompanionDesktop(name: "companion-ff")
        defer { desktop.stop() }
        let firefox = try desktop.startFirefox()
        let marionette = firefox.marionette
        try Self.checkClicks(desktop, try PageDriver(marionette))
        // The host was started by Firefox with the manifest's path and the add-on's id.
        let launch = try #require(desktop.records("launch.jsonl").first)
        #expect((launch["argv"] as? [String])?.last == CompanionDesktop.geckoID, "\(launch)")

        // The daemon's launch (`firefox-esr --profile DIR URL`) reaches the running Firefox.
        let handoff = try desktop.harness.run(["firefox-esr", "--profile", firefox.profile, "http://stay.example/handoff"], timeout: 60)
        #expect(handoff.status == 0, "\(handoff)")
        #expect(desktop.proxy.wait(for: "http://stay.example/handoff", timeout: 30), "the running Firefox did not load the handed-off link")

        // Containers: a default one (by its localized name), one the user made (a space in its
        // name), a case-insensitive match, and an unknown name (the link opens without a container).
        try marionette.setContext("chrome")
        let made = try marionette.execute("""
            const { ContextualIdentityService } = ChromeUtils.importESModule("resource://gre/modules/ContextualIdentityService.sys.mjs");
            ContextualIdentityService.create("Side Project", "fingerprint", "blue");
            const ids = {};
            for (const identity of ContextualIdentityService.getPublicIdentities())
              ids[ContextualIdentityService.getUserContextLabel(identity.userContextId)] = identity.userContextId;
            return ids;
            """) as? [String: Int]
        try marionette.setContext("content")
        let containers = try #require(made)
        let cases: [(name: String, url: String, expected: Int?)] = [
            ("Shopping", "http://stay.example/in-shopping?a=1&b=2", containers["Shopping"]),
            ("Side Project", "http://stay.example/in-side-project", containers["Side Project"]),
            ("work", "http://stay.example/in-work", containers["Work"]),
            ("Nope", "http://stay.example/in-no-container", 0),
        ]
        for item in cases {
            let expected = try #require(item.expected, "no container \(item.name) in \(containers)")
            let link = "ext+openurld:open?container=\(CompanionDesktop.percentEncoded(item.name))&url=\(CompanionDesktop.percentEncoded(item.url))"
            let result = try desktop.harness.run(["firefox-esr", "--profile", firefox.profile, link], timeout: 60)
            #expect(result.status == 0, "\(result)")
            var tabs: [(url: String, userContextId: Int)] = []
            #expect(eventually(timeout: 30) { tabs = (try? marionette.tabs()) ?? []; return tabs.contains { $0.url == item.url } },
                    "\(item.name): no tab opened \(item.url): \(tabs)")
            #expect(tabs.filter { $0.url == item.url }.map(\.userContextId) == [expected], "\(item.name): \(tabs)")
            #expect(desktop.proxy.wait(for: item.url, timeout: 30), "\(item.url) was not loaded")
        }
        // The handler's page closed itself after a known container, and stayed to say an
        // unknown one was not found (listing the containers there are).
        let handlerPages = try marionette.tabs().filter { $0.url.contains("/container.html#") }
        #expect(handlerPages.count == 1 && handlerPages.first?.url.contains("Nope") == true, "\(handlerPages)")
        // That page says so and lists the containers.
        let own = try marionette.command("WebDriver:GetWindowHandle")
        let listed = try marionette.command("WebDriver:GetWindowHandles")
        let handles = (listed as? [String]) ?? ((listed as? JSONObject)?["value"] as? [String]) ?? []
        var said = ""
        var seen: [String] = []
        for handle in handles {
            try marionette.command("WebDriver:SwitchToWindow", ["handle": handle])
            let url = try marionette.currentURL()
            seen.append(url)
            if url.contains("/container.html#") { said = String(describing: try marionette.execute("return document.body.innerText")) }
        }
        try marionette.command("WebDriver:SwitchToWindow", ["handle": ((own as? JSONObject)?["value"] as? String) ?? ""])
        for words in ["No container named “Nope”", "http://stay.example/in-no-container", "Shopping", "Side Project", "Work"] {
            #expect(said.contains(words), "the unknown-container page does not say \(words): \(said) (tabs: \(seen))")
        }
    }

    @Test func firefoxWaitsForLateAnswersAndLeavesModifiedClicksAlone() throws {
        let desktop = try CompanionDesktop(name: "companion-fft")
        defer { desktop.stop() }
        try Self.checkTiming(desktop, try PageDriver(try desktop.startFirefox().marionette))
    }

    @Test func firefoxSendsMailtoFramesAndTheSameSiteSetting() throws {
        let desktop = try CompanionDesktop(name: "companion-ffd")
        defer { desktop.stop() }
        try Self.checkDetails(desktop, try PageDriver(try desktop.startFirefox().marionette))
    }

    @Test func firefoxKeepsEveryLinkWithoutAHost() throws {
        let desktop = try CompanionDesktop(name: "companion-ffn", installHost: false)
        defer { desktop.stop() }
        try Self.checkNoHost(desktop, try PageDriver(try desktop.startFirefox().marionette))
    }

    @Test func chromiumRoutesClicksThroughTheExtension() throws {
        let desktop = try CompanionDesktop(name: "companion-cr")
        defer { desktop.stop() }
        let chromium = try desktop.startChromium()
        try Self.checkClicks(desktop, PageDriver(chromium.pipe, session: chromium.session))
        let launch = try #require(desktop.records("launch.jsonl").first)
        #expect((launch["argv"] as? [String]) == ["chrome-extension://\(CompanionDesktop.chromiumID)/"], "\(launch)")

        // The daemon's launch (`chromium --profile-directory=Work URL`) reaches the running Chromium.
        let handoff = try desktop.harness.run(["chromium", "--profile-directory=Work", "http://stay.example/handoff"], timeout: 60)
        #expect(handoff.status == 0, "\(handoff)")
        #expect(desktop.proxy.wait(for: "http://stay.example/handoff", timeout: 30), "the running Chromium did not load the handed-off link")
        #expect(try chromium.pipe.targets().contains { $0["url"] as? String == "http://stay.example/handoff" })

        // What Chromium says about the one manifest both browsers load: loaded, enabled, and its
        // warnings are only about the Firefox-only parts (asked through chrome://extensions' own API).
        try chromium.pipe.navigate("chrome://extensions/", session: chromium.session)
        let info = try chromium.pipe.evaluate("new Promise(r => chrome.developerPrivate.getExtensionInfo(\(ChromiumPipe.quoted(CompanionDesktop.chromiumID)), r))",
                                              session: chromium.session) as? JSONObject
        #expect(info?["state"] as? String == "ENABLED", "\(String(describing: info))")
        let warnings = (info?["installWarnings"] as? [String]) ?? []
        let errors = (info?["manifestErrors"] as? [Any]) ?? []
        #expect(warnings.allSatisfy { ["contextualIdentities", "browser_specific_settings", "protocol_handlers", "background.scripts"].contains(where: $0.contains) },
                "unexpected warnings: \(warnings)")
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func chromiumWaitsForLateAnswersAndLeavesModifiedClicksAlone() throws {
        let desktop = try CompanionDesktop(name: "companion-crt")
        defer { desktop.stop() }
        let chromium = try desktop.startChromium()
        try Self.checkTiming(desktop, PageDriver(chromium.pipe, session: chromium.session))
    }

    @Test func chromiumSendsMailtoFramesAndTheSameSiteSetting() throws {
        let desktop = try CompanionDesktop(name: "companion-crd")
        defer { desktop.stop() }
        let chromium = try desktop.startChromium()
        try Self.checkDetails(desktop, PageDriver(chromium.pipe, session: chromium.session))
    }

    @Test func chromiumKeepsEveryLinkWithoutAHost() throws {
        let desktop = try CompanionDesktop(name: "companion-crn", installHost: false)
        defer { desktop.stop() }
        let chromium = try desktop.startChromium()
        try Self.checkNoHost(desktop, PageDriver(chromium.pipe, session: chromium.session))
    }
}
}

/// The suite by its own name, for the helpers beside it.
typealias CompanionExtensionTests = RealBrowsers.CompanionExtensionTests

/// One browser's page, as the shared checks drive it: Firefox through Marionette, Chromium
/// through CDP. Every click is trusted.
struct PageDriver {
    var navigate: (String) throws -> Void
    var click: (String) throws -> Void
    /// Presses the left button on the element; `release` lets it go (the click).
    var press: (String) throws -> Void
    var release: () throws -> Void
    var ctrlClick: (String) throws -> Void
    /// Focuses the element and presses Enter (trusted key events).
    var enter: (String) throws -> Void
    /// Clicks the element `selector` finds inside the frame `frame` finds (the framed page's link
    /// fills its top-left 100×30 pixels).
    var clickInFrame: (String, String) throws -> Void
    /// `moz-extension://UUID/` or `chrome-extension://ID/`.
    var extensionBase: String
    /// Brings the page's tab to the front again (after a link opened another tab).
    var front: () throws -> Void
    /// Evaluates a JavaScript expression in the page.
    var evaluate: (String) throws -> Any?

    init(_ marionette: MarionetteClient) throws {
        try marionette.setContext("chrome")
        let host = try marionette.execute("return WebExtensionPolicy.getByID(arguments[0]).mozExtensionHostname", [CompanionDesktop.geckoID]) as? String
        try marionette.setContext("content")
        extensionBase = "moz-extension://\(host ?? "?")/"
        clickInFrame = { frame, selector in
            try marionette.command("WebDriver:SwitchToFrame", ["element": try marionette.element(frame)[MarionetteClient.elementKey] as Any])
            defer { _ = try? marionette.command("WebDriver:SwitchToParentFrame") }
            try marionette.click(selector)
        }
        navigate = { url in
            // A navigation the extension started just before can still commit over this one: look.
            for _ in 0..<3 {
                try marionette.navigate(url)
                if eventually(timeout: 2, { (try? marionette.execute("return location.href + ' ' + document.readyState") as? String) == url + " complete" }) { return }
            }
            throw HarnessError("Firefox did not stay on \(url)")
        }
        click = { try marionette.click($0) }
        press = { try marionette.press($0) }
        release = { try marionette.release() }
        ctrlClick = { try marionette.ctrlClick($0) }
        front = {} // Marionette's commands stay with its own tab
        enter = { selector in
            let element = try marionette.element(selector)
            _ = try marionette.execute("arguments[0].focus()", [element])
            try marionette.command("WebDriver:ElementSendKeys", ["id": element[MarionetteClient.elementKey] as Any, "text": "\u{E007}"])
        }
        evaluate = { try marionette.execute("return " + $0) }
    }

    init(_ pipe: ChromiumPipe, session: String) {
        extensionBase = "chrome-extension://\(CompanionDesktop.chromiumID)/"
        clickInFrame = { frame, _ in
            // The browser hit-tests a cross-site frame from the compositor's data: let a scroll
            // reach the screen (two animation frames) before clicking.
            let script = "(async () => { const f = document.querySelector(\(ChromiumPipe.quoted(frame))); f.scrollIntoView({block: 'center'}); for (let i = 0; i < 3; i++) await new Promise(r => requestAnimationFrame(r)); const r = f.getBoundingClientRect(); return [r.x + f.clientLeft + 50, r.y + f.clientTop + 15]; })()"
            guard let point = try pipe.evaluate(script, session: session) as? [Double], point.count == 2 else { throw HarnessError("no frame \(frame)") }
            for type in ["mouseMoved", "mousePressed", "mouseReleased"] { try pipe.mouse(type, at: (point[0], point[1]), session: session) }
        }
        let pressedAt = Locked((x: 0.0, y: 0.0))
        navigate = { try pipe.navigate($0, session: session) }
        click = { try pipe.click($0, session: session) }
        press = { selector in
            let point = try pipe.centre(selector, session: session)
            pressedAt.update { $0 = point }
            try pipe.mouse("mouseMoved", at: point, session: session)
            try pipe.mouse("mousePressed", at: point, session: session)
        }
        release = { try pipe.mouse("mouseReleased", at: pressedAt.value, session: session) }
        ctrlClick = { try pipe.click($0, modifiers: 2, session: session) }
        front = { try pipe.send("Page.bringToFront", session: session) }
        enter = { selector in
            _ = try pipe.evaluate("document.querySelector(\(ChromiumPipe.quoted(selector))).focus()", session: session)
            let key: JSONObject = ["key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13]
            try pipe.send("Input.dispatchKeyEvent", key.merging(["type": "keyDown", "text": "\r"]) { $1 }, session: session)
            try pipe.send("Input.dispatchKeyEvent", key.merging(["type": "keyUp"]) { $1 }, session: session)
        }
        evaluate = { try pipe.evaluate($0, session: session) }
    }
}

/// An isolated desktop (DaemonHarness with Xvfb) with the companion extension, the stand-in
/// native host, and one recording proxy that serves the test page.
final class CompanionDesktop {
    static let geckoID = "companion@openurld.github.io"
    static let hostName = "io.github.openurld"
    static var extensionDirectory: String { PackageRoot.path + "/browser" }
    static var chromiumID: String {
        (try? String(contentsOfFile: extensionDirectory + "/CHROMIUM_ID", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }
    /// Gives the `chromium` wrapper (and so the daemon's launches) `--no-sandbox` as root; removed by `stop()`.
    static let chromiumFlags = "/etc/chromium.d/zz-openurld-companion-tests"

    /// The page inside the test page's frame: one link filling its top-left 100×30 pixels.
    static let framePage = """
        <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin: 0">
        <a id="framed" href="http://elsewhere.example/from-frame" style="position: absolute; left: 0; top: 0; width: 100px; height: 30px; display: block">framed link</a>
        </body></html>
        """

    let harness: DaemonHarness
    let proxy: RecordingProxy
    /// Where the stand-in host writes launch.jsonl, messages.jsonl, opens.jsonl, exit.jsonl.
    let records: String
    /// The host's executable (the stand-in: a script with `records` baked in).
    let host: String
    let installHost: Bool
    private var browsers: [ChromiumPipe] = []
    private var children: [ChildProcess] = []
    private var stopped = false

    static let testPage = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>openurld companion test page</title></head>
        <body>
        <p><a id="keep" href="http://stay.example/kept">kept link</a></p>
        <p><a id="elsewhere" href="http://elsewhere.example/away?x=1">  Elsewhere link  </a></p>
        <p><a id="spoof" href="http://evil.example/login">paypal.com</a></p>
        <p><a id="samesite" href="/same">same site</a></p>
        <p><a id="image" href="http://elsewhere.example/image"><img alt="Picture link" width="40" height="20"
           src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="></a></p>
        <p><a id="anchor" href="#here">to the anchor</a></p>
        <p><a id="lagkeep" href="http://stay-lag.example/k">kept, answered late</a></p>
        <p><a id="lagaway" href="http://lag-away.example/a">elsewhere, answered late</a></p>
        <p><a id="slow" href="http://slow.example/x">never answered in time</a></p>
        <p><a id="blank" target="_blank" href="http://stay-lag.example/new-tab">kept, new tab, answered late</a></p>
        <p><a id="mail" href="mailto:someone@example.org?subject=Hi%20there">write to someone</a></p>
        <p><iframe id="frame" src="http://frame.example/inner.html" onload="document.body.setAttribute('data-frame', 'loaded')" style="border: 0; width: 300px; height: 60px"></iframe></p>
        <p id="here">the anchor</p>
        <script>
        // What the page's own click handlers see: "ID:plain" or "ID:prevented" per click.
        document.addEventListener("click", (event) => {
          const link = event.target.closest("a");
          if (link) document.body.setAttribute("data-saw", (document.body.getAttribute("data-saw") || "") + link.id + (event.defaultPrevented ? ":prevented " : ":plain "));
        });
        </script>
        </body></html>
        """

    /// `installHost: false` leaves the host's manifest out: every connectNative fails.
    /// `hostExecutable` is the host the manifests name (openurld's `openurl-native-host` once it
    /// exists); by default the stand-in, whose records `records(_:)` reads.
    init(name: String, installHost: Bool = true, hostExecutable: String? = nil) throws {
        self.installHost = installHost
        for (program, package) in [("firefox-esr", "firefox-esr"), ("chromium", "chromium"), ("/usr/bin/python3", "python3")]
        where ChildProcess.findExecutable(program) == nil {
            throw HarnessError("\(program) is not installed: apt-get install -y \(package) (the companion tests drive Debian's browsers)")
        }
        harness = try DaemonHarness(name: name, withDesktopSession: true)
        proxy = try RecordingProxy()
        proxy.serve(Self.testPage, at: CompanionExtensionTests.page)
        proxy.serve(Self.framePage, at: "http://frame.example/inner.html")
        records = harness.desktop.root + "/host-records"
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        let fixture = PackageRoot.path + "/Tests/IntegrationTests/Fixtures/standin-native-host.py"
        if let hostExecutable {
            host = hostExecutable
        } else {
            let script = harness.desktop.root + "/standin-host"
            try "#!/bin/sh\nexec /usr/bin/python3 -I '\(fixture)' '\(records)' \"$@\"\n".write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            host = script
        }
    }

    deinit { stop() }

    /// The lines of one of the host's record files, parsed.
    func records(_ file: String) -> [JSONObject] {
        guard let text = try? String(contentsOfFile: records + "/" + file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? JSONObject }
    }

    /// The `explain` messages the host got for `url`.
    func explained(_ url: String) throws -> [JSONObject] {
        records("messages.jsonl").compactMap { $0["message"] as? JSONObject }.filter { $0["type"] as? String == "explain" && $0["url"] as? String == url }
    }

    /// The `open` messages the host got for `url`.
    func opens(_ url: String) -> [JSONObject] { records("opens.jsonl").filter { $0["url"] as? String == url } }

    /// `text` percent-encoded for a query value (everything but unreserved characters).
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? text
    }

    private func hostManifest(allowed: (key: String, value: String)) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["name": Self.hostName, "description": "openurld (stand-in for the tests)", "path": host,
                                                    "type": "stdio", allowed.key: [allowed.value]], options: [.sortedKeys])
    }

    /// The extension as an .xpi (a zip of `browser/`) at `path`.
    static func packExtension(to path: String) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: extensionDirectory).filter { $0.hasSuffix(".js") || $0.hasSuffix(".json") || $0.hasSuffix(".html") }
        let script = "import os, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    for f in sys.argv[3:]: z.write(os.path.join(sys.argv[2], f), f)"
        let zip = try Command.run(["/usr/bin/python3", "-I", "-c", script, path, extensionDirectory] + files.sorted(),
                                  environment: ["PATH": "/usr/bin:/bin"], timeout: 30)
        guard zip.status == 0 else { throw HarnessError("zipping the extension failed: \(zip)") }
    }

    /// Firefox ESR with a profile made by `firefox-esr -CreateProfile`, the extension installed
    /// in it unsigned, the host manifest in `~/.mozilla/native-messaging-hosts/` (the only user
    /// place Firefox 153 reads), driven by Marionette on a port Firefox picks.
    func startFirefox() throws -> (marionette: MarionetteClient, profile: String) {
        let made = try harness.run(["firefox-esr", "-CreateProfile", "Companion"], extra: ["MOZ_HEADLESS": "1"], timeout: 60)
        guard made.status == 0 else { throw HarnessError("firefox-esr -CreateProfile: \(made)") }
        let root = harness.desktop.configHome + "/mozilla/firefox"
        let ini = try String(contentsOfFile: root + "/profiles.ini", encoding: .utf8)
        guard let path = ini.split(separator: "\n").first(where: { $0.hasPrefix("Path=") && $0.hasSuffix(".Companion") }) else {
            throw HarnessError("profiles.ini lists no Companion profile: \(ini)")
        }
        let profile = root + "/" + path.dropFirst(5)
        try FileManager.default.createDirectory(atPath: profile + "/extensions", withIntermediateDirectories: true)
        try Self.packExtension(to: profile + "/extensions/\(Self.geckoID).xpi")
        let preferences = RealBrowserDesktop.firefoxPreferences(proxy: proxy) + """
            user_pref("xpinstall.signatures.required", false);
            user_pref("extensions.autoDisableScopes", 0);
            user_pref("extensions.enabledScopes", 15);
            user_pref("marionette.port", 0);

            """
        try preferences.write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
        if installHost {
            let manifests = harness.desktop.home + "/.mozilla/native-messaging-hosts"
            try FileManager.default.createDirectory(atPath: manifests, withIntermediateDirectories: true)
            try hostManifest(allowed: ("allowed_extensions", Self.geckoID)).write(to: URL(fileURLWithPath: manifests + "/\(Self.hostName).json"))
        }

        let portFile = profile + "/MarionetteActivePort"
        try? FileManager.default.removeItem(atPath: portFile)
        let child = try ChildProcess(["firefox-esr", "--marionette", "-remote-allow-system-access", "--profile", profile, "about:blank"],
                                     environment: harness.environment, captureOutput: false, logPath: harness.desktop.root + "/firefox.log")
        children.append(child)
        var port: UInt16?
        _ = eventually(timeout: 60) {
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return port != nil || child.poll() != nil
        }
        guard let port else { throw HarnessError("Firefox wrote no MarionetteActivePort (log: \(harness.desktop.root)/firefox.log)") }
        let marionette = try MarionetteClient(port: port)
        // The add-on is installed and active (unsigned, from the profile's extensions folder).
        try marionette.setContext("chrome")
        let active = try marionette.execute("return WebExtensionPolicy.getByID(arguments[0])?.active ?? false", [Self.geckoID]) as? Bool
        try marionette.setContext("content")
        guard active == true else { throw HarnessError("Firefox did not activate \(Self.geckoID)") }
        return (marionette, profile)
    }

    /// Chromium with its user data where a plain `chromium` finds it ($XDG_CONFIG_HOME/chromium),
    /// profile Work, the unpacked extension loaded, the host manifest in
    /// USER_DATA/NativeMessagingHosts/, every page through the proxy, driven over a debugging pipe.
    func startChromium() throws -> (pipe: ChromiumPipe, session: String) {
        if getuid() == 0 {
            try "# Written by openurld's CompanionExtensionTests; removed when they end.\nexport CHROMIUM_FLAGS=\"$CHROMIUM_FLAGS --no-sandbox --no-first-run --no-default-browser-check --password-store=basic --disable-gpu\"\n"
                .write(toFile: Self.chromiumFlags, atomically: true, encoding: .utf8)
        }
        let userData = harness.desktop.configHome + "/chromium"
        if installHost {
            try FileManager.default.createDirectory(atPath: userData + "/NativeMessagingHosts", withIntermediateDirectories: true)
            try hostManifest(allowed: ("allowed_origins", "chrome-extension://\(Self.chromiumID)/"))
                .write(to: URL(fileURLWithPath: userData + "/NativeMessagingHosts/\(Self.hostName).json"))
        }
        let pipe = try ChromiumPipe(["chromium", "--remote-debugging-pipe", "--user-data-dir=\(userData)", "--profile-directory=Work",
                                     "--no-sandbox", "--no-first-run", "--no-default-browser-check", "--password-store=basic", "--disable-gpu",
                                     "--load-extension=\(Self.extensionDirectory)", "--disable-features=DisableLoadExtensionCommandLineSwitch",
                                     "--proxy-server=\(proxy.address)", "--proxy-bypass-list=<-loopback>",
                                     "--disable-background-networking", "--disable-component-update", "about:blank"],
                                    environment: harness.environment, logPath: harness.desktop.root + "/chromium.log")
        browsers.append(pipe)
        // The extension's service worker runs (the extension loaded, with its fixed id).
        let worker = "chrome-extension://\(Self.chromiumID)/background.js"
        var targets: [JSONObject] = []
        guard try eventually(timeout: 60, { targets = try pipe.targets(); return targets.contains { $0["url"] as? String == worker } }) else {
            throw HarnessError("chromium did not start the companion's service worker \(worker): \(targets)")
        }
        guard let page = targets.first(where: { $0["type"] as? String == "page" })?["targetId"] as? String else {
            throw HarnessError("chromium has no page: \(targets)")
        }
        let session = try pipe.attach(page)
        return (pipe, session)
    }

    /// Kills every browser this desktop started (their process groups, and any left with the
    /// sandbox's HOME), removes the Chromium flag file, stops the proxy.
    func stop() {
        guard !stopped else { return }
        stopped = true
        for browser in browsers { browser.terminate() }
        browsers.removeAll()
        for child in children { child.terminate(grace: 0) }
        children.removeAll()
        let left = RealBrowserDesktop.killAll(home: harness.desktop.home, programs: ["firefox", "chromium", "python3"])
        if !left.isEmpty { Issue.record("browsers still running after cleanup: \(left)") }
        if getuid() == 0 { try? FileManager.default.removeItem(atPath: Self.chromiumFlags) }
        proxy.stop()
    }
}
