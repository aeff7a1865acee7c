import Launching
import DBus
import DesktopDefaults
import Execution
import Platform

/// Notices when another app takes http, https or mailto from openurld (a browser's "make me the
/// default", run again by its updates) and offers to take them back. It watches the files that
/// decide the defaults with inotify; nothing changes without the user's click.
final class DefaultsGuard {
    static let takeBackKey = "take-back"
    static let keepKey = "keep"

    private let handlers: DefaultHandlers
    private let loop: EventLoop
    private let enabled: () -> Bool
    private let notify: (NotificationRequest, @escaping (String) -> Void) -> Void
    private let inotify: Inotify
    private var watched: [String: Int32] = [:]
    private var pendingTimer: EventLoopToken?
    /// Steals already shown, so each is reported once (until the value changes again).
    private var reported: Set<String> = []

    /// Watches the files of `handlers`' install record; `enabled` reads `[settings]
    /// guard_defaults`; `notify` shows a notification and calls back with the chosen action.
    init(handlers: DefaultHandlers, loop: EventLoop, enabled: @escaping () -> Bool,
         notify: @escaping (NotificationRequest, @escaping (String) -> Void) -> Void) throws {
        self.handlers = handlers
        self.loop = loop
        self.enabled = enabled
        self.notify = notify
        do { inotify = try Inotify() } catch { throw DaemonError("inotify_init1: \(error.message)") }
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
    func check() {
        refreshWatches()
        guard enabled(), handlers.isRecorded else { return }
        let stolen = handlers.stolenSettings()
        reported = reported.intersection(stolen.map(\.identity))
        let fresh = stolen.filter { !reported.contains($0.identity) }
        guard !fresh.isEmpty else { return }
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
        let request = NotificationRequest(
            summary: "\(name) took over \(list) links",
            body: NotificationText.escapeMarkup("openurld no longer receives them (changed in \(files))."),
            actions: [(Self.takeBackKey, "Take back"), (Self.keepKey, "Keep \(name)")], timeout: 0)
        notify(request) { [handlers] key in
            do {
                switch key {
                case Self.takeBackKey:
                    try handlers.takeBack(settings)
                    Log.info("took \(list) links back from \(name)")
                case Self.keepKey:
                    try handlers.keep(settings)
                    Log.info("kept \(name) for \(list) links; it is now the system handler")
                default:
                    return
                }
            } catch {
                Log.error("could not change the defaults: \(error)")
            }
        }
    }
}
