import JSON

/// One thing a rule can open, as `openurl apps` and `Router1.ListTargets` list it.
public struct TargetListing: Sendable, Equatable {
    /// What it is.
    public enum Kind: String, Sendable {
        case browser, profile, `private`, action, entry, webmail, mailer, app, system
        /// An app-mode window (`chromium:app`).
        case appWindow = "app-window"
        /// An installed web app (a Chromium `--app-id=` entry).
        case webApp = "web-app"
        /// A Firefox container of a profile (`firefox:Work:container:Shopping`), opened through the companion extension.
        case container
    }

    /// The string to paste into a rule (`open = "firefox:Work"`).
    public var target: String
    /// What it is.
    public var kind: Kind
    /// The name people see (`Work`, `Firefox`, `New Private Window`).
    public var name: String
    /// The desktop entry it launches, if any.
    public var app: String?
    /// For profiles: the one the browser opens by default.
    public var isDefault: Bool

    /// Creates a listing.
    public init(target: String, kind: Kind, name: String, app: String? = nil, isDefault: Bool = false) {
        self.target = target
        self.kind = kind
        self.name = name
        self.app = app
        self.isDefault = isDefault
    }

    /// `{"target","kind","name","app","default"}`, the object `openurl apps --json` prints per line.
    public var json: JSONValue {
        .object([("target", .string(target)), ("kind", .string(kind.rawValue)), ("name", .string(name)),
                 ("app", app.map { .string($0) } ?? .null), ("default", .bool(isDefault))])
    }
}
