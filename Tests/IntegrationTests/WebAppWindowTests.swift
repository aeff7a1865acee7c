import Foundation
import TestSupport
import Testing

extension RealBrowsers {
/// Issue 34, part 4: a web app installed in Debian's Chromium (by Chromium itself, through the
/// DevTools protocol's `PWA.install` over `--remote-debugging-pipe`: no policy file, nothing
/// outside the sandbox but the root flag file) is a target, and a link sent to it opens in the
/// app's own window at that link. The site is served on 127.0.0.1 by the test; Xvfb, no
/// window manager; the browser is killed before the test ends.
@Suite(.serialized) struct WebAppWindowTests {
    @Test func aLinkSentToAnInstalledWebAppOpensTheAppsWindowAtTheLink() throws {
        for (program, package) in [("chromium", "chromium"), ("xdotool", "xdotool")] where ChildProcess.findExecutable(program) == nil {
            throw HarnessError("\(program) is not installed: apt-get install -y \(package) (the web-app test installs a site in Debian's Chromium)")
        }
        let site = try WebAppSite()
        defer { site.stop() }
        let harness = try DaemonHarness(name: "webapp", withDesktopSession: true)
        let browser = try DevToolsBrowser(harness: harness, userData: harness.desktop.configHome + "/chromium")
        defer { browser.stop() }

        try browser.command("PWA.install", #"{"manifestId":"\#(site.root)","installUrlOrBundleUrl":"\#(site.root)"}"#)
        // Installed this way the app opens in a browser tab; as a user installs it, in a window of its own.
        try browser.command("PWA.changeAppUserSettings", #"{"manifestId":"\#(site.root)","displayMode":"standalone"}"#)
        // Chromium writes the app's entry where the desktop looks: $XDG_DATA_HOME/applications.
        var entry: String?
        _ = try eventually(timeout: 30) {
            entry = try FileManager.default.contentsOfDirectory(atPath: harness.desktop.applicationsDir)
                .first { $0.hasPrefix("chrome-") && $0.hasSuffix("-Default.desktop") }
            return entry != nil
        }
        let id = try #require(entry, "no web-app entry in \(harness.desktop.applicationsDir)")
        let appID = String(id.dropFirst("chrome-".count).dropLast("-Default.desktop".count))
        try harness.writeConfig("[default]\nopen = \"\(id)\"\n")

        let link = site.root + "page2.html?from=openurld"
        let test = try harness.run([harness.openurl, "test", link])
        #expect(test.stdout.contains("--app-id=\(appID)") && test.stdout.contains("--app-launch-url-for-shortcuts-menu-item=\(link)"), "\(test)")
        let result = try harness.run([harness.openurl, link])
        #expect(result.status == 0, "\(result)")
        #expect(site.wait(for: "/page2.html?from=openurld", timeout: 30), "the site was asked for \(site.requests)")
        // The app's own window (its WM_CLASS instance is crx_ID; a tab or a plain --app window has another) shows the link's page.
        var titles: [String] = []
        let found = try eventually(timeout: 20) {
            let windows = try harness.run(["xdotool", "search", "--classname", "crx_" + appID]).stdout.split(separator: "\n")
            titles = try windows.map { try harness.run(["xdotool", "getwindowname", String($0)]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
            return titles.contains { $0.hasSuffix("WebAppPage2") }
        }
        let all = try harness.run(["xdotool", "search", "--name", "."]).stdout.split(separator: "\n").map { window in
            (try? harness.run(["xprop", "-id", String(window), "WM_CLASS", "WM_NAME"]).stdout) ?? String(window)
        }
        let targets = try browser.command("Target.getTargets")
        #expect(found, "app windows: \(titles); all: \(all); env DISPLAY=\(harness.environment["DISPLAY"] ?? "-"); targets: \(targets)")
    }
}
}

/// The suite by its own name, for the helpers beside it.
typealias WebAppWindowTests = RealBrowsers.WebAppWindowTests

/// A site Chromium can install as a web app: a start page, a second page, a manifest and an
/// icon (Chromium refuses to install without one), on 127.0.0.1 (a secure context over http).
final class WebAppSite: @unchecked Sendable {
    private let proxy: RecordingProxy
    var root: String { "http://127.0.0.1:\(proxy.port)/" }

    init() throws {
        let page = { (title: String) in Array("<!doctype html><html><head><title>\(title)</title><link rel=\"manifest\" href=\"/manifest.json\"></head><body>\(title)</body></html>".utf8) }
        let manifest = #"{"name":"WebAppTest","start_url":"/","scope":"/","display":"standalone","icons":[{"src":"/icon.png","sizes":"192x192","type":"image/png"}]}"#
        proxy = try RecordingProxy(pages: [
            "/": (type: "text/html", body: page("WebAppHome")),
            "/page2.html": (type: "text/html", body: page("WebAppPage2")),
            "/manifest.json": (type: "application/manifest+json", body: Array(manifest.utf8)),
            "/icon.png": (type: "image/png", body: PNG.square(side: 192)),
        ])
    }

    /// The request targets so far (`/page2.html?from=openurld`).
    var requests: [String] { proxy.requests.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) } }

    func wait(for target: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if requests.contains(target) { return true }
            usleep(100_000)
        }
        return requests.contains(target)
    }

    func stop() { proxy.stop() }
}

/// Debian's Chromium (its wrapper, so the entries it writes run the wrapper too) with the
/// DevTools protocol on fds 3 and 4: NUL-terminated JSON, no WebSocket needed.
final class DevToolsBrowser {
    private let process = Process()
    private let toBrowser = Pipe()
    private let fromBrowser = Pipe()
    private let harness: DaemonHarness
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// The flag file giving Chromium `--no-sandbox` as root (Debian's wrapper reads it, also when
    /// the daemon runs the app's entry); its own name, so RealBrowserTests' file is left alone.
    static let rootFlags = "/etc/chromium.d/zz-openurld-webapp-test"

    init(harness: DaemonHarness, userData: String) throws {
        self.harness = harness
        if getuid() == 0 {
            try "# Written by openurld's WebAppWindowTests; removed when they end.\nexport CHROMIUM_FLAGS=\"$CHROMIUM_FLAGS --no-sandbox --no-first-run --no-default-browser-check --password-store=basic --disable-gpu\"\n"
                .write(toFile: Self.rootFlags, atomically: true, encoding: .utf8)
        }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec chromium \"$@\" 3<&0 4>&1 </dev/null >/dev/null 2>/dev/null", "sh",
                             "--user-data-dir=\(userData)", "--remote-debugging-pipe", "about:blank"]
        process.environment = harness.environment
        process.standardInput = toBrowser
        process.standardOutput = fromBrowser
        do { try process.run() } catch { stop(); throw error }
    }

    /// Sends `method` and waits for its answer; an error answer throws.
    @discardableResult
    func command(_ method: String, _ params: String = "{}", timeout: Double = 60) throws -> String {
        let id = nextID
        nextID += 1
        toBrowser.fileHandleForWriting.write(Data(#"{"id":\#(id),"method":"\#(method)","params":\#(params)}"#.utf8 + [0]))
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            while let end = buffer.firstIndex(of: 0) {
                let message = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                guard message.hasPrefix(#"{"id":\#(id),"#) else { continue }
                if message.contains(#""error":"#) { throw HarnessError("\(method): \(message)") }
                return message
            }
            let data = fromBrowser.fileHandleForReading.availableData
            guard !data.isEmpty else { throw HarnessError("chromium closed the DevTools pipe before answering \(method)") }
            buffer += data
        }
        throw HarnessError("chromium did not answer \(method) within \(timeout) s")
    }

    /// Kills every Chromium process of the sandbox's home (the browser and what it started)
    /// and removes the flag file.
    func stop() {
        let left = RealBrowserDesktop.killAll(home: harness.desktop.home, programs: ["chromium"])
        if !left.isEmpty { Issue.record("chromium still running after cleanup: \(left)") }
        if process.isRunning { process.terminate() }
        if getuid() == 0 { try? FileManager.default.removeItem(atPath: Self.rootFlags) }
    }
}

/// A square red PNG, uncompressed (stored deflate blocks): enough for a manifest icon.
enum PNG {
    static func square(side: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<side { raw += [0] + Array(repeating: [255, 0, 0], count: side).flatMap { $0 } }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += bigEndian(b << 16 | a)
        let header = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
