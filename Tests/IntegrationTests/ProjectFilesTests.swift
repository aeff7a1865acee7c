import Foundation
import Testing

/// Issue 21, cases 11 and 12: the README's one test command installs what the tests need and is
/// exactly what CI runs; its set-up line works on a fresh container; the project says it is
/// Apache-2.0 in LICENSE, README and debian/copyright (the data built in with their licences).
@Suite struct ProjectFilesTests {
    static func read(_ path: String) throws -> String { try String(contentsOfFile: Toolbox.root + "/" + path, encoding: .utf8) }

    /// The commands of README's "Set up and test" block, comments left out.
    static func setUpCommands() throws -> [String] {
        let readme = try read("README.md")
        let section = try #require(readme.components(separatedBy: "## Set up and test\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        return block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The Debian packages `.ci/test-deps` installs.
    static func testPackages() throws -> Set<String> {
        let script = try read(".ci/test-deps")
        let list = try #require(script.components(separatedBy: "packages=(\n").dropFirst().first?.components(separatedBy: "\n)").first)
        return Set(list.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .flatMap { $0.split(separator: " ").map(String.init) })
    }

    @Test func theReadmeHasOneTestCommandAndCIRunsExactlyIt() throws {
        let commands = try Self.setUpCommands()
        #expect(commands.count == 2, "\(commands)")
        // A fresh container has no package lists: the set-up line starts by fetching them.
        #expect(commands.first?.hasPrefix("apt-get update && apt-get install -y ") == true, "\(commands)")
        let test = try #require(commands.last)
        #expect(test == "make check-all", "\(commands)")
        // .ci/run runs that command and nothing else.
        let run = try Self.read(".ci/run").split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(run.last == "exec \(test)", "\(run)")
        #expect(run.filter { !["set -euo pipefail", "cd \"$(dirname \"$0\")/..\""].contains($0) } == ["exec \(test)"], "\(run)")
        // make check-all installs the test dependencies before it runs anything.
        let makefile = try Self.read("Makefile")
        #expect(makefile.contains("\ncheck-all: test-deps\n\t$(MAKE) test\n"), "Makefile's check-all")
        #expect(makefile.contains("\ntest-deps:\n\t.ci/test-deps\n"))
        let script = try Self.read(".ci/test-deps")
        #expect(script.contains("apt-get update -qq\n") && script.contains("apt-get install -y -qq \"${missing[@]}\""))
    }

    @Test func theTestDependenciesHoldEveryPackageATestAsksFor() throws {
        let packages = try Self.testPackages()
        let setUp = try #require(try Self.setUpCommands().first)
        let built = setUp.components(separatedBy: "apt-get install -y ").dropFirst().first?.components(separatedBy: " && ").first ?? ""
        // What the build needs, what the toolbox tests name when a tool is missing, and the real browsers.
        let needed = built.split(separator: " ").map(String.init) + Array(Toolbox.packages.values)
            + ["firefox-esr", "chromium", "xdg-utils", "libglib2.0-bin", "dunst", "xvfb", "xdotool", "lintian", "debhelper"]
        for package in needed {
            #expect(packages.contains(package), ".ci/test-deps does not install \(package)")
        }
    }

    @Test func theProjectIsApacheTwoPointZeroEverywhereItSays() throws {
        let license = try Self.read("LICENSE")
        #expect(license.contains("Apache License\n                           Version 2.0, January 2004"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"))
        if let common = try? String(contentsOfFile: "/usr/share/common-licenses/Apache-2.0", encoding: .utf8) {
            #expect(license == common, "LICENSE is not the Apache License 2.0 text Debian ships")
        }
        let readme = try Self.read("README.md")
        #expect(readme.contains("\n## License\n") && readme.contains("Apache License, Version 2.0"))

        let copyright = try Self.read("debian/copyright")
        #expect(!copyright.contains("not chosen a license"), "debian/copyright still says there is no licence")
        let paragraphs = copyright.components(separatedBy: "\n\n")
        let all = try #require(paragraphs.first { $0.hasPrefix("Files: *\n") })
        #expect(all.contains("\nLicense: Apache-2.0"), "\(all)")
        // Every licence a Files paragraph names has its own paragraph with its text.
        let named = Set(paragraphs.filter { $0.hasPrefix("Files: ") }.flatMap { paragraph in
            paragraph.split(separator: "\n").filter { $0.hasPrefix("License: ") }
                .flatMap { $0.dropFirst("License: ".count).components(separatedBy: " and ") }
        })
        #expect(named.isSuperset(of: ["Apache-2.0", "MIT", "Unicode-3.0"]), "\(named)")
        for name in named {
            let text = paragraphs.first { $0.hasPrefix("License: \(name)\n") }
            #expect(text.map { $0.split(separator: "\n").count > 3 } == true, "debian/copyright has no text for \(name)")
        }
        // The data compiled in: each file's own paragraph names where it came from.
        for file in ["Sources/LinkExtraction/TopLevelDomains.swift", "Sources/LinkSafety/IDNTables.swift"] {
            #expect(FileManager.default.fileExists(atPath: Toolbox.root + "/" + file), "\(file) moved: update debian/copyright")
            #expect(paragraphs.contains { $0.hasPrefix("Files: \(file)\n") }, "debian/copyright does not list \(file)")
        }
    }
}
