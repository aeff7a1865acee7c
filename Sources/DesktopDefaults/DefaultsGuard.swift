import Launching
import DBus
import Platform

/// Another app took some of openurld's defaults: which app, which schemes, in which files, and
/// the two answers the user can give.
public struct DefaultsTaken {
    /// The app's name, as its desktop entry gives it.
    public var appName: String
    /// The schemes taken, as a phrase: `http, https and mailto`.
    public var schemes: String
    /// The files changed, comma-separated.
    public var files: String
    fileprivate var settings: [StolenSetting]
    fileprivate var handlers: DefaultHandlers

    /// Takes the schemes back for openurld.
    public func takeBack() throws {
        try handlers.takeBack(settings)
        Log.info("took \(schemes) links back from \(appName)")
    }

    /// Keeps the app for them; it becomes the system handler.
    public func keep() throws {
        try handlers.keep(settings)
        Log.info("kept \(appName) for \(schemes) links; it is now the system handler")
    }
}

/// Notices when another app takes http, https or mailto from openurld (a browser's "make me the
/// default", run again by its updates) and offers to take them back. It watches the files that
/// decide the defaults with inotify; nothing changes without the user's click.
public final class DefaultsGuard {
    private let handlers: DefaultHandlers
    private let loop: EventLoop
    private let enabled: () -> Bool
    private let offer: (DefaultsTaken) -> Void
    private let inotify: Inotify
    private var watched: [String: Int32] = [:]
    private var pendingTimer: EventLoopToken?
    /// Steals already shown, so each is reported once (until the value changes again).
    private var reported: Set<String> = []

    /// Watches the files of `handlers`' install record; `enabled` reads `[settings]
    /// guard_defaults`; `offer` asks the user what to do about each app that took defaults.
    public init(handlers: DefaultHandlers, loop: EventLoop, enabled: @escaping () -> Bool,
                offer: @escaping (DefaultsTaken) -> Void) throws(SystemError) {
        self.handlers = handlers
        self.loop = loop
        self.enabled = enabled
        self.offer = offer
        inotify = try Inotify()
        _ = loop.watch(fd: inotify.descriptor) { [weak self] _ in
            guard let self else { return }
            if self.inotify.pendingEvents().contains(where: { self.decides($0.name) }) { self.scheduleCheck() }
        }
        refreshWatches()
        scheduleCheck()
    }

    /// The directories holding the files that decide defaults: the config home (mimeapps lists,
    /// kdeglobals, emaildefaults), XFCE's helpers.rc directory, and every file install recorded.
    private func refreshWatches() {
        var directories: Set<String> = [handlers.paths.configHome, handlers.paths.configHome + "/xfce4"]
        let files = handlers.takenOverFiles()
        recordedNames = Set(files.map(Path.lastComponent))
        for file in files { directories.insert(Path.parent(file)) }
        for directory in directories where watched[directory] == nil {
            if let watch = try? inotify.watch(directory, for: [.closeWrite, .movedTo, .create, .delete]) { watched[directory] = watch }
        }
    }

    /// Whether a file of this name can decide a default: KDE apps write many other files straight
    /// into `~/.config`, and those must not wake the daemon.
    private func decides(_ name: String) -> Bool {
        name == "mimeapps.list" || name.hasSuffix("-mimeapps.list") || name == "kdeglobals" || name == "emaildefaults"
            || name == "helpers.rc" || recordedNames.contains(name)
    }

    private var recordedNames: Set<String> = []

    /// Checks 1 s after the last event of a burst: a browser or settings dialog writes each type
    /// (and several files) in turn, and one notification should name them all.
    private func scheduleCheck() {
        if let pendingTimer { loop.remove(pendingTimer) }
        pendingTimer = loop.addTimer(after: 1.0) { [weak self] in
            self?.pendingTimer = nil
            self?.check()
        }
    }

    /// Reports every new steal, one notification per app.
    public func check() {
        refreshWatches()
        guard enabled() else { return Log.info("defaults changed; not checked (guard_defaults = false)") }
        guard handlers.isRecorded else { return }
        let stolen = handlers.stolenSettings()
        reported = reported.intersection(stolen.map(\.identity))
        let fresh = stolen.filter { !reported.contains($0.identity) }
        guard !fresh.isEmpty else { return Log.info("defaults checked: no app took new ones") }
        var byApp: [(name: String, settings: [StolenSetting])] = []
        for setting in fresh {
            reported.insert(setting.identity)
            if let index = byApp.firstIndex(where: { $0.name == setting.appName }) { byApp[index].settings.append(setting) }
            else { byApp.append((setting.appName, [setting])) }
        }
        for (name, settings) in byApp { offer(name: name, settings: settings) }
    }

    private func offer(name: String, settings: [StolenSetting]) {
        var schemes: [String] = []
        for scheme in ["http", "https", "mailto"] where settings.contains(where: { $0.schemes.contains(scheme) }) { schemes.append(scheme) }
        let list = schemes.count > 1 ? schemes.dropLast().joined(separator: ", ") + " and " + (schemes.last ?? "") : schemes.joined()
        let files = Set(settings.map(\.path)).sorted().joined(separator: ", ")
        Log.info("\(name) took over \(list) links (\(files))")
        offer(DefaultsTaken(appName: name, schemes: list, files: files, settings: settings, handlers: handlers))
    }
}
