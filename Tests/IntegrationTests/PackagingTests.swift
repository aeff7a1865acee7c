import DBus
import Foundation
import TestSupport
import Testing
import ConfigLanguage

/// `make install` / `uninstall` with PREFIX and DESTDIR, and the config's JSON Schema.
@Suite(.serialized) struct PackagingTests {
    /// What a package ships, relative to the staging root, for PREFIX=/usr.
    static let expectedFiles: Set<String> = Set([
        "usr/bin/openurl", "usr/bin/openurl-tool", "usr/bin/openurld", "usr/bin/openurl-chooser", "usr/bin/openurl-native-host",
        "usr/bin/openurl-settings",
        "usr/share/applications/io.github.openurld.desktop", "usr/share/applications/io.github.openurld.Settings.desktop",
        "usr/share/dbus-1/services/io.github.openurld.service",
        "usr/lib/systemd/user/openurld.service",
        "usr/share/man/man1/openurl.1", "usr/share/man/man1/openurld.1", "usr/share/man/man1/openurl-chooser.1", "usr/share/man/man5/openurld.toml.5",
        "usr/share/man/man1/openurl-native-host.1", "usr/share/man/man1/openurl-settings.1",
        "usr/share/bash-completion/completions/openurl", "usr/share/zsh/site-functions/_openurl",
        "usr/share/fish/vendor_completions.d/openurl.fish", "usr/share/openurld/config.schema.json",
        // The browser companion: the extension, unpacked and as Firefox's .xpi, and the host's
        // manifests where Firefox and Chromium read the system's.
        "usr/share/openurld/openurld-companion.xpi",
        "usr/lib/mozilla/native-messaging-hosts/io.github.openurld.json", "etc/chromium/native-messaging-hosts/io.github.openurld.json",
    ] + ["manifest.json", "background.js", "content.js", "container.html", "container.js", "options.html", "options.js"]
        .map { "usr/share/openurld/browser-extension/" + $0 })

    /// Runs make in the source tree, installing the already built debug binaries.
    static func make(_ arguments: [String], environment: [String: String]) throws -> ToolResult {
        let make = try Toolbox.require("make")
        let built = (try BuiltProduct.path("openurl-tool") as NSString).deletingLastPathComponent
        let generated = try Toolbox.temporaryDirectory("generated")
        return try Command.run([make, "-s", "-C", Toolbox.root, "BUILDDIR=\(built)", "GENDIR=\(generated)"] + arguments,
                               environment: environment, timeout: 60)
    }

    static func files(under root: String) -> Set<String> {
        var found = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue { found.insert(path) }
        }
        return found
    }

    @Test func aStagedInstallHoldsExactlyThePackageFilesAndTouchesNoHome() throws {
        let desktop = try IsolatedDesktop(name: "stage")
        let stage = desktop.root + "/stage"
        let install = try Self.make(["install-files", "PREFIX=/usr", "DESTDIR=\(stage)"], environment: desktop.environment)
        #expect(install.status == 0, "\(install)")
        #expect(Self.files(under: stage) == Self.expectedFiles)
        // One multi-call binary: the other names are relative symlinks to it, and both binaries are stripped.
        for name in ["openurl-tool", "openurl-chooser", "openurl-native-host", "openurl-settings"] {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: stage + "/usr/bin/" + name)) == "openurld", "\(name)")
        }
        // Each browser's host manifest names the installed host and only the companion.
        for (path, allowed) in [("usr/lib/mozilla/native-messaging-hosts/io.github.openurld.json", "\"allowed_extensions\": [\"companion@openurld.github.io\"]"),
                                ("etc/chromium/native-messaging-hosts/io.github.openurld.json", "\"allowed_origins\": [\"chrome-extension://hpnkcnnaigafnfpajjilndogjkikpgce/\"]")] {
            let manifest = try String(contentsOfFile: stage + "/" + path, encoding: .utf8)
            #expect(manifest.contains("\"path\": \"/usr/bin/openurl-native-host\"") && manifest.contains(allowed), "\(path): \(manifest)")
            #expect((try? JSONSerialization.jsonObject(with: Data(manifest.utf8))) is [String: Any], "\(path) is not JSON")
        }
        // The .xpi holds the extension's files as they are in browser/.
        let listing = try Command.run([try Toolbox.require("python3"), "-c", "import sys, zipfile; print(' '.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
                                       stage + "/usr/share/openurld/openurld-companion.xpi"])
        #expect(listing.stdout.contains("manifest.json") && listing.stdout.contains("content.js"), "\(listing)")
        for name in ["openurl", "openurld"] {
            let sections = try Command.run([try Toolbox.require("readelf"), "-S", stage + "/usr/bin/" + name])
            #expect(sections.status == 0 && sections.stdout.contains(".text"), "\(sections)")
            #expect(!sections.stdout.contains(".symtab"), "\(name) is installed unstripped")
        }
        #expect(Self.files(under: desktop.home).isEmpty && Self.files(under: desktop.dataHome).isEmpty && Self.files(under: desktop.configHome).isEmpty,
                "a staged install wrote into the home directory")
        let service = try String(contentsOfFile: stage + "/usr/share/dbus-1/services/io.github.openurld.service", encoding: .utf8)
        #expect(service.contains("Exec=/usr/bin/openurld\n"), "\(service)")
        let unit = try String(contentsOfFile: stage + "/usr/lib/systemd/user/openurld.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/openurld\n"), "\(unit)")
        let entry = try String(contentsOfFile: stage + "/usr/share/applications/io.github.openurld.desktop", encoding: .utf8)
        #expect(entry.contains("Exec=/usr/bin/openurl %u\n"), "\(entry)")
        let validate = try Command.run([try Toolbox.require("desktop-file-validate"), stage + "/usr/share/applications/io.github.openurld.desktop"])
        #expect(validate.status == 0 && validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate)")
        let schema = try Data(contentsOf: URL(fileURLWithPath: stage + "/usr/share/openurld/config.schema.json"))
        #expect((try? JSONSerialization.jsonObject(with: schema)) is [String: Any])

        let uninstall = try Self.make(["uninstall", "PREFIX=/usr", "DESTDIR=\(stage)"], environment: desktop.environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(Self.files(under: stage).isEmpty, "left behind: \(Self.files(under: stage))")
    }

    /// Issue 10 case 6: uninstall gives the defaults back while openurl still exists, stops the
    /// daemon, then removes every file, so no link is left pointing at a missing handler.
    @Test func uninstallGivesTheDefaultsBackAndStopsTheDaemon() throws {
        let harness = try DaemonHarness(name: "uninstall")
        let prefix = harness.desktop.home + "/.local"
        let install = try Self.make(["install-files", "PREFIX=\(prefix)"], environment: harness.environment)
        #expect(install.status == 0, "\(install)")
        let mimeapps = harness.desktop.configHome + "/mimeapps.list"
        let before = "[Default Applications]\nx-scheme-handler/http=browser.desktop\nx-scheme-handler/https=browser.desktop\n"
        try before.write(toFile: mimeapps, atomically: true, encoding: .utf8)
        // make setup: the per-user step takes over the defaults and routes a test link, which
        // the daemon hands to the previous default (the recording browser).
        let setup = try Self.make(["setup", "PREFIX=\(prefix)"], environment: harness.environment)
        #expect(setup.status == 0, "\(setup)")
        #expect(try String(contentsOfFile: mimeapps, encoding: .utf8).contains("io.github.openurld.desktop"))
        #expect(harness.browser.waitForRecords(1).last?.last == "https://example.org/", "\(harness.browser.records())")
        _ = try harness.call("ListRules")
        let pid = try harness.daemonPID()
        // The companion host's manifests are where each browser reads a user's, naming the installed host.
        let manifests = [harness.desktop.home + "/.mozilla/native-messaging-hosts/io.github.openurld.json",
                         harness.desktop.configHome + "/chromium/NativeMessagingHosts/io.github.openurld.json"]
        let status = try harness.run([prefix + "/bin/openurl", "status"])
        for browser in ["Firefox", "Chromium"] {
            #expect(status.stdout.contains("ok      companion host (\(browser)): ") && status.stdout.contains("→ \(prefix)/bin/openurl-native-host"),
                    "\(status.stdout)")
        }

        let uninstall = try Self.make(["uninstall", "PREFIX=\(prefix)"], environment: harness.environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(uninstall.stdout.contains("restored the previous default handlers"), "\(uninstall)")
        let after = try String(contentsOfFile: mimeapps, encoding: .utf8)
        #expect(!after.contains("io.github.openurld"), "\(after)")
        #expect(after.contains("x-scheme-handler/http=browser.desktop"), "\(after)")
        #expect(eventually { kill(pid_t(pid), 0) != 0 }, "openurld (pid \(pid)) still runs")
        // mimeinfo.cache is update-desktop-database's index of every app there, not ours.
        let left = Self.files(under: prefix).subtracting(["share/applications/mimeinfo.cache"])
        #expect(left.isEmpty, "left behind: \(left)")
        for manifest in manifests { #expect(!FileManager.default.fileExists(atPath: manifest), "left behind: \(manifest)") }
    }

    /// The schema validates every config block in README.md (some name browsers this machine
    /// lacks, so only the schema checks them here), and
    /// rejects a misspelt key, with Debian's python3-jsonschema.
    @Test func theSchemaValidatesTheReadmeAndRejectsMisspeltKeys() throws {
        let python = try Toolbox.require("python3")
        let check = try Command.run([python, "-c", "import jsonschema, tomllib"])
        guard check.status == 0 else { throw HarnessError("python3 needs jsonschema and tomllib: apt-get install python3-jsonschema (Python 3.11+)") }
        let directory = try Toolbox.temporaryDirectory("schema")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = try Toolbox.generate("schema", into: directory, as: "config.schema.json")
        let validator = Toolbox.root + "/Tests/Toolbox/validate_config.py"

        let readme = try String(contentsOfFile: Toolbox.root + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```toml\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(!blocks.isEmpty)
        var files: [String] = []
        for (index, block) in blocks.enumerated() {
            let file = directory + "/readme-\(index + 1).toml"
            try block.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let valid = try Command.run([python, validator, schema] + files)
        #expect(valid.status == 0, "\(valid)")

        let misspelt = directory + "/misspelt.toml"
        try "[settings]\ncleen = true\n[[rules]]\nmatch.domian = \"x.org\"\nopen = \"system\"\n".write(toFile: misspelt, atomically: true, encoding: .utf8)
        let invalid = try Command.run([python, validator, schema, misspelt])
        #expect(invalid.status == 1, "\(invalid)")
        #expect(invalid.stdout.contains("'cleen' was unexpected") && invalid.stdout.contains("'domian' was unexpected"), "\(invalid)")
        let twoActions = directory + "/two-actions.toml"
        try "[[rules]]\nopen = \"system\"\ndiscard = true\n".write(toFile: twoActions, atomically: true, encoding: .utf8)
        #expect(try Command.run([python, validator, schema, twoActions]).status == 1)
    }

    /// Each key's example config (the same ones the loader test loads) validates against the schema.
    @Test func everyKeyExampleValidatesAgainstTheSchema() throws {
        let python = try Toolbox.require("python3")
        let directory = try Toolbox.temporaryDirectory("keys")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = try Toolbox.generate("schema", into: directory, as: "config.schema.json")
        var files: [String] = []
        for (index, example) in ConfigSchema.keyExamples.enumerated() {
            let file = directory + "/\(index)-\(example.path).toml"
            try example.toml.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let result = try Command.run([python, Toolbox.root + "/Tests/Toolbox/validate_config.py", schema] + files)
        #expect(result.status == 0, "\(result.stdout.split(separator: "\n").filter { $0.contains("invalid") })")
    }
}
