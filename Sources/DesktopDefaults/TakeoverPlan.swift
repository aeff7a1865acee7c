import Launching
import Platform

/// One setting `openurl install` changes so that a desktop's own path reaches openurld.
public struct TakeoverEdit: Sendable, Equatable {
    /// What the setting decides.
    public enum Purpose: Sendable, Equatable {
        /// A `[Default Applications]` line of a mimeapps.list for this MIME type.
        case mimeDefault(String)
        /// XFCE's `WebBrowser=` helper (http and https).
        case xfceBrowser
        /// XFCE's `MailReader=` helper (mailto).
        case xfceMail
        /// KDE's `kdeglobals [General] BrowserApplication` (http and https in KIO apps).
        case kdeBrowser
        /// KDE's `emaildefaults EmailClient` (mailto in KDE apps and `xdg-email`).
        case kdeMail

        /// The purpose of a setting by its key.
        init(key: String) {
            switch key {
            case "WebBrowser": self = .xfceBrowser
            case "MailReader": self = .xfceMail
            case "BrowserApplication": self = .kdeBrowser
            case "EmailClient": self = .kdeMail
            default: self = .mimeDefault(key)
            }
        }

        /// The schemes the setting decides.
        public var schemes: [String] {
            switch self {
            case .mimeDefault(let type): return [String(type.dropFirst("x-scheme-handler/".count))]
            case .xfceBrowser, .kdeBrowser: return ["http", "https"]
            case .xfceMail, .kdeMail: return ["mailto"]
            }
        }
    }

    /// The file holding the setting.
    public var path: String
    /// Its section (nil: the lines before the first header, as in helpers.rc).
    public var section: String?
    /// Its key.
    public var key: String
    /// openurld's value.
    public var value: String
    /// What it decides.
    public var purpose: Purpose
}

/// A whole file `openurl install` writes (XFCE helper entries).
public struct TakeoverFile: Sendable, Equatable {
    /// Where.
    public var path: String
    /// Its exact content.
    public var content: String

    /// A file at `path` holding `content`.
    public init(path: String, content: String) {
        self.path = path
        self.content = content
    }
}

/// Everything `openurl install` changes, worked out from the files present: the user's
/// mimeapps.list always; each `$XDG_CONFIG_HOME/DESKTOP-mimeapps.list` that sets one of the
/// types; XFCE's helpers.rc plus helper entries when XFCE or exo is present; KDE's
/// `BrowserApplication` and `EmailClient` where a value is set.
public struct TakeoverPlan: Sendable, Equatable {
    /// The settings to change, in order.
    public var edits: [TakeoverEdit] = []
    /// The files to write whole.
    public var files: [TakeoverFile] = []

    /// The helper ids openurld installs for XFCE.
    public static let xfceBrowserHelper = "openurld-browser"
    /// The XFCE MailReader helper id.
    public static let xfceMailHelper = "openurld-mail"
    static let defaultsSection = "Default Applications"

    /// XFCE's user helpers.rc.
    public static func helpersRC(_ paths: XDGPaths) -> String { paths.configHome + "/xfce4/helpers.rc" }
    /// KDE's kdeglobals.
    public static func kdeglobals(_ paths: XDGPaths) -> String { paths.configHome + "/kdeglobals" }
    /// KDE's emaildefaults.
    public static func emaildefaults(_ paths: XDGPaths) -> String { paths.configHome + "/emaildefaults" }

    /// The plan for this user (or, with `.system` and `paths` as `XDGPaths.systemView`, for the
    /// system's files). `openurl` is the handler's path as helper entries should run it.
    public init(paths: XDGPaths, environment: [String: String], openurl: String, scope: TakeoverScope = .user) {
        for type in DefaultHandlers.handledTypes {
            edits.append(TakeoverEdit(path: paths.userMimeappsList, section: Self.defaultsSection, key: type,
                                      value: DefaultHandlers.ourDesktopID, purpose: .mimeDefault(type)))
        }
        for list in Self.desktopSpecificLists(paths) {
            let text = KeyFileText(text: FileSystem.utf8Text(list) ?? "")
            for type in DefaultHandlers.handledTypes where text.value(section: Self.defaultsSection, key: type) != nil {
                edits.append(TakeoverEdit(path: list, section: Self.defaultsSection, key: type,
                                          value: DefaultHandlers.ourDesktopID, purpose: .mimeDefault(type)))
            }
        }
        if Self.usesXFCE(paths: paths, environment: environment) {
            let helpers = paths.dataHome + "/xfce4/helpers/"
            files.append(TakeoverFile(path: helpers + Self.xfceBrowserHelper + ".desktop",
                                      content: Self.xfceHelper(category: "WebBrowser", openurl: openurl, argument: "\"%s\"")))
            files.append(TakeoverFile(path: helpers + Self.xfceMailHelper + ".desktop",
                                      content: Self.xfceHelper(category: "MailReader", openurl: openurl, argument: "\"mailto:%s\"")))
            let rc = Self.helpersRC(paths)
            edits.append(TakeoverEdit(path: rc, section: nil, key: "WebBrowser", value: Self.xfceBrowserHelper, purpose: .xfceBrowser))
            edits.append(TakeoverEdit(path: rc, section: nil, key: "MailReader", value: Self.xfceMailHelper, purpose: .xfceMail))
        }
        let kdeglobals = Self.kdeglobals(paths)
        // A user's key is changed where set; the system's also where KDE is installed, for its new users.
        if KeyFileText.read(kdeglobals)?.value(section: "General", key: "BrowserApplication") != nil
            || (scope == .system && Self.usesKDE(environment: environment)) {
            edits.append(TakeoverEdit(path: kdeglobals, section: "General", key: "BrowserApplication",
                                      value: DefaultHandlers.ourDesktopID, purpose: .kdeBrowser))
        }
        let emaildefaults = Self.emaildefaults(paths)
        if let text = KeyFileText.read(emaildefaults) {
            let profile = "PROFILE_" + (text.value(section: "Defaults", key: "Profile").flatMap { $0.isEmpty ? nil : $0 } ?? "Default")
            if text.value(section: profile, key: "EmailClient") != nil {
                edits.append(TakeoverEdit(path: emaildefaults, section: profile, key: "EmailClient", value: openurl + " %u", purpose: .kdeMail))
            }
        }
    }

    /// `$XDG_CONFIG_HOME/*-mimeapps.list`, sorted: each overrides the plain list on its desktop.
    public static func desktopSpecificLists(_ paths: XDGPaths) -> [String] {
        let names = (try? FileSystem.listDirectory(paths.configHome)) ?? []
        return names.filter { $0.hasSuffix("-mimeapps.list") }.sorted().map { paths.configHome + "/" + $0 }
    }

    /// Whether KDE is installed: its link openers are on `PATH`.
    public static func usesKDE(environment: [String: String]) -> Bool {
        ["kde-open5", "kde-open", "plasmashell"].contains { ProcessLauncher.resolve($0, environment: environment) != nil }
    }

    /// Whether XFCE's helpers decide links here: a user helpers.rc, an XFCE session, or exo-open installed.
    public static func usesXFCE(paths: XDGPaths, environment: [String: String]) -> Bool {
        FileSystem.exists(helpersRC(paths)) || paths.currentDesktops.contains("xfce")
            || ProcessLauncher.resolve("exo-open", environment: environment) != nil
    }

    /// An `X-XFCE-Helper` entry running `openurl`; exo replaces `%s` (for MailReader, the address
    /// without `mailto:`) and passes it as one argument.
    static func xfceHelper(category: String, openurl: String, argument: String) -> String {
        """
        [Desktop Entry]
        Version=1.0
        Type=X-XFCE-Helper
        Name=openurld
        NoDisplay=true
        X-XFCE-Category=\(category)
        X-XFCE-Binaries=\(openurl);
        X-XFCE-Commands=\(openurl);
        X-XFCE-CommandsWithParameter=\(openurl) \(argument);

        """
    }
}

extension KeyFileText {
    /// The file at `path`, or nil when it cannot be read.
    static func read(_ path: String) -> KeyFileText? {
        FileSystem.utf8Text(path).map { KeyFileText(text: $0) }
    }
}
