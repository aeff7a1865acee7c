import ConfigFiles
import ConfigLanguage
import Foundation
import Platform
import Routing
import RoutingCore
import Testing

/// "Make a rule…" writing `config.toml`: the rule lands last and routes its link, every other
/// byte stays, nothing is written when the config would not load or the name is taken, the mode
/// is kept, an earlier rule that takes the link first is named, and a symlinked config is
/// written at its target only inside the home directory.
@Suite struct UserRuleFileTests {
    /// A home with `.config/openurld/config.toml`, and a system config directory beside it.
    struct Setup {
        let tree: FileTree
        var home: String { tree.root + "/home" }
        var configPath: String { home + "/.config/openurld/config.toml" }
        var systemDirs: [String] { [tree.root + "/etc"] }

        init(_ name: String, user: String?, system: String? = nil, remembered: String? = nil) throws {
            tree = try FileTree(name)
            try FileManager.default.createDirectory(atPath: home + "/.config/openurld", withIntermediateDirectories: true)
            if let user { try tree.write("home/.config/openurld/config.toml", user) }
            if let system { try tree.write("etc/openurld/config.toml", system) }
            if let remembered { try tree.write("home/.config/openurld/remembered.toml", remembered) }
        }

        @discardableResult
        func append(_ draft: RuleDraft, sample: String? = nil) throws -> UserRuleFile.AppendResult {
            try UserRuleFile.append(draft, configPath: configPath, sampleURL: sample, systemDirs: systemDirs, home: home)
        }
    }

    static let docsCopy = RuleDraft(name: "Docs", match: .host("docs.example.org"), action: .copy)

    @Test(arguments: [
        "# My links\n[settings]\nclean = false   # keep utm_ for now\n\n[[rules]]\nname = \"Mail\"\nmatch.scheme = \"mailto\"\ncopy = true\n",
        "[default]\r\ncopy = true\r\n# CRLF, from a Windows editor\r\n",
        "[[rules]]\nmatch.domain = \"example.net\"\ndiscard = true\n\n[apps.work]\nexec = [\"w\", \"{url}\"]   # no final newline",
    ])
    func theRuleIsAddedLastAndRoutesItsLink(_ original: String) throws {
        let setup = try Setup("routes", user: original)
        let result = try setup.append(Self.docsCopy, sample: "https://docs.example.org/guide")
        let written = try #require(FileSystem.contents(setup.configPath))
        #expect(written.starts(with: Array(original.utf8)))
        #expect(written == Array(RuleAppender.appending(try Self.docsCopy.text, to: original).utf8))
        #expect(result.sample == .decidedByNewRule)
        #expect(result.shadowedBy == nil)
        let config = try ConfigFile.load(path: setup.configPath, required: true).get()
        let decision = try RuleEngine(config: config).decide("https://docs.example.org/guide")
        #expect(decision.rule == .named("Docs"))
        #expect(decision.ruleSource?.line == result.line)
        // Lines by bytes: in a String, "\r\n" is one Character and is not split at "\n".
        let lines = written.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        try #require(lines.indices.contains(result.line - 1))
        #expect(lines[result.line - 1].starts(with: Array("[[rules]]".utf8)))
    }

    @Test func aNewFileIsMade0600WithAHeader() throws {
        let setup = try Setup("new", user: nil)
        let result = try setup.append(Self.docsCopy)
        #expect(result.text == RuleAppender.header + "\n" + (try Self.docsCopy.text))
        #expect(FileSystem.contents(setup.configPath) == Array(result.text.utf8))
        #expect(try FileSystem.status(setup.configPath).permissions == 0o600)
    }

    @Test(arguments: [0o600, 0o640, 0o644, 0o400] as [UInt32])
    func theFilesModeIsKept(_ mode: UInt32) throws {
        let setup = try Setup("mode", user: "[settings]\nclean = true\n")
        try FileSystem.setPermissions(setup.configPath, mode)
        try setup.append(Self.docsCopy)
        #expect(try FileSystem.status(setup.configPath).permissions == mode)
    }

    @Test(arguments: [
        ("rules = [{ name = \"Old\", copy = true }]\n", Self.docsCopy, "config.toml:3:"),
        ("[settings]\nclean = tru\n", Self.docsCopy, "config.toml:2:"),
        ("[apps.work]\nexec = [\"w\", \"{url}\"]\n", RuleDraft(name: "x", match: .domain("example.org"), action: .open(target: "nosuchapp")), "config.toml:7:"),
    ] as [(String, RuleDraft, String)])
    func aConfigThatWouldNotLoadIsLeftAlone(original: String, draft: RuleDraft, position: String) throws {
        let setup = try Setup("refused", user: original)
        let before = try FileSystem.status(setup.configPath)
        #expect {
            try setup.append(draft, sample: "https://docs.example.org/")
        } throws: { error in
            let description = (error as? UserRuleFile.AppendError)?.description ?? ""
            return description.contains(position) || { print(description); return false }()
        }
        #expect(FileSystem.contents(setup.configPath) == Array(original.utf8))
        let after = try FileSystem.status(setup.configPath)
        #expect(after.modified == before.modified && after.inode == before.inode)
        #expect(!FileSystem.exists(setup.configPath + ".new"))
    }

    struct ShadowCase: Sendable, CustomTestStringConvertible {
        var name: String
        var system: String?
        var user: String
        var sample: String
        /// `kind name layer:line`, or `new`, or `default`.
        var expected: String
        var testDescription: String { name }
    }

    static let earlierRule = "# mine\n\n[[rules]]\nname = \"All of example.org\"\nmatch.domain = \"example.org\"\ndiscard = true\n"

    static let shadowCases: [ShadowCase] = [
        ShadowCase(name: "an earlier rule of the user's", user: earlierRule, sample: "https://docs.example.org/a",
                   expected: "shadowed All of example.org user:3"),
        ShadowCase(name: "nothing earlier", user: "[settings]\nclean = true\n", sample: "https://docs.example.org/a", expected: "new"),
        ShadowCase(name: "the new rule does not match the sample", user: "[settings]\nclean = true\n",
                   sample: "https://example.net/", expected: "notMatched default"),
        ShadowCase(name: "not matched, an earlier rule decides", user: earlierRule, sample: "https://www.example.org/",
                   expected: "notMatched All of example.org user:3"),
        ShadowCase(name: "a locked system rule", system: "[[rules]]\nname = \"Policy\"\nmatch.domain = \"example.org\"\ncopy = true\nlocked = true\n",
                   user: "", sample: "https://docs.example.org/a", expected: "locked Policy system:1"),
        ShadowCase(name: "an unlocked system rule", system: "\n[[rules]]\nname = \"Site\"\nmatch.host = \"docs.example.org\"\ncopy = true\n",
                   user: "", sample: "https://docs.example.org/a", expected: "shadowed Site system:2"),
        ShadowCase(name: "a recommended system rule comes after", system: "[[rules]]\nname = \"Hint\"\nmatch.host = \"docs.example.org\"\ncopy = true\nrecommended = true\n",
                   user: "", sample: "https://docs.example.org/a", expected: "new"),
        ShadowCase(name: "a sample that is not a URL", user: "", sample: "::", expected: "notAURL"),
    ]

    static func summary(_ outcome: UserRuleFile.SampleOutcome?) -> String {
        func place(_ rule: UserRuleFile.RuleMention) -> String { "\(rule.name) \(rule.source.layer.rawValue):\(rule.source.line)" }
        switch outcome {
        case .decidedByNewRule?: return "new"
        case .shadowed(let rule)?: return "shadowed " + place(rule)
        case .takenByLockedRule(let rule)?: return "locked " + place(rule)
        case .notMatched(let rule?)?: return "notMatched " + place(rule)
        case .notMatched(nil)?: return "notMatched default"
        case .notAURL?: return "notAURL"
        case nil: return "none"
        }
    }

    @Test(arguments: shadowCases)
    func anEarlierRuleThatTakesTheSampleIsNamed(_ test: ShadowCase) throws {
        let setup = try Setup("shadow", user: test.user, system: test.system)
        let draft = RuleDraft(name: "Docs", match: .host("docs.example.org"), action: .open(target: "system"))
        let preview = try UserRuleFile.preview(draft, configPath: setup.configPath, sampleURL: test.sample, systemDirs: setup.systemDirs, home: setup.home)
        // The preview writes nothing, and says what the append then does.
        #expect(FileSystem.contents(setup.configPath) == Array(test.user.utf8))
        #expect(Self.summary(preview.sample) == test.expected)
        let result = try setup.append(draft, sample: test.sample)
        #expect(result == preview)
        if test.expected.hasPrefix("shadowed") || test.expected.hasPrefix("locked") {
            #expect(result.shadowedBy?.source.file.hasSuffix("config.toml") == true)
        } else {
            #expect(result.shadowedBy == nil)
        }
    }

    @Test(arguments: [
        ("user", "config.toml:4"),
        ("remembered", "remembered.toml:2"),
        ("system", "etc/openurld/config.toml:1"),
    ])
    func aNameInUseIsRefusedWithItsPlace(layer: String, place: String) throws {
        let rule = "[[rules]]\nname = \"Docs\"\nmatch.domain = \"example.com\"\ncopy = true\n"
        let setup = try Setup("name", user: layer == "user" ? "# mine\n\n\n" + rule : "",
                              system: layer == "system" ? rule : nil, remembered: layer == "remembered" ? "\n" + rule : nil)
        let before = FileSystem.contents(setup.configPath)
        #expect {
            try setup.append(Self.docsCopy)
        } throws: { error in
            let description = (error as? UserRuleFile.AppendError)?.description ?? ""
            return (description.contains("already exists") && description.contains(place)) || { print(description); return false }()
        }
        #expect(FileSystem.contents(setup.configPath) == before)
    }
}
