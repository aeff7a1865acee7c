import BrowserCompanion
import Testing

/// Whether a link clicked in a browser stays there: the rules' launch against the browser the
/// host serves.
@Suite struct KeepVerdictTests {
    static let firefoxWork = HostBrowser(pid: 10, program: "firefox-esr", key: "firefox", profile: "/home/u/.config/mozilla/firefox/abc.Work")
    static let chromiumUnknown = HostBrowser(pid: 11, program: "chromium", key: "chromium", profile: nil)
    static let chromiumPersonal = HostBrowser(pid: 11, program: "chromium", key: "chromium", profile: "Personal")

    static func open(_ entry: String?, _ arguments: [String] = [], decision: String = "open", final: String = "https://x.org/", warns: Bool = false) -> ExplainedLink {
        ExplainedLink(decision: decision, target: "t", url: "https://x.org/", finalURL: final, launchEntry: entry, launchArguments: arguments, warns: warns)
    }

    static let cases: [(String, ExplainedLink, HostBrowser, String?, Bool)] = [
        ("the same browser, no profile", open("firefox-esr.desktop"), firefoxWork, nil, true),
        ("the same browser by its short name's entry", open("firefox.desktop"), firefoxWork, nil, true),
        ("this profile", open("firefox-esr.desktop", ["--profile", "/home/u/.config/mozilla/firefox/abc.Work"]), firefoxWork, nil, true),
        ("another profile", open("firefox-esr.desktop", ["--profile", "/home/u/.config/mozilla/firefox/def.Personal"]), firefoxWork, nil, false),
        ("a private window", open("firefox-esr.desktop", ["--private-window"]), firefoxWork, nil, false),
        ("another browser", open("chromium.desktop"), firefoxWork, nil, false),
        ("an entry's action", open("firefox-esr.desktop:new-window"), firefoxWork, nil, false),
        ("a command", open(nil), firefoxWork, nil, false),
        ("copy", open(nil, decision: "copy"), firefoxWork, nil, false),
        ("discard", open(nil, decision: "discard"), firefoxWork, nil, false),
        ("ask", open(nil, decision: "ask"), firefoxWork, nil, false),
        ("held by the safety policy", open(nil, decision: "held"), firefoxWork, nil, false),
        ("a cleaned link", open("firefox-esr.desktop", final: "https://x.org/?"), firefoxWork, nil, false),
        ("a warning", open("firefox-esr.desktop", warns: true), firefoxWork, nil, false),
        ("a container of this profile", ExplainedLink(decision: "open", target: "firefox-esr:Work:container:Shopping", url: "https://x.org/", finalURL: "https://x.org/",
                                                      launchEntry: "firefox-esr.desktop", launchArguments: ["--profile", "/home/u/.config/mozilla/firefox/abc.Work"],
                                                      launchURL: "ext+openurld:open?container=Shopping&url=https%3A%2F%2Fx.org%2F"), firefoxWork, nil, false),
        ("the launch hands over the link itself", ExplainedLink(decision: "open", target: "t", url: "https://x.org/", finalURL: "https://x.org/",
                                                                launchEntry: "firefox-esr.desktop", launchArguments: [], launchURL: "https://x.org/"), firefoxWork, nil, true),
        ("system, which is this browser", open("system", decision: "system"), firefoxWork, "firefox-esr.desktop", true),
        ("system, which is another", open("system", decision: "system"), firefoxWork, "chromium.desktop", false),
        ("system, not known", open("system", decision: "system"), firefoxWork, nil, false),
        ("a Chromium profile when the browser's is unknown", open("chromium.desktop", ["--profile-directory=Work"]), chromiumUnknown, nil, false),
        ("Chromium, no profile named", open("chromium.desktop"), chromiumUnknown, nil, true),
        ("Chromium, this profile", open("chromium.desktop", ["--profile-directory=Personal"]), chromiumPersonal, nil, true),
        ("Chromium, another profile", open("chromium.desktop", ["--profile-directory=Work"]), chromiumPersonal, nil, false),
        ("Chromium's app window", open("chromium.desktop", ["--app=https://x.org/"]), chromiumPersonal, nil, false),
        ("incognito", open("chromium.desktop", ["--incognito"]), chromiumPersonal, nil, false),
        ("a browser openurld does not know", open("firefox-esr.desktop"), HostBrowser(pid: 1, program: "surf", key: nil, profile: nil), nil, false),
    ]

    @Test(arguments: cases)
    func verdict(_ name: String, _ explained: ExplainedLink, _ browser: HostBrowser, _ system: String?, _ keep: Bool) {
        let verdict = KeepVerdict.judge(explained, in: browser, systemEntry: system)
        #expect(verdict.keep == keep, "\(name): \(verdict.why)")
        #expect(!verdict.why.isEmpty)
    }
}
