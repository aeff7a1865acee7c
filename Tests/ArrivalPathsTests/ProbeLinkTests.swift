import RoutingCore
import Testing

/// The probe link `openurl doctor` sends: recognised in either form and nowhere else.
struct ProbeLinkTests {
    @Test(arguments: [
        ("https://openurld.invalid/probe/abc-1", "abc-1"),
        ("HTTPS://OpenURLd.Invalid/probe/Run.7_x", "Run.7_x"),
        ("http://openurld.invalid/probe/abc", "abc"),
        ("https://openurld.invalid/probe/abc/", "abc"),
        ("mailto:probe-abc-3@openurld.invalid", "abc-3"),
        ("MAILTO:probe-abc@OPENURLD.INVALID", "abc"),
    ])
    func recognises(url: String, token: String) {
        #expect(ProbeLink.token(in: url) == token)
    }

    @Test(arguments: [
        "https://openurld.invalid/probe/",
        "https://openurld.invalid/probe/a b",
        "https://openurld.invalid/probe/a?b",
        "https://openurld.invalid.example.org/probe/a",
        "https://example.org/probe/a",
        "https://openurld.invalid/other/a",
        "mailto:probe-@openurld.invalid",
        "mailto:probe-a@openurld.invalid.example.org",
        "mailto:someone@openurld.invalid",
        "https://openurld.invalid/probe/" + String(repeating: "a", count: 65),
    ])
    func refuses(url: String) {
        #expect(ProbeLink.token(in: url) == nil)
    }

    @Test func itsTwoFormsReadBack() {
        #expect(ProbeLink.token(in: ProbeLink.web("t-1")) == "t-1")
        #expect(ProbeLink.token(in: ProbeLink.mail("t-2")) == "t-2")
    }
}
