import ConfigFiles
import ConfigLanguage
import Foundation
import Platform
import Testing

/// A `config.toml` that is a symbolic link (dotfiles): the rule is written at the link's target
/// when that is a regular file in the home directory, and the link stays a link; anything else
/// is refused and nothing changes.
@Suite struct UserRuleFileLinkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Files to create (relative to the tree, `home/` being the home directory).
        var files: [String]
        /// Folders to create.
        var folders: [String] = []
        /// Links to make before config.toml's: relative path → what it points to.
        var otherLinks: [(String, String)] = []
        /// What `home/.config/openurld/config.toml` points to (a tree-relative path is made absolute
        /// when it starts with `/`, else it is written as is).
        var link: String
        /// The file written (tree-relative), or nil when the append must be refused.
        var written: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "to a dotfile in the home, absolute", files: ["home/dotfiles/openurld.toml"],
             link: "/home/dotfiles/openurld.toml", written: "home/dotfiles/openurld.toml"),
        Case(name: "to a dotfile in the home, relative", files: ["home/dotfiles/openurld.toml"],
             link: "../../dotfiles/openurld.toml", written: "home/dotfiles/openurld.toml"),
        Case(name: "through a second link", files: ["home/dotfiles/openurld.toml"],
             otherLinks: [("home/current.toml", "dotfiles/openurld.toml")],
             link: "/home/current.toml", written: "home/dotfiles/openurld.toml"),
        Case(name: "to a file outside the home", files: ["shared/openurld.toml"], link: "/shared/openurld.toml", written: nil),
        Case(name: "to a link that leaves the home", files: ["shared/openurld.toml"],
             otherLinks: [("home/current.toml", "../shared/openurld.toml")], link: "/home/current.toml", written: nil),
        Case(name: "dangling", files: [], link: "/home/dotfiles/gone.toml", written: nil),
        Case(name: "to a folder in the home", files: [], folders: ["home/dotfiles/openurld"], link: "/home/dotfiles/openurld", written: nil),
    ]

    @Test(arguments: cases)
    func aLinkedConfigIsWrittenAtItsTargetOnlyInTheHome(_ test: Case) throws {
        let tree = try FileTree("link")
        let original = "# my dotfile\n[settings]\nclean = true\n"
        for file in test.files { try tree.write(file, original) }
        for folder in test.folders + ["home/.config/openurld"] {
            try FileManager.default.createDirectory(atPath: tree.root + "/" + folder, withIntermediateDirectories: true)
        }
        for (path, target) in test.otherLinks { try FileSystem.createSymbolicLink(at: tree.root + "/" + path, pointingTo: target) }
        let configPath = tree.root + "/home/.config/openurld/config.toml"
        try FileSystem.createSymbolicLink(at: configPath, pointingTo: test.link.hasPrefix("/") ? tree.root + test.link : test.link)
        let draft = RuleDraft(name: "Docs", match: .host("docs.example.org"), action: .copy)
        let append = { try UserRuleFile.append(draft, configPath: configPath, sampleURL: nil, home: tree.root + "/home") }
        if let written = test.written {
            let result = try append()
            let target = try FileSystem.resolvingSymbolicLinks(tree.root + "/" + written)
            #expect(result.path == target)
            #expect(FileSystem.contents(target) == Array(RuleAppender.appending(try draft.text, to: original).utf8))
            #expect(FileSystem.isSymbolicLink(configPath), "the link is kept")
            #expect(try ConfigFile.load(path: configPath, required: true).get().rules.map(\.label) == ["Docs"])
        } else {
            #expect {
                try append()
            } throws: { error in
                let description = (error as? UserRuleFile.AppendError)?.description ?? ""
                return description.contains("symbolic link") || { print(description); return false }()
            }
            #expect(FileSystem.isSymbolicLink(configPath))
            for file in test.files { #expect(FileSystem.contents(tree.root + "/" + file) == Array(original.utf8)) }
        }
    }
}
