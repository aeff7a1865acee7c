import CGtk
import CGtkLoader
import GtkWidgets
import JSON
import Platform

/// The settings window: a notebook of five pages (Rules, Try a link, Recent, Remembered,
/// Defaults) over one status line that says what the last action did.
///
/// A plain `GtkWindow`, as the chooser's: a `GtkApplication` registers on the bus before it can
/// draw, which costs start-up time; the program name is the application id, which GTK uses as
/// the X11 WM_CLASS and Wayland app id, so the desktop matches it to its entry.
final class SettingsUI {
    /// The application id (and the desktop entry's name).
    static let applicationID = "io.github.openurld.Settings"
    /// The pages in order, as `--page` names them; Alt+1 … Alt+5 show them.
    static let pageNames = ["rules", "try", "recent", "remembered", "defaults"]

    let client: RouterClient?
    let report: SettingsReport?
    /// What the desktop's colour scheme was found to be: `dark`, `light` or `unknown` (theme left as it is).
    var colorScheme = "unknown"
    private(set) var window: Widget?
    private var notebook: Widget?
    private var status: Widget?
    private(set) var rules: RulesPage
    private(set) var tryLink: TryPage
    private(set) var recent: RecentPage
    private(set) var remembered: RememberedPage
    private(set) var defaults: DefaultsPage
    private let firstPage: Int

    init(client: RouterClient?, report: SettingsReport?, firstPage: Int, tool: String) {
        self.client = client
        self.report = report
        self.firstPage = firstPage
        rules = RulesPage()
        tryLink = TryPage()
        recent = RecentPage()
        remembered = RememberedPage()
        defaults = DefaultsPage(tool: tool)
    }

    func build() {
        let window = made(gtk_window_new(), "window")
        self.window = window
        gtk_window_set_title(cast(window), "Link routing (openurld)")
        // Fits a 1024×768 screen with its panels.
        gtk_window_set_default_size(cast(window), 760, 600)
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "box")
        gtk_window_set_child(cast(window), box)
        let notebook = made(gtk_notebook_new(), "notebook")
        self.notebook = notebook
        gtk_widget_set_vexpand(notebook, 1)
        let pages: [(String, Widget)] = [("_Rules", rules.build()), ("_Try a link", tryLink.build()), ("Rec_ent", recent.build()),
                                         ("Remem_bered", remembered.build()), ("_Defaults", defaults.build())]
        for (title, page) in pages {
            _ = gtk_notebook_append_page(cast(notebook), page, made(gtk_label_new_with_mnemonic(title), "label"))
        }
        gtk_box_append(cast(box), notebook)
        let status = makeLabel("", classes: ["dim-label"])
        setMargins(status, 8)
        self.status = status
        gtk_box_append(cast(box), status)

        if let keys = gtk_event_controller_key_new() {
            gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
            connect(UnsafeMutableRawPointer(keys), "key-pressed", unsafeBitCast(keyPressed, to: GCallback.self))
            gtk_widget_add_controller(window, keys)
        }
        connect(UnsafeMutableRawPointer(window), "close-request", unsafeBitCast(closeRequested, to: GCallback.self))
        connect(UnsafeMutableRawPointer(notebook), "switch-page", unsafeBitCast(pageSwitched, to: GCallback.self))

        refresh()
        gtk_notebook_set_current_page(cast(notebook), Int32(firstPage))
        if firstPage == 0 { rules.focus() }
        gtk_window_present(cast(window))
    }

    /// Reads everything again from the daemon (after a change, or F5).
    func refresh() {
        guard let client else {
            say("openurld cannot be reached on the session bus; nothing here can be shown or changed")
            return
        }
        do {
            let all = try client.rules()
            let clicks = try client.recent(limit: 0)
            rules.show(all.filter { !$0.isRemembered } + all.filter(\.isRemembered), clicks: clicks)
            remembered.show(all.filter(\.isRemembered))
            recent.show(clicks)
        } catch {
            say("openurld did not answer: \(error)")
        }
        reportSoon()
    }

    /// Shows `message` on the status line (and in the report).
    func say(_ message: String) {
        if let status { gtk_label_set_text(cast(status), message) }
        reportSoon()
    }

    var statusText: String { status.map(labelText) ?? "" }

    var currentPage: Int { notebook.map { Int(gtk_notebook_get_current_page(cast($0))) } ?? 0 }

    func showPage(_ index: Int) {
        guard let notebook, SettingsUI.pageNames.indices.contains(index) else { return }
        gtk_notebook_set_current_page(cast(notebook), Int32(index))
    }

    /// A page was shown: its first field takes the focus, so typing goes where it is read.
    func pageShown(_ index: Int) {
        switch index {
        case 0: rules.focus()
        case 1: tryLink.focus()
        case 4: defaults.showIfFirst()
        default: break
        }
        reportSoon()
    }

    /// Writes the report once the main loop is idle, so one action gives one report.
    func reportSoon() {
        guard report != nil, !reportPending else { return }
        reportPending = true
        g_idle_add(reportIdle, nil)
    }
    private var reportPending = false

    func writeReport() {
        reportPending = false
        report?.write(self)
    }

    func key(_ keyval: UInt32, control: Bool, alt: Bool) -> Bool {
        switch Int32(keyval) {
        case GDK_KEY_1...GDK_KEY_5 where alt && !control:
            showPage(Int(keyval) - Int(GDK_KEY_1))
            return true
        case GDK_KEY_m where alt && !control && recent.formIsOpen, GDK_KEY_s where alt && !control && recent.formIsOpen:
            recent.form.focusList(action: Int32(keyval) == GDK_KEY_s)
            return true
        case GDK_KEY_F5:
            refresh()
            say("read again from openurld")
            return true
        case GDK_KEY_w where control, GDK_KEY_q where control:
            exitProcess(0)
        case GDK_KEY_Escape:
            if recent.formIsOpen { recent.closeForm(); return true }
            return false
        default:
            return false
        }
    }
}

/// The window being shown. C callbacks cannot capture context, so they reach it through this global.
nonisolated(unsafe) var settings: SettingsUI?

private let keyPressed: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, _ in
    let control = state & GDK_CONTROL_MASK.rawValue != 0
    let alt = state & GDK_ALT_MASK.rawValue != 0
    return settings?.key(keyval, control: control, alt: alt) == true ? 1 : 0
}

private let closeRequested: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _ in
    exitProcess(0)
}

private let pageSwitched: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void = { _, _, index, _ in
    settings?.pageShown(Int(index))
}

private let reportIdle: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { _ in
    settings?.writeReport()
    return 0
}
