import Testing
import URLModel
import Hygiene

struct RedirectorCase: Sendable, CustomStringConvertible {
    var wrapped: String
    var target: String?
    var via: String?
    var description: String { wrapped }
}

@Suite struct RedirectUnwrapperTests {
    static let cases: [RedirectorCase] = [
        .init(wrapped: "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&sa=D", target: "https://example.org/a?b=1", via: "google"),
        .init(wrapped: "https://www.google.co.uk/url?sa=t&url=https://example.org/x", target: "https://example.org/x", via: "google"),
        .init(wrapped: "https://google.de/url?q=http://example.de/", target: "http://example.de/", via: "google"),
        .init(wrapped: "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Fdoc&data=05%7C01&reserved=0", target: "https://example.com/doc", via: "safelinks"),
        .init(wrapped: "https://nam12.safelinks.protection.outlook.com/ap/w-59584e83/?url=https%3A%2F%2Fexample.com%2F", target: "https://example.com/", via: "safelinks"),
        .init(wrapped: "https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.com%2Fpage&h=AT0", target: "https://example.com/page", via: "facebook"),
        .init(wrapped: "https://lm.facebook.com/l.php?u=https%3A%2F%2Fexample.com%2F", target: "https://example.com/", via: "facebook"),
        .init(wrapped: "https://www.youtube.com/redirect?event=video_description&q=https%3A%2F%2Fexample.com%2F&v=x", target: "https://example.com/", via: "youtube"),
        .init(wrapped: "https://youtube.com/redirect?q=https://example.com/yt", target: "https://example.com/yt", via: "youtube"),
        .init(wrapped: "https://slack-redir.net/link?url=https%3A%2F%2Fexample.com%2Fs", target: "https://example.com/s", via: "slack"),
        .init(wrapped: "https://steamcommunity.com/linkfilter/?url=https://example.com/steam", target: "https://example.com/steam", via: "steam"),
        .init(wrapped: "https://steamcommunity.com/linkfilter/?u=https%3A%2F%2Fexample.com%2Fu", target: "https://example.com/u", via: "steam"),
        .init(wrapped: "https://duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fd&rut=abc", target: "https://example.com/d", via: "duckduckgo"),
        // Not redirectors, or targets that are not absolute http(s) URLs: the wrapper stays.
        .init(wrapped: "https://www.google.com/url?q=javascript%3Aalert(1)", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/url?q=%2Frelative%2Fpath", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/url?q=mailto%3Aa%40b.c", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/url?q=https%3A%2F%2F", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/url?q=https%3A%2F%2Fexa%20mple.com", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/search?q=https%3A%2F%2Fexample.com", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/urls?q=https%3A%2F%2Fexample.com", target: nil, via: nil),
        .init(wrapped: "https://google.evil.example/url?q=https%3A%2F%2Fexample.com", target: nil, via: nil),
        .init(wrapped: "https://notfacebook.com/l.php?u=https%3A%2F%2Fexample.com", target: nil, via: nil),
        .init(wrapped: "https://example.com/?url=https%3A%2F%2Fother.com", target: nil, via: nil),
        .init(wrapped: "https://www.google.com/url?q=https%3A%2F%2Fexample.com%FF", target: nil, via: nil),
    ]

    @Test(arguments: cases)
    func unwrapsOneLayer(_ c: RedirectorCase) {
        let result = RedirectUnwrapper().unwrapOnce(c.wrapped)
        #expect(result?.target == c.target)
        #expect(result?.via == c.via)
    }

    @Test func nestedSafeLinkGoogleTarget() {
        let target = "https://example.org/page?id=7"
        let google = "https://www.google.com/url?q=" + PercentEncoding.encode(target) + "&sa=D"
        let safe = "https://eur02.safelinks.protection.outlook.com/?url=" + PercentEncoding.encode(google) + "&data=x"
        let result = URLHygiene(unwrap: true, clean: false).apply(to: safe)
        #expect(result.url == target)
        #expect(result.steps == [
            .unwrapped(from: safe, to: google, via: "safelinks"),
            .unwrapped(from: google, to: target, via: "google"),
        ])
    }

    @Test func depthIsLimited() {
        var url = "https://example.org/end"
        for _ in 0..<(URLHygiene.maxDepth + 5) { url = "https://slack-redir.net/link?url=" + PercentEncoding.encode(url) }
        let result = URLHygiene(unwrap: true, clean: false).apply(to: url)
        #expect(result.steps.count == URLHygiene.maxDepth)
        #expect(result.url.hasPrefix("https://slack-redir.net/link?url="))
    }

    @Test(arguments: [
        ("https://go.corp.example/r?to=https%3A%2F%2Fexample.com%2F", "https://example.com/"),
        ("https://sub.go.corp.example/r/x?to=https%3A%2F%2Fexample.com%2F", "https://example.com/"),
        ("https://tracker.example.net/click?dest=https%3A%2F%2Fexample.com%2Fn", "https://example.com/n"),
        ("https://tracker.example.de/click?dest=https%3A%2F%2Fexample.com%2Fn", "https://example.com/n"),
        ("https://go.corp.example/other?to=https%3A%2F%2Fexample.com%2F", "https://go.corp.example/other?to=https%3A%2F%2Fexample.com%2F"),
    ])
    func extraRedirectorsFromConfig(_ wrapped: String, _ expected: String) {
        let extra = [
            Redirector(name: "corp", hostPattern: "go.corp.example", pathPrefix: "/r", parameters: ["to"]),
            Redirector(name: "tracker", hostPattern: "tracker.example.*", pathPrefix: "/click", parameters: ["dest"]),
        ]
        #expect(URLHygiene(unwrap: true, clean: false, extraRedirectors: extra).apply(to: wrapped).url == expected)
    }

    @Test func unwrapOffLeavesWrapper() {
        let url = "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2F&utm_source=x"
        let result = URLHygiene(unwrap: false, clean: false).apply(to: url)
        #expect(result == HygieneResult(url: url, blocked: false, steps: []))
    }
}

@Suite struct TrackingCleanerTests {
    @Test(arguments: [
        ("https://e.com/a?utm_source=x&id=1", "https://e.com/a?id=1", ["utm_source"]),
        ("https://e.com/a?id=1&utm_source=x&utm_medium=y", "https://e.com/a?id=1", ["utm_source", "utm_medium"]),
        ("https://e.com/a?utm_source=x", "https://e.com/a", ["utm_source"]),
        ("https://e.com/a?utm_source=x#frag", "https://e.com/a#frag", ["utm_source"]),
        ("https://e.com/a?q=a%20b+c&fbclid=1&q=a%2Bb&Q=%E2%82%AC", "https://e.com/a?q=a%20b+c&q=a%2Bb&Q=%E2%82%AC", ["fbclid"]),
        ("https://e.com/?a=1&a=2&gclid=z&a=3", "https://e.com/?a=1&a=2&a=3", ["gclid"]),
        ("https://e.com/?x=%zz&gclid=1&y=%", "https://e.com/?x=%zz&y=%", ["gclid"]),
        ("https://e.com/?FBCLID=1&k", "https://e.com/?k", ["FBCLID"]),
        ("https://e.com/?utm%5Fsource=1&k=v", "https://e.com/?k=v", ["utm%5Fsource"]),
        ("https://e.com/?a=1&&utm_campaign=x&b", "https://e.com/?a=1&b", ["utm_campaign"]),
        ("https://e.com/p#?utm_source=x", "https://e.com/p#?utm_source=x", []),
        ("https://e.com/p?keep=1#utm_source=x&fbclid=2", "https://e.com/p?keep=1#utm_source=x&fbclid=2", []),
        ("https://e.com/?a&&b", "https://e.com/?a&&b", []),
        ("https://e.com/?utm=1&utm_=2&autm_source=3", "https://e.com/?utm=1&utm_=2&autm_source=3", []),
        ("https://e.com/?_hsenc=a&__hstc=b&__hssc=c&__hsfp=d&hsCtaTracking=e&_hsmi=f&mkt_tok=g", "https://e.com/", ["_hsenc", "__hstc", "__hssc", "__hsfp", "hsCtaTracking", "_hsmi", "mkt_tok"]),
        ("https://e.com/?dclid=1&gbraid=2&wbraid=3&msclkid=4&mc_eid=5&mc_cid=6&_ga=7&_gl=8&igshid=9&yclid=a&twclid=b&ttclid=c&li_fat_id=d&oly_anon_id=e&oly_enc_id=f&vero_id=g&ref_src=h&s_cid=i&wickedid=j&x=1", "https://e.com/?x=1", ["dclid", "gbraid", "wbraid", "msclkid", "mc_eid", "mc_cid", "_ga", "_gl", "igshid", "yclid", "twclid", "ttclid", "li_fat_id", "oly_anon_id", "oly_enc_id", "vero_id", "ref_src", "s_cid", "wickedid"]),
        ("mailto:a@b.c?subject=hi&utm_source=x", "mailto:a@b.c?subject=hi", ["utm_source"]),
        ("https://e.com/path;utm_source=x", "https://e.com/path;utm_source=x", []),
    ])
    func cleansByteForByte(_ url: String, _ expected: String, _ removed: [String]) {
        let result = TrackingCleaner.clean(url)
        #expect(result.url == expected)
        #expect(result.removed == removed)
        #expect(Array(result.url.utf8) == Array(expected.utf8))
    }

    @Test func unwrapThenClean() {
        let url = "https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.com%2Fa%3Fid%3D1%26fbclid%3Dzz%23top&h=x"
        let result = URLHygiene(unwrap: true, clean: true).apply(to: url)
        #expect(result.url == "https://example.com/a?id=1#top")
        #expect(result.steps.last == .cleaned(removed: ["fbclid"]))
    }
}

@Suite struct HostileInputTests {
    static let inputs: [String] = [
        "",
        "?",
        "#",
        "?&&&=&=&#",
        "https://",
        "https://?utm_source=1",
        "https://e.com/\u{0}?utm_source=\u{0}&a=\u{0}#\u{0}",
        "https://e.com/?a=%&b=%4&c=%G1&utm_source=%%%",
        "https://www.google.com/url?q=%",
        "https://www.google.com/url?q=%E2%82",
        "https://[::1]:80/url?q=https%3A%2F%2Fe.com",
        "https://user:pw@www.google.com:443/url?q=https%3A%2F%2Fe.com%2F",
        "http://www.google.com./url?q=https%3A%2F%2Fe.com%2F",
        "https://e.com/" + String(repeating: "a", count: 1 << 20),
        "https://e.com/?" + String(repeating: "utm_source=1&", count: 80_000),
        "https://www.google.com/url?q=" + String(repeating: "%25", count: 300_000),
        "https://amazon.com/" + String(repeating: "ref=", count: 200_000),
        "https://e.com/?" + String(repeating: "&", count: 1 << 20) + "#" + String(repeating: "=", count: 1000),
        "😀://💥/?utm_source=😀&ü=ö#ß",
    ]

    @Test(arguments: inputs.indices)
    func neverCrashes(_ index: Int) throws {
        let rules = try HygieneFixtures.fullRules()
        let input = Self.inputs[index]
        let result = URLHygiene(unwrap: true, clean: true, clearURLs: rules).apply(to: input)
        // Hygiene only ever removes or unwraps: the result is never longer than the input.
        #expect(result.url.utf8.count <= input.utf8.count)
        #expect(result.url.utf8.count < (1 << 22))
    }
}
