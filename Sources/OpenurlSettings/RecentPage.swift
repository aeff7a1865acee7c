import CGtk
import GtkWidgets
import JSON
import Platform
import RouterContract

/// The last clicks, newest first, with what became of each. For the selected one: "Open again"
/// (Alt+O, `Reopen` by the rules), "Copy" (Alt+C, the daemon's `Copy`), "Try" (Alt+Y, on the
/// Try page) and "Make a rule…" (Alt+K), which opens the form below the list.
final class RecentPage {
    private var list: Widget?
    private(set) var clicks: [RecentLink] = []
    private var labels: [Widget] = []
    let form = RuleForm()
    private var formBox: Widget?
    /// The list and its buttons, hidden while the form is open (the form takes their place).
    private var listArea: Widget?
    private var buttons: Widget?

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
        setMargins(box, 12)
        let list = browseList()
        self.list = list
        let listArea = scrolled(list)
        gtk_box_append(cast(box), listArea)
        self.listArea = listArea
        let buttons = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8), "box")
        self.buttons = buttons
        for (title, action) in [("_Open again", 0), ("_Copy", 1), ("Tr_y it", 2), ("Ma_ke a rule…", 3)] {
            let button = made(gtk_button_new_with_mnemonic(title), "button")
            connect(UnsafeMutableRawPointer(button), "clicked", unsafeBitCast(recentButton, to: GCallback.self), data: signalData(action))
            gtk_box_append(cast(buttons), button)
        }
        gtk_box_append(cast(box), buttons)
        let formBox = form.build()
        gtk_widget_set_visible(formBox, 0)
        gtk_widget_set_vexpand(formBox, 1)
        self.formBox = formBox
        gtk_box_append(cast(box), formBox)
        return box
    }

    func show(_ clicks: [RecentLink]) {
        guard let list else { return }
        let selected = selectedClick?.id
        removeAllRows(list)
        self.clicks = clicks.filter { $0.outcome != "probe" }
        labels = []
        for click in self.clicks {
            let label = makeLabel(Self.text(click))
            setMargins(label, 6)
            labels.append(label)
            gtk_list_box_append(OpaquePointer(list), label)
        }
        let index = self.clicks.firstIndex { $0.id == selected } ?? 0
        if let row = gtk_list_box_get_row_at_index(OpaquePointer(list), Int32(index)) { gtk_list_box_select_row(OpaquePointer(list), row) }
    }

    static func text(_ click: RecentLink) -> String {
        let local = CalendarTime.local(seconds: click.time)
        let today = local.isSameDay(as: CalendarTime.local(seconds: WallClock.secondsSinceEpoch()))
        let when = today ? local.timeText : local.dateText + " " + local.hourMinuteText
        var outcome = "\(click.decision)\(click.target.isEmpty ? "" : " \(click.target)")"
        if !click.rule.isEmpty { outcome += " · rule \(click.rule)" }
        if !click.opener.isEmpty { outcome += " · from \(click.opener)" }
        outcome += " · \(click.outcome)"
        return "\(when)  \(click.url)\n\(outcome)"
    }

    var selectedClick: RecentLink? {
        guard let list, let row = gtk_list_box_get_selected_row(OpaquePointer(list)) else { return nil }
        let index = Int(gtk_list_box_row_get_index(row))
        return clicks.indices.contains(index) ? clicks[index] : nil
    }

    func act(_ action: Int) {
        guard let ui = settings else { return }
        guard let click = selectedClick else { ui.say("No click selected"); return }
        guard let client = ui.client else { return }
        switch action {
        case 0:
            do {
                try client.reopen(click.id)
                ui.say("Opened \(click.url) again by the rules")
            } catch { ui.say("Not opened again: \(error)") }
            ui.refresh()
        case 1:
            do {
                try client.copy(click.finalURL.isEmpty ? click.url : click.finalURL)
                ui.say("Copied the link")
            } catch { ui.say("Not copied: \(error)") }
        case 2:
            ui.tryLink.setLink(click.url)
            ui.showPage(1)
        default:
            openForm(for: click)
        }
    }

    var formIsOpen: Bool { formBox.map { gtk_widget_get_visible($0) != 0 } ?? false }

    func openForm(for click: RecentLink) {
        guard let formBox else { return }
        form.start(for: click)
        for widget in [listArea, buttons].compactMap({ $0 }) { gtk_widget_set_visible(widget, 0) }
        gtk_widget_set_visible(formBox, 1)
        form.focus()
        settings?.reportSoon()
    }

    func closeForm() {
        if let formBox { gtk_widget_set_visible(formBox, 0) }
        for widget in [listArea, buttons].compactMap({ $0 }) { gtk_widget_set_visible(widget, 1) }
        if let list, let row = gtk_list_box_get_selected_row(OpaquePointer(list)) {
            _ = gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
        }
        settings?.reportSoon()
    }

    var json: JSONValue {
        .object([("clicks", .array(zip(clicks, labels).map { click, label in
                    .object([("id", .number(Int(click.id))), ("url", .string(click.url)), ("text", .string(labelText(label)))]) })),
                 ("form", formIsOpen ? form.json : .null)])
    }
}

private let recentButton: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    settings?.recent.act(signalIndex(data))
}
