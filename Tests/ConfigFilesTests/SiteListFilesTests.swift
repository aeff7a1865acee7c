import Foundation
@testable import ConfigFiles
import Testing

/// A `[[sitelist]]` whose file is missing or does not parse: the problem names the place, in the
/// config (`config.toml:LINE:COLUMN`) or in the list (`list:LINE:COLUMN`, and the config line
/// that named it), and a list that read well before keeps its entries.
@Suite struct SiteListFilesTests {
    static func config(_ file: String) -> String {
        "[default]\nopen = \"browser.desktop\"\n\n[[sitelist]]\nname = \"legacy\"\npath = \"\(file)\"\nformat = \"emie-v2\"\nopen = \"work.desktop\"\n"
    }
    static let goodList = "<site-list version=\"3\">\n<site url=\"intranet.example\"><open-in>IE11</open-in></site>\n</site-list>\n"

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The list's text; nil: no file.
        var list: String?
        /// The problem, with `CONFIG` and `LIST` for the two paths; nil: none.
        var problem: String?
        var entries: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a good list", list: goodList, problem: nil, entries: 1),
        Case(name: "no such file: the config's place", list: nil,
             problem: "CONFIG:6:8: sitelist.path: LIST: no such file (openurld reads site lists, it never fetches them)", entries: 0),
        Case(name: "a list that does not parse: the list's place and the config line", list: "<site-list version=\"3\">\n<site url=\n",
             problem: "LIST:", entries: 0),
    ]

    @Test(arguments: cases)
    func siteListProblemsNameTheirPlace(_ test: Case) throws {
        let tree = try FileTree("sitelist")
        let config = try tree.write("openurld/config.toml", Self.config("sites.xml"))
        let list = tree.root + "/openurld/sites.xml"
        if let text = test.list { try tree.write("openurld/sites.xml", text) }
        let layered = ConfigFile.loadLayers(path: config, required: true, systemDirs: [])
        let status = try #require(layered.sources.first { $0.siteList != nil })
        #expect(status.path == list)
        #expect(status.siteList?.entries == test.entries)
        #expect(status.siteList?.namedAt == config + ":6")
        if let problem = test.problem?.replacingOccurrences(of: "CONFIG", with: config).replacingOccurrences(of: "LIST", with: list) {
            let found = status.problem ?? ""
            #expect(problem.hasSuffix(":") ? found.hasPrefix(problem) : found == problem, "\(found)")
            if test.list != nil {
                // LIST:LINE:COLUMN: message (the [[sitelist]] at CONFIG:6)
                #expect(found.range(of: #"^.+:\d+:\d+: .+ \(the \[\[sitelist\]\] at .+:6\)$"#, options: .regularExpression) != nil, "\(found)")
            }
            #expect(layered.userFailure?.description.contains(found) == true, "a user list's problem fails the load")
        } else {
            #expect(status.problem == nil, "\(status.problem ?? "")")
        }
    }

    /// A list that breaks after a good read keeps its entries.
    @Test func aBrokenListKeepsItsLastGoodEntries() throws {
        let tree = try FileTree("sitelist-lastgood")
        let config = try tree.write("openurld/config.toml", Self.config("sites.xml"))
        try tree.write("openurld/sites.xml", Self.goodList)
        let memory = ConfigMemory()
        _ = ConfigFile.loadLayers(path: config, required: true, systemDirs: [], memory: memory)
        try tree.write("openurld/sites.xml", "<site-list")
        let layered = ConfigFile.loadLayers(path: config, required: true, systemDirs: [], memory: memory)
        let status = try #require(layered.sources.first { $0.siteList != nil })
        #expect(status.usingLastGood)
        #expect(status.siteList?.entries == 1)
        #expect(status.problem != nil)
    }
}
