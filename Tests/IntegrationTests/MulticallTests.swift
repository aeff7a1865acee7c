import DBus
import Foundation
import TestSupport
import Testing

/// Issue 15: openurld, openurl-tool and openurl-chooser are one binary that dispatches on its
/// name, and GTK is loaded (dlopen) only in chooser mode, so the daemon never maps it.
@Suite struct MulticallTests {
    /// The shared libraries `binary` names in its dynamic section (`readelf -d`).
    static func neededLibraries(_ binary: String) throws -> [String] {
        let result = try Command.run([try Toolbox.require("readelf"), "-d", binary])
        try #require(result.status == 0, "readelf -d \(binary) failed: \(result)")
        // "0x0000000000000001 (NEEDED)  Shared library: [libdbus-1.so.3]"
        return result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// A directory holding an empty `libgtk-4.so.1`: with it first on `LD_LIBRARY_PATH`,
    /// dlopen finds it and fails, as on a system without GTK 4.
    static func brokenGTKDirectory(_ desktop: IsolatedDesktop) throws -> String {
        let directory = desktop.root + "/no-gtk"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: directory + "/libgtk-4.so.1"))
        return directory
    }

    @Test func theMultiCallBinaryDoesNotLinkGTKOrGLib() throws {
        let needed = try Self.neededLibraries(try BuiltProduct.path("openurld"))
        // The check can fail: the binary does link libdbus.
        #expect(needed.contains { $0.hasPrefix("libdbus-1.so") }, "\(needed)")
        for library in ["libgtk-4.so", "libpango-1.0.so", "libcairo.so", "libgdk_pixbuf-2.0.so", "libgraphene-1.0.so"] {
            #expect(!needed.contains { $0.hasPrefix(library) }, "openurld links \(library), which only the chooser needs: \(needed)")
        }
        // GLib comes with GTK in the windows' modes; the daemon and the tool read desktop
        // entries and Exec lines themselves (GIOOracleTests), so they start without it.
        for library in ["libgio-2.0.so", "libgobject-2.0.so", "libglib-2.0.so"] {
            #expect(!needed.contains { $0.hasPrefix(library) }, "openurld links \(library), which only the windows need: \(needed)")
        }
    }

    @Test(arguments: [
        ("openurld", ["--version"], "openurld "),
        ("openurl-tool", ["--version"], "openurl "),
        ("openurl-chooser", ["--dump", "--url", "https://example.org/", "--choice", "copy"], "\"registrable_domain\":\"example.org\""),
    ])
    func eachNameRunsItsOwnPart(name: String, arguments: [String], output: String) throws {
        let path = try BuiltProduct.path(name)
        let result = try Command.run([path] + arguments, environment: [:])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(output), "\(result)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == (name == "openurld" ? nil : "openurld"))
    }

    @Test func anUnknownNameIsRefusedNamingTheThree() throws {
        let desktop = try IsolatedDesktop(name: "multicall")
        let link = desktop.root + "/openurl-frobnicate"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try BuiltProduct.path("openurld"))
        let result = try Command.run([link, "--help"], environment: [:])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("run as \"openurl-frobnicate\""), "\(result)")
        for name in ["openurld", "openurl-tool", "openurl-chooser"] {
            #expect(result.stderr.contains(name), "\(result)")
        }
    }

    @Test(arguments: [["--url", "https://example.org/", "--choice", "copy"], ["--serve"]])
    func withoutGTKTheChooserExitsSayingWhatToInstall(arguments: [String]) throws {
        let desktop = try IsolatedDesktop(name: "nogtk")
        let environment = ["LD_LIBRARY_PATH": try Self.brokenGTKDirectory(desktop), "DISPLAY": ":99"]
        let result = try Command.run([try BuiltProduct.path("openurl-chooser")] + arguments, environment: environment, timeout: 10)
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("openurl-chooser: cannot load GTK 4 ("), "\(result)")
        #expect(result.stderr.contains("libgtk-4-1"), "\(result)")
        // --dump needs no GTK and still works.
        let dump = try Command.run([try BuiltProduct.path("openurl-chooser"), "--dump", "--url", "https://example.org/", "--choice", "copy"],
                                   environment: environment)
        #expect(dump.status == 0, "\(dump)")
    }

    /// The daemon finds the chooser, which cannot load GTK: the question goes to the next way
    /// of asking (notification buttons), and the chosen app opens once.
    @Test func withoutGTKTheDaemonAsksByNotificationInstead() throws {
        let config = """
            [settings]
            dedupe_ms = 0

            [[rules]]
            name = "ask"
            match.domain = "ask.example"
            ask = ["browser.desktop", "work.desktop"]
            """
        let scratch = try IsolatedDesktop(name: "nogtkdir")
        let harness = try DaemonHarness(config: config, name: "nogtkask", withDesktopSession: true,
                                        session: ["LD_LIBRARY_PATH": try Self.brokenGTKDirectory(scratch)])
        let server = try #require(harness.notifications)
        let reply = try harness.call("Open", [.string("https://ask.example/nogtk"), .vardict([:])]).first?.dictionary ?? [:]
        #expect(reply["decision"]?.string == "ask")
        var chosen = false
        #expect(eventually(timeout: 10) {
            if !chosen, (try? server.chooseAction(key: "work.desktop")) != nil { chosen = server.lastMenu.contains { $0.contains("Work Browser") } }
            return chosen
        }, "no ask notification after the chooser failed; menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://ask.example/nogtk"]])
        #expect(try harness.settledOutcomes(of: "https://ask.example/nogtk") == ["done"])
        #expect(harness.browser.records().count == 1)
        let recent = try harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary
        #expect(recent?["target"]?.string == "work.desktop", "\(String(describing: recent))")
    }
}
