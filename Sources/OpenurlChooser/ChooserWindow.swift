import RouterContract
import CGtk
import GtkWidgets
import JSON
import Platform
import RoutingCore

/// The chooser's GTK 4 window: the link, the choices, "Remember for …", and the keyboard.
///
/// Plain `gtk_init` and a `GtkWindow` rather than a `GtkApplication`: an application registers on
/// the session bus before it can show anything, which costs start-up time and buys nothing for a
/// window that lives for one question. The application id is the program name, which GTK uses as
/// the Wayland app id and the X11 WM_CLASS.
enum ChooserWindow {
    /// The application id.
    static let applicationID = Router1.chooserApplicationID

    /// Initialises GTK once per process.
    static func initialise() {
        // A small static dialog gains nothing from the GL renderer: cairo starts faster and, under
        // software GL (llvmpipe), keeps ~75 MB less resident in a kept chooser. GSK_RENDERER wins.
        Sys.setEnvironmentDefault("GSK_RENDERER", "cairo")
        g_set_prgname(applicationID)
        g_set_application_name("Open link")
        gtk_init()
    }

    /// Shows the window and runs until the question is answered; returns the exit status.
    static func run(_ preview: LinkPreview) -> Int32 {
        initialise()
        let ui = ChooserUI(preview: preview, startupID: nil) { exitProcess(0) }
        current = ui
        ui.build()
        let loop = g_main_loop_new(nil, 0)
        g_main_loop_run(loop)
        return 0
    }
}

/// The window being shown. C callbacks cannot capture context, so they reach it through this global.
nonisolated(unsafe) var current: ChooserUI?

/// The widgets and the answer logic.
final class ChooserUI {
    let preview: LinkPreview
    private(set) var window: Widget?
    private var list: Widget?
    private var entry: Widget?
    private var rememberCheck: Widget?
    private var rememberScopes: Widget?

    /// The activation token for this window (serve mode; a one-shot window takes it from the environment).
    private let startupID: String?
    /// Runs after the last answer: exits, or in serve mode closes the window and waits for the next question.
    private let finish: () -> Void

    init(preview: LinkPreview, startupID: String?, finish: @escaping () -> Void) {
        self.preview = preview
        self.startupID = startupID
        self.finish = finish
    }

    /// Takes the window down (serve mode, after the last answer).
    func destroy() {
        if let window { gtk_window_destroy(cast(window)) }
        window = nil
    }

    func build() {
        guard let window = gtk_window_new() else { return }
        self.window = window
        gtk_window_set_title(cast(window), preview.title)
        gtk_window_set_default_size(cast(window), 600, -1)
        guard let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8) else { return }
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            side(box, 16)
        }
        gtk_window_set_child(cast(window), box)
        addLinkView(to: box)
        addChoices(to: box)
        addRemember(to: box)
        gtk_box_append(cast(box), label(preview.keyHints, classes: ["dim-label"], small: true))

        guard let keys = gtk_event_controller_key_new() else { return }
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connect(UnsafeMutableRawPointer(keys), "key-pressed", unsafeBitCast(keyPressed, to: GCallback.self))
        gtk_widget_add_controller(window, keys)
        connect(UnsafeMutableRawPointer(window), "close-request", unsafeBitCast(closeRequested, to: GCallback.self))
        connect(UnsafeMutableRawPointer(window), "map", unsafeBitCast(mapped, to: GCallback.self))

        // Focus starts on the first choice, not in the URL field, so digits pick choices.
        if let list, let first = gtk_list_box_get_row_at_index(OpaquePointer(list), 0) {
            gtk_window_set_focus(cast(window), UnsafeMutableRawPointer(first).assumingMemoryBound(to: GtkWidget.self))
        }
        if let startupID, !startupID.isEmpty { gtk_window_set_startup_id(cast(window), startupID) }
        gtk_window_present(cast(window))
    }

    private func label(_ text: String, markup: Bool = false, classes: [String] = [], small: Bool = false, wrap: Bool = true) -> Widget {
        makeLabel(text, markup: markup, classes: classes, small: small, wrap: wrap)
    }

    /// The link as it will be opened, domain emphasised, with what is worth knowing about it.
    private func addLinkView(to box: Widget) {
        if let warning = preview.warning {
            let heading = preview.safety.verdict == "block" ? "⛔ On a block list." : "⚠ This link may mislead."
            gtk_box_append(cast(box), label("<b>\(heading)</b> \(MarkupText.escaped(warning))", markup: true, classes: ["error"]))
        }
        if let mail = preview.mail {
            var lines: [String] = []
            for (name, addresses) in [("To", mail.to), ("Cc", mail.cc), ("Bcc", mail.bcc)] where !addresses.isEmpty {
                lines.append("<b>\(name):</b> \(MarkupText.escaped(addresses.joined(separator: ", ")))")
            }
            if let subject = mail.subject { lines.append("<b>Subject:</b> \(MarkupText.escaped(subject))") }
            gtk_box_append(cast(box), label(lines.isEmpty ? "<b>New message</b>" : lines.joined(separator: "\n"), markup: true))
            if let body = mail.bodyPreview {
                let bodyLabel = label(body, classes: ["dim-label"])
                gtk_label_set_lines(cast(bodyLabel), 6)
                gtk_label_set_ellipsize(cast(bodyLabel), PANGO_ELLIPSIZE_END)
                gtk_box_append(cast(box), bodyLabel)
            }
        } else {
            let parts = preview.urlParts
            let dim = { (text: String) in text.isEmpty ? "" : "<span alpha=\"60%\">\(MarkupText.escaped(text))</span>" }
            let markup = "<span size=\"large\">\(dim(parts.before))<b>\(MarkupText.escaped(parts.domain))</b>\(dim(parts.after))</span>"
            let urlLabel = label(markup, markup: true)
            gtk_label_set_lines(cast(urlLabel), 4)
            gtk_label_set_ellipsize(cast(urlLabel), PANGO_ELLIPSIZE_END)
            gtk_box_append(cast(box), urlLabel)
            if let unicode = preview.unicodeHost, preview.safety.showsUnicode {
                gtk_box_append(cast(box), label("Shown as \(unicode), really \(preview.host)", classes: ["dim-label"]))
            }
        }
        for note in preview.notes {
            gtk_box_append(cast(box), label(note, classes: note.hasPrefix("Plain http") ? ["warning"] : ["dim-label"], small: true))
        }
        if let original = preview.original {
            let originalLabel = label("Clicked: \(original)", classes: ["dim-label"], small: true, wrap: false)
            gtk_label_set_ellipsize(cast(originalLabel), PANGO_ELLIPSIZE_MIDDLE)
            gtk_box_append(cast(box), originalLabel)
        }
        let entry = made(gtk_entry_new(), "entry")
        self.entry = entry
        gtk_editable_set_text(OpaquePointer(entry), preview.url)
        gtk_widget_set_tooltip_text(entry, "Edit the link before opening it")
        gtk_box_append(cast(box), entry)
    }

    /// The choices as a list: shortcut number, icon, name.
    private func addChoices(to box: Widget) {
        let list = made(gtk_list_box_new(), "list box")
        self.list = list
        gtk_list_box_set_selection_mode(OpaquePointer(list), GTK_SELECTION_BROWSE)
        for (index, choice) in preview.choices.enumerated() {
            let row = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10), "box")
            for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
                side(row, 6)
            }
            gtk_box_append(cast(row), label(index < 9 ? "<b>\(index + 1)</b>" : " ", markup: true, classes: ["dim-label"], wrap: false))
            let icon = made(choice.icon.hasPrefix("/") ? gtk_image_new_from_file(choice.icon) : gtk_image_new_from_icon_name(themedIcon(choice.icon)), "image")
            gtk_image_set_pixel_size(cast(icon), 24)
            gtk_box_append(cast(row), icon)
            gtk_box_append(cast(row), label(choice.label, wrap: false))
            gtk_list_box_append(OpaquePointer(list), row)
        }
        if let first = gtk_list_box_get_row_at_index(OpaquePointer(list), 0) { gtk_list_box_select_row(OpaquePointer(list), first) }
        connect(UnsafeMutableRawPointer(list), "row-activated", unsafeBitCast(rowActivated, to: GCallback.self))
        // A long list scrolls rather than growing the window past a 768-pixel-high screen: about
        // nine rows show, the rest scroll into view as the selection moves.
        let scrolled = made(gtk_scrolled_window_new(), "scrolled window")
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(cast(scrolled), 1)
        gtk_scrolled_window_set_max_content_height(cast(scrolled), Self.maximumListHeight)
        gtk_scrolled_window_set_child(cast(scrolled), list)
        let frame = made(gtk_frame_new(nil), "frame")
        gtk_frame_set_child(cast(frame), scrolled)
        gtk_box_append(cast(box), frame)
    }

    /// The most the list of choices takes, in pixels: nine rows of a 24-pixel icon with their margins.
    static let maximumListHeight: Int32 = 9 * 40

    /// "Remember for …" (Alt+R), with a menu of scopes when there is more than one.
    private func addRemember(to box: Widget) {
        guard let first = preview.remember.first else { return }
        let row = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6), "box")
        if preview.remember.count == 1 {
            rememberCheck = gtk_check_button_new_with_mnemonic(Self.mnemonicSafe(first.label).replacingPrefix("Remember", with: "_Remember"))
        } else {
            // "Remember for [scope ▾]": Alt+R checks it, Alt+F opens the scopes (their own mnemonic).
            rememberCheck = gtk_check_button_new_with_mnemonic("_Remember")
            let labels = preview.remember.map { String($0.label.dropFirst("Remember for ".count)) }
            rememberScopes = Sys.withCStringArray(labels) { strings in
                strings.withUnsafeBufferPointer { gtk_drop_down_new_from_strings($0.baseAddress) }
            }
        }
        if let rememberCheck { gtk_box_append(cast(row), rememberCheck) }
        if let rememberScopes {
            let forLabel = made(gtk_label_new_with_mnemonic("_for"), "label")
            gtk_label_set_mnemonic_widget(cast(forLabel), rememberScopes)
            gtk_box_append(cast(row), forLabel)
            gtk_box_append(cast(row), rememberScopes)
        }
        gtk_box_append(cast(box), row)
    }

    /// The icon when the theme has it, else a generic one (a missing icon draws as a broken image).
    private func themedIcon(_ name: String) -> String {
        let fallback = "application-x-executable"
        guard !name.isEmpty, let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) else { return fallback }
        return gtk_icon_theme_has_icon(theme, name) != 0 ? name : fallback
    }

    /// A label as a mnemonic label shows it: its underscores doubled, so none is taken for one.
    static func mnemonicSafe(_ text: String) -> String { text.replacingEvery("_", with: "__") }

    private var focusIsInEntry: Bool {
        guard let window, let entry, let focus = gtk_window_get_focus(cast(window)) else { return false }
        return focus == entry || gtk_widget_is_ancestor(focus, entry) != 0
    }

    /// True while the scope menu's list is open: its keys (arrows, Enter, Escape) are its own.
    private var focusIsInPopover: Bool {
        guard let window, let focus = gtk_window_get_focus(cast(window)) else { return false }
        return gtk_widget_get_ancestor(focus, gtk_popover_get_type()) != nil
    }

    /// The areas Tab moves between, in window order: the link field, the choices, "Remember" and
    /// its scope menu; each as the widget that holds the area and the one that takes the focus
    /// (for the choices, the selected row).
    private var focusAreas: [(area: Widget, target: Widget)] {
        var areas: [(Widget, Widget)] = []
        if let entry { areas.append((entry, entry)) }
        if let list, let row = gtk_list_box_get_selected_row(OpaquePointer(list)) ?? gtk_list_box_get_row_at_index(OpaquePointer(list), 0) {
            areas.append((list, UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self)))
        }
        if let rememberCheck { areas.append((rememberCheck, rememberCheck)) }
        if let rememberScopes { areas.append((rememberScopes, rememberScopes)) }
        return areas
    }

    /// Moves the focus to the next (or previous) area; the selected choice stays as it is, so
    /// Enter still opens what it did. GTK's own Tab moves along the rows of the list, and in a
    /// list that selects as it browses, that changes the selection.
    private func moveFocus(backwards: Bool) {
        guard let window else { return }
        let areas = focusAreas
        guard !areas.isEmpty else { return }
        let focus = gtk_window_get_focus(cast(window))
        let current = focus.flatMap { focused in areas.firstIndex { focused == $0.area || gtk_widget_is_ancestor(focused, $0.area) != 0 } }
        let next = current.map { ($0 + (backwards ? areas.count - 1 : 1)) % areas.count } ?? (backwards ? areas.count - 1 : 0)
        _ = gtk_widget_grab_focus(areas[next].target)
    }

    func key(_ keyval: UInt32, control: Bool, alt: Bool, shift: Bool) -> Bool {
        if focusIsInPopover { return false }
        switch Int32(keyval) {
        case GDK_KEY_Tab, GDK_KEY_KP_Tab, GDK_KEY_ISO_Left_Tab:
            guard !control, !alt else { return false }
            moveFocus(backwards: shift || Int32(keyval) == GDK_KEY_ISO_Left_Tab)
            return true
        case GDK_KEY_Escape:
            cancel()
            return true
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
            choose(selectedIndex, keep: control)
            return true
        case GDK_KEY_c, GDK_KEY_C:
            guard control, !focusIsInEntry else { return false }
            answer(choice: "copy", index: preview.choices.firstIndex { $0.key == "copy" }, keep: false)
            return true
        case GDK_KEY_1...GDK_KEY_9, GDK_KEY_KP_1...GDK_KEY_KP_9:
            guard !control, !alt, !focusIsInEntry else { return false }
            let base = keyval >= UInt32(GDK_KEY_KP_1) ? UInt32(GDK_KEY_KP_1) : UInt32(GDK_KEY_1)
            let index = Int(keyval - base)
            guard index < preview.choices.count else { return true }
            choose(index, keep: false)
            return true
        default:
            return false
        }
    }

    var selectedIndex: Int {
        guard let list, let row = gtk_list_box_get_selected_row(OpaquePointer(list)) else { return 0 }
        return Int(gtk_list_box_row_get_index(row))
    }

    func choose(_ index: Int, keep: Bool) {
        guard preview.choices.indices.contains(index) else { return }
        answer(choice: preview.choices[index].key, index: index, keep: keep)
    }

    /// Prints the answer line; the window closes unless `keep`.
    private func answer(choice: String, index: Int?, keep: Bool) {
        var pick = ChooserPick(key: choice, index: index, keep: keep)
        if let entry, let text = gtk_editable_get_text(OpaquePointer(entry)) {
            let edited = String(cString: text).trimmingSpaces()
            if !edited.isEmpty, edited != preview.url { pick.url = edited }
        }
        if let rememberCheck, gtk_check_button_get_active(cast(rememberCheck)) != 0 {
            let index = rememberScopes.map { Int(gtk_drop_down_get_selected(OpaquePointer($0))) } ?? 0
            if preview.remember.indices.contains(index) {
                let scope = preview.remember[index]
                pick.remember = RememberRequest(scope: scope.scope, value: scope.value)
            }
        }
        Self.emit(.chose(pick))
        if !keep { finish() }
    }

    /// Tells the daemon the window is up: a chooser that exits before this could not ask at all.
    func announceShown() {
        Self.emit(.shown)
    }

    func cancel() {
        Self.emit(.cancelled)
        finish()
    }

    /// Writes one line for the question shown (its id in serve mode) and flushes it: the daemon
    /// reads as the user answers.
    static func emit(_ event: ChooserReply.Event) {
        emit(ChooserReply(event, id: ChooserServer.questionID))
    }

    /// Writes one line and flushes it.
    static func emit(_ reply: ChooserReply) {
        print(reply.json.text)
        Sys.flushStandardOutput()
    }
}

extension String {
    /// The text with `prefix` replaced when it starts with it.
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }

    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}

private let keyPressed: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, _ in
    let control = state & GDK_CONTROL_MASK.rawValue != 0
    let alt = state & GDK_ALT_MASK.rawValue != 0
    let shift = state & GDK_SHIFT_MASK.rawValue != 0
    return current?.key(keyval, control: control, alt: alt, shift: shift) == true ? 1 : 0
}

private let rowActivated: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutableRawPointer?) -> Void = { _, row, _ in
    guard let row else { return }
    current?.choose(Int(gtk_list_box_row_get_index(row)), keep: false)
}

private let closeRequested: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _ in
    // cancel() exits or destroys the window itself.
    current?.cancel()
    return 1
}

private let mapped: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    current?.announceShown()
}
