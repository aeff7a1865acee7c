import BrowserCompanion
import Foundation
import Testing

/// What `openurl status` says of the companion host's manifests, from homes made for the test.
@Suite struct HostManifestsTests {
    func root() throws -> String {
        let root = NSTemporaryDirectory() + "manifests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/home/.config", withIntermediateDirectories: true)
        return root
    }

    func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func noneInstalledSaysWhereTheUsersWouldGo() throws {
        let root = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = HostManifests.find(home: root + "/home", configHome: root + "/home/.config", systemRoot: root)
        #expect(found.map(\.browser) == ["Firefox", "Chromium"])
        #expect(found.allSatisfy { !$0.installed && $0.problem == nil })
        #expect(found[0].path == root + "/home/.mozilla/native-messaging-hosts/io.github.openurld.json")
        #expect(found[1].path == root + "/home/.config/chromium/NativeMessagingHosts/io.github.openurld.json")
    }

    @Test func theUsersComesBeforeTheSystemsAndAMissingHostIsAProblem() throws {
        let root = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write(#"{"name":"io.github.openurld","path":"/bin/true","type":"stdio"}"#, root + "/usr/lib/mozilla/native-messaging-hosts/io.github.openurld.json")
        try write(#"{"name":"io.github.openurld","path":"/nowhere/openurl-native-host","type":"stdio"}"#,
                  root + "/home/.config/chromium/NativeMessagingHosts/io.github.openurld.json")
        try write("not json", root + "/etc/chromium/native-messaging-hosts/io.github.openurld.json")
        let found = HostManifests.find(home: root + "/home", configHome: root + "/home/.config", systemRoot: root)
        #expect(found[0].installed && found[0].host == "/bin/true" && found[0].problem == nil, "\(found[0])")
        #expect(found[0].path.hasPrefix(root + "/usr/lib/mozilla/"))
        #expect(found[1].host == "/nowhere/openurl-native-host" && found[1].problem?.contains("not an executable file") == true, "\(found[1])")
        try FileManager.default.removeItem(atPath: root + "/home/.config/chromium")
        #expect(HostManifests.find(home: root + "/home", configHome: root + "/home/.config", systemRoot: root)[1].problem == "not a JSON manifest")
    }
}
