import JSON
import Catalog
import Templates
import ConfigLanguage
import RoutingCore

extension TargetListing {
    /// Everything that can open `scheme` links: browsers with their profiles and private windows,
    /// other entries and their desktop actions, webmail and the installed built-in mail programs
    /// (for mailto), the config's `[apps]`, and `system`. Without a scheme, web and mail targets
    /// come first and other schemes' apps (geo:, telnet:) only with `all`, after them.
    public static func targets(for scheme: String?, config: Config, all: Bool = false) -> [TargetListing] {
        guard scheme == nil else { return targets(forScheme: scheme, config: config) }
        var out = targets(forScheme: nil, config: config, only: ["http", "https", "mailto"])
        if all {
            let listed = Set(out.map(\.target))
            let rest = targets(forScheme: nil, config: config).filter { !listed.contains($0.target) }
            out.insert(contentsOf: rest, at: out.firstIndex { $0.kind == .webmail || $0.kind == .mailer || $0.kind == .app || $0.kind == .system } ?? out.endIndex)
        }
        return out
    }

    /// The targets for one scheme, or every scheme; `only` keeps the entries for those schemes.
    static func targets(forScheme scheme: String?, config: Config, only: Set<String>? = nil) -> [TargetListing] {
        let catalog = config.catalog
        let scheme = scheme?.lowercased()
        let web = scheme == nil || scheme == "http" || scheme == "https"
        var out: [TargetListing] = []
        if web {
            for browser in catalog.browsers {
                out.append(TargetListing(target: browser.id, kind: .browser, name: browser.name, app: browser.desktopID))
                for profile in browser.profiles {
                    out.append(TargetListing(target: "\(browser.id):\(profile.name)", kind: .profile, name: profile.name,
                                             app: browser.desktopID, isDefault: profile.isDefault))
                    for container in profile.containers {
                        out.append(TargetListing(target: "\(browser.id):\(profile.name):container:\(container)", kind: .container,
                                                 name: "\(profile.name): \(container)", app: browser.desktopID))
                    }
                }
                if browser.known != nil {
                    out.append(TargetListing(target: "\(browser.id):private", kind: .private, name: "Private window", app: browser.desktopID))
                }
                if browser.known?.appArgument != nil {
                    out.append(TargetListing(target: "\(browser.id):app", kind: .appWindow, name: "App window (no tabs)", app: browser.desktopID))
                }
            }
            for app in catalog.webApps {
                out.append(TargetListing(target: app.desktopID, kind: .webApp, name: app.name, app: app.desktopID))
            }
        }
        for entry in catalog.entries where scheme.map({ entry.schemes.contains($0) }) ?? only.map({ !$0.isDisjoint(with: entry.schemes) }) ?? true
            || (web && catalog.isBrowser(desktopID: entry.id)) {
            // Browsers are listed above for web links; for other schemes they are plain entries.
            if !web || !catalog.isBrowser(desktopID: entry.id) {
                out.append(TargetListing(target: entry.id, kind: .entry, name: entry.name, app: entry.id))
            }
            for action in entry.actions {
                out.append(TargetListing(target: "\(entry.id):\(action.id)", kind: .action, name: "\(entry.name): \(action.name)", app: entry.id))
            }
        }
        if scheme == nil || scheme == "mailto" {
            for name in Set(Webmail.builtIn.keys).union(config.webmail.keys).sorted() {
                out.append(TargetListing(target: name, kind: .webmail, name: name))
            }
            for mailer in Mailer.builtIn {
                guard let entry = mailer.entry(in: catalog) else { continue }
                out.append(TargetListing(target: mailer.name, kind: .mailer, name: entry.name, app: entry.id))
            }
        }
        for name in config.apps.keys.sorted() {
            var app: String?
            switch config.apps[name] {
            case .desktop(let id, _)?: app = id
            case .browser(let target)?: app = target.desktopID
            default: app = nil
            }
            out.append(TargetListing(target: name, kind: .app, name: "[apps.\(name)]", app: app))
        }
        out.append(TargetListing(target: "system", kind: .system, name: "the previous default handler"))
        return out
    }
}
