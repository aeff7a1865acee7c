import URLModel
import RoutingCore

/// Built-in targets for local mail programs (`open = "thunderbird"`), beside webmail.
///
/// Each is handed a mailto URL openurld rebuilds from the link's fields (`MailtoURL.forMailer`:
/// To, Cc, Bcc, Subject and Body only, every value percent-encoded), as one argument, through
/// the program's own desktop entry (so Flatpak and Snap wrappers, D-Bus activation and
/// `Terminal=true` work as the desktop launches them). Nothing from the link is spliced into
/// another argument, so a link cannot add a field of a mailer's own command-line grammar
/// (Thunderbird's `-compose "to='…',attachment='…'"`), and fields such as `attach` never
/// reach a mailer that would honour them.
public struct Mailer: Sendable, Equatable {
    /// The target name (`thunderbird`).
    public var name: String
    /// What the program is called, for messages when it is not installed.
    public var title: String
    /// The desktop ids it is installed as (distribution, Flatpak, Snap), in order of preference.
    public var desktopIDs: [String]
    /// Put before the URL in the entry's `Exec` (`-compose`), or nothing when the URL alone composes.
    public var arguments: [String]

    /// Every built-in mail target, by name. Each takes the mailto URL as one argument:
    /// Thunderbird as `-compose mailto:…` (its compose option reads a mailto URL as a mailto
    /// link; its `key='value'` grammar is never used), Claws Mail as `--compose mailto:…`, the
    /// others (Evolution, Geary over D-Bus, KMail, mutt, NeoMutt and aerc in the desktop's
    /// terminal) as their entry's `%u`.
    public static let builtIn: [Mailer] = [
        Mailer(name: "thunderbird", title: "Thunderbird",
               desktopIDs: ["thunderbird.desktop", "net.thunderbird.Thunderbird.desktop", "org.mozilla.Thunderbird.desktop",
                            "thunderbird_thunderbird.desktop"],
               arguments: ["-compose"]),
        Mailer(name: "evolution", title: "Evolution", desktopIDs: ["org.gnome.Evolution.desktop"], arguments: []),
        Mailer(name: "geary", title: "Geary", desktopIDs: ["org.gnome.Geary.desktop"], arguments: []),
        Mailer(name: "kmail", title: "KMail", desktopIDs: ["org.kde.kmail2.desktop"], arguments: []),
        Mailer(name: "claws-mail", title: "Claws Mail", desktopIDs: ["claws-mail.desktop"], arguments: ["--compose"]),
        Mailer(name: "mutt", title: "Mutt", desktopIDs: ["mutt.desktop"], arguments: []),
        Mailer(name: "neomutt", title: "NeoMutt", desktopIDs: ["neomutt.desktop"], arguments: []),
        Mailer(name: "aerc", title: "aerc", desktopIDs: ["aerc.desktop"], arguments: []),
    ]

    /// The built-in mail target called `name`.
    public static func named(_ name: String) -> Mailer? {
        builtIn.first { $0.name == name }
    }

    /// The built-in mail target whose desktop entry is `id`.
    public static func handling(desktopID id: String) -> Mailer? {
        builtIn.first { $0.desktopIDs.contains(id) }
    }

    /// Its installed desktop entry, if discovery found one.
    public func entry(in catalog: AppCatalog) -> AppEntry? {
        for id in desktopIDs { if let entry = catalog.entries.first(where: { $0.id == id }) { return entry } }
        return nil
    }

    /// How `url` (a rebuilt mailto URL) is launched with `entry`.
    public func launch(_ url: String, entry: AppEntry) -> Launch {
        arguments.isEmpty ? .desktopEntry(id: entry.id, action: nil, url: url)
            : .desktopEntryAdding(id: entry.id, arguments: arguments, url: url)
    }

    /// Why it cannot be opened here.
    package var notInstalled: String {
        "mail target \(name): \(title) is not installed (no \(desktopIDs.joined(separator: ", ")) was found; `openurl apps mailto` lists the mail programs that were)"
    }
}
