import Foundation

/// An HTTP proxy on 127.0.0.1 that records the request line of every request it gets and
/// answers each with a short page: a browser profile whose preferences point at it proves, by
/// what it recorded, which links that profile loaded. Nothing leaves the machine.
public final class RecordingProxy: @unchecked Sendable {
    /// The port it listens on (chosen by the kernel).
    public let port: UInt16
    private let listener: Int32
    private let lines = Locked<[String]>([])
    private let stopped = Locked(false)
    private let served = Locked<[String: String]>([:])

    /// What a request for a path (the target without its query) is answered with, beside the
    /// default page; lets the proxy serve a site of its own as a plain web server.
    private let pages: [String: (type: String, body: [UInt8])]

    /// Listens on 127.0.0.1 and serves on a thread of its own until `stop()`.
    public init(pages: [String: (type: String, body: [UInt8])] = [:]) throws {
        self.pages = pages
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else { close(socket); throw HarnessError("bind/listen: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        listener = socket
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    /// `host:port`, as a browser's proxy setting takes it.
    public var address: String { "127.0.0.1:\(port)" }

    /// The request lines so far (`GET http://work.example/a HTTP/1.1`), oldest first.
    public var requests: [String] { lines.value }

    /// Whether some request asked for `url` (an absolute `http://` URL, as a proxy is asked).
    public func saw(_ url: String) -> Bool { requests.contains { $0.hasPrefix("GET \(url) ") } }

    /// Waits until a request for `url` arrives.
    public func wait(for url: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if saw(url) { return true }
            usleep(50_000)
        }
        return saw(url)
    }

    /// Serves `html` for `url` (as the request line names it: an absolute URL through the proxy,
    /// a path when asked directly); every other request still gets the short page.
    public func serve(_ html: String, at url: String) { served.update { $0[url] = html } }

    /// Stops listening.
    public func stop() {
        guard !stopped.value else { return }
        stopped.update { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while !stopped.value {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if stopped.value { return }
                continue
            }
            Thread.detachNewThread { [self] in answer(client) }
        }
    }

    /// Reads one request's head, records its first line, answers 200 and closes.
    private func answer(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 65_536 {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            head += buffer[0..<count]
            if head.count >= 4, String(decoding: head, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        guard let line = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first, !line.isEmpty else { return }
        lines.update { $0.append(String(line)) }
        let parts = line.split(separator: " ")
        let target = parts.count > 1 ? String(parts[1]) : ""
        // A page served for the whole target (a proxied URL) first, then one for the path.
        let page = served.value[target].map { (type: "text/html; charset=utf-8", body: Array($0.utf8)) }
            ?? pages[String(target.prefix { $0 != "?" })]
            ?? (type: "text/html", body: Array("<html><body>recorded</body></html>".utf8))
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: \(page.type)\r\nCache-Control: no-store\r\nContent-Length: \(page.body.count)\r\nConnection: close\r\n\r\n".utf8) + page.body
        _ = response.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
