import JSON

/// A link the extension saw clicked, with what the page said about it.
public struct ClickedLink: Sendable, Equatable {
    /// The link's address (`href`).
    public var url: String
    /// The page (or frame) it was on.
    public var origin: String?
    /// The text it was shown as.
    public var text: String?
    /// Whether links to the page's own site are routed too (the extension's setting).
    public var sameSite: Bool

    /// A clicked link.
    public init(url: String, origin: String? = nil, text: String? = nil, sameSite: Bool = false) {
        self.url = url
        self.origin = origin
        self.text = text
        self.sameSite = sameSite
    }
}

/// One message from the extension; every one carries an `id` its answer repeats.
public struct CompanionRequest: Sendable, Equatable {
    /// What is asked.
    public enum Kind: Sendable, Equatable {
        /// The extension connected: which browser, which version of it, and the random id this
        /// profile's copy keeps in its storage (how the host tells a Chromium profile).
        case hello(browser: String?, version: String?, instance: String?)
        /// Would the rules keep this link in this browser?
        case explain(ClickedLink)
        /// Route it (the rules send it elsewhere).
        case open(ClickedLink)
    }

    /// The id the answer repeats.
    public var id: JSONValue
    /// What is asked.
    public var kind: Kind

    /// Why a message is not a request.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// The message's id, when it had one, so the answer reaches the right caller.
        public var id: JSONValue
        /// What is wrong.
        public var description: String
    }

    /// Reads a message's bytes.
    public init(bytes: [UInt8]) throws(Problem) {
        let value: JSONValue
        do { value = try JSONValue(parsing: bytes) } catch { throw Problem(id: .null, description: "not JSON: \(error)") }
        guard case .object = value else { throw Problem(id: .null, description: "a message must be a JSON object") }
        let id = value["id"] ?? .null
        guard let type = value["type"]?.string else { throw Problem(id: id, description: "no \"type\"") }
        func link() throws(Problem) -> ClickedLink {
            guard let url = value["url"]?.string, !url.isEmpty else { throw Problem(id: id, description: "\(type): no \"url\"") }
            return ClickedLink(url: url, origin: value["origin"]?.string, text: value["text"]?.string,
                               sameSite: value["sameSite"]?.bool ?? false)
        }
        self.id = id
        switch type {
        case "hello": kind = .hello(browser: value["browser"]?.string, version: value["version"]?.string, instance: value["instance"]?.string)
        case "explain": kind = .explain(try link())
        case "open": kind = .open(try link())
        default: throw Problem(id: id, description: "unknown type \"\(type)\" (hello, explain, open)")
        }
    }
}
