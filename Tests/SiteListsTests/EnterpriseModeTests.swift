import SiteLists
import Testing
import URLModel

/// Microsoft's Enterprise Mode schema v.1 and v.2 guidance, with their own examples.
struct EnterpriseModeTests {
    /// The v.2 guidance's example (with its stray `<compat-mode>` outside a `<site>`, and its
    /// `<!--- … --->` comments, both as Microsoft publishes them).
    static let version2 = """
        <site-list version="205">
        \t<!--- File creation header --->
        \t<created-by>
        \t\t<tool>EnterpriseSitelistManager</tool>
        \t\t<version>10240</version>
        \t\t<date-created>20150728.135021</date-created>
        \t</created-by>
        \t<!--- Begin Site List --->
        \t<site url="www.cpandl.com">
        \t\t<compat-mode>IE8Enterprise</compat-mode>
        \t\t<open-in>MSEdge</open-in>
        \t</site>
        \t<site url="www.woodgrovebank.com">
        \t\t<compat-mode>default</compat-mode>
        \t\t<open-in>IE11</open-in>
        \t</site>
        \t<site url="contoso.com">
        \t\t<open-in app="true">IE11</open-in>
        \t</site>
        \t<site url="relecloud.com"/>
        \t\t<compat-mode>default</compat-mode>
        \t\t<open-in>none</open-in>
        \t<site url="relecloud.com/about">
        \t\t<compat-mode>IE8Enterprise"</compat-mode>
        \t\t<open-in>IE11</open-in>
        \t</site>
        \t<site url="contoso.com:8080/travel">
        \t\t<open-in>MSEdge</open-in>
        \t</site>
        \t<site url="fabrikam.com">
        \t\t <open-in>IE11</open-in>
        \t</site>
        \t<site url="fabrikam.com/products">
        \t\t <open-in>none</open-in>
        \t</site>
        </site-list>
        """

    @Test(arguments: [
        ("https://www.woodgrovebank.com/", true), ("https://www.cpandl.com/", false), ("http://contoso.com/x", true),
        ("http://intranet.contoso.com/", true), ("http://contoso.com:8080/travel/a", false), ("http://contoso.com:8080/other", true),
        ("https://relecloud.com/", false), ("https://relecloud.com/about/team", true), ("https://fabrikam.com/", true),
        ("https://fabrikam.com/products/1", false), ("https://example.org/", false),
    ])
    func version2Example(url: String, expected: Bool) throws {
        let list = try SiteList.parse(Array(Self.version2.utf8), format: .emieV2)
        var switched = false
        if case .go = list.verdict(for: try ParsedURL(url)) { switched = true }
        #expect(switched == expected, "\(url)")
    }

    @Test func version2KeepsVersionLinesAndKinds() throws {
        let list = try SiteList.parse(Array(Self.version2.utf8), format: .emieV2)
        #expect(list.version == "205")
        #expect(list.entries.count == 8)
        #expect(list.entries.map(\.line) == [9, 13, 17, 20, 23, 27, 30, 33])
        #expect(list.entries.map(\.kind) == [.exception, .site, .site, .greylist, .site, .exception, .site, .greylist])
    }

    /// The v.1 guidance's example and its "nest paths underneath domains" table.
    static let version1 = """
        <rules version="1">
          <emie>
            <domain exclude="false">www.cpandl.com</domain>
            <domain exclude="true">www.woodgrovebank.com</domain>
            <domain exclude="false" forceCompatView="true">adatum.com</domain>
            <domain exclude="true">relecloud.com
              <path exclude="false">/about</path>
            </domain>
            <domain exclude="false">fabrikam.com
              <path exclude="true">/products</path>
            </domain>
            <domain exclude="true">contoso.com
              <path exclude="false">/about</path>
              <path exclude="true">/about/business</path>
            </domain>
            <domain doNotTransition="true">login.example</domain>
          </emie>
          <docMode>
            <domain>docs.example
              <path docMode="7">/travel</path>
            </domain>
          </docMode>
        </rules>
        """

    @Test(arguments: [
        ("https://www.cpandl.com/", true), ("https://www.woodgrovebank.com/", false), ("https://adatum.com/", true),
        ("https://relecloud.com/", false), ("https://relecloud.com/about/x", true), ("https://fabrikam.com/", true),
        ("https://fabrikam.com/products", false), ("https://contoso.com/", false), ("https://contoso.com/about", true),
        ("https://contoso.com/about/business/plan", false), ("https://login.example/", false), ("https://docs.example/travel", true),
    ])
    func version1Example(url: String, expected: Bool) throws {
        let list = try SiteList.parse(Array(Self.version1.utf8), format: .emieV1)
        var switched = false
        if case .go = list.verdict(for: try ParsedURL(url)) { switched = true }
        #expect(switched == expected, "\(url)")
        #expect(list.version == "1")
    }

    @Test(arguments: [
        (SiteListFormat.emieV2, "<rules version=\"1\"></rules>", "1:1: expected the root element <site-list> (format \"emie-v2\"), found <rules>; it is an Enterprise Mode schema v.1 list: use format = \"emie-v1\""),
        (.emieV1, "<site-list version=\"2\"/>", "1:1: expected the root element <rules> (format \"emie-v1\"), found <site-list>; it is an Enterprise Mode schema v.2 list: use format = \"emie-v2\""),
        (.emieV2, "<site-list>\n  <site url=\"a.example\">\n</site-list>", "3:1: </site-list> closes <site> (opened at line 2); expected </site>"),
        (.emieV2, "<site-list>\n<site/>\n</site-list>", "2:1: <site> needs a url attribute"),
        (.emieV2, "<site-list><site url=\"a.example\"><open-in>IE7</open-in></site></site-list>", "1:34: unknown <open-in> value \"IE7\""),
        (.emieV2, "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"b\">]>\n<site-list/>", "2:1: a DOCTYPE is not accepted"),
        (.emieV2, "<site-list>\n  <site url=\"ftp://a.example\"/>\n</site-list>", "2:3: \"ftp://a.example\": \"ftp://\" patterns are not routed"),
        (.emieV2, "<site-list><site url='a&b.example'/></site-list>", "1:24: \"&\" starts no reference"),
        (.emieV1, "<rules>\n <emie>\n  <domain>a.example\n   <path>about</path>\n  </domain>\n </emie>\n</rules>", "4:4: <path> must start with \"/\""),
        (.emieV1, "<rules><emie><domain>a.example/x</domain></emie></rules>", "1:14: \"a.example/x\": a <domain> is a host"),
        (.emieV2, "", "1:1: the file holds no XML element"),
        (.emieV2, "<site-list>", "1:1: <site-list> is not closed"),
    ])
    func errorsNameLineAndColumn(format: SiteListFormat, text: String, expected: String) {
        #expect {
            try SiteList.parse(Array(text.utf8), format: format)
        } throws: { error in
            let shown = (error as? SiteListError).map { "\($0)" } ?? "\(error)"
            if !shown.hasPrefix(expected) { Issue.record("got \(shown)") }
            return shown.hasPrefix(expected)
        }
    }

    @Test func entitiesCDATAAndTheDeclarationAreRead() throws {
        let text = "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<site-list version='7'><site url=\"a&#46;example\"><open-in><![CDATA[IE11]]></open-in></site></site-list>\n"
        let list = try SiteList.parse(Array(text.utf8), format: .emieV2)
        #expect(list.entries.first?.pattern.host == "a.example")
        #expect(list.entries.first?.kind == .site)
        #expect(list.version == "7")
    }
}
