import CGtk
import GtkWidgets
import JSON
import RouterContract
import RoutingCore

/// The rules in force, in the order they are tried, grouped by where they come from: the
/// administrator's locked rules, the user's, the administrator's recommended ones, the
/// remembered answers. Each row: a switch (`SetRuleEnabled`; a locked rule's cannot move), the
/// name, what it matches and where it sends links, `file:line`, and its hits among the recent clicks.
final class RulesPage {
    /// One row as shown.
    struct Row {
        var rule: RouterClient.Rule
        var toggle: Widget
        var name: Widget
        var detail: Widget
        var origin: Widget
        var hits: Widget
    }

    private var box: Widget?
    private var groups: [Widget] = []
    private(set) var rows: [Row] = []
    /// True while switches are set from the daemon's answer, so their change is not taken for the user's.
    private var updating = false

    static let groupTitles: [(key: String, title: String)] = [
        ("locked", "Set by the administrator (locked)"), ("user", "Your rules"),
        ("recommended", "Recommended by the administrator"), ("remembered", "Remembered answers"),
    ]

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
        setMargins(box, 12)
        self.box = box
        return scrolled(box)
    }

    static func group(of rule: RouterClient.Rule) -> String {
        let described = rule.description
        if described.layer == "remembered" { return "remembered" }
        if described.locked { return "locked" }
        if described.recommended { return "recommended" }
        return "user"
    }

    /// Replaces the rows with `rules`; `clicks` give the hit counts.
    func show(_ rules: [RouterClient.Rule], clicks: [RecentLink]) {
        guard let box else { return }
        updating = true
        defer { updating = false }
        for group in groups { gtk_box_remove(cast(box), group) }
        groups = []
        places = []
        rows = []
        var hits: [String: Int] = [:]
        for click in clicks where !click.rule.isEmpty { hits[click.rule, default: 0] += 1 }
        if rules.isEmpty {
            let empty = makeLabel("No rules: every link goes to [default], else the system's handler. Make one from a click on the Recent page.")
            groups.append(empty)
            gtk_box_append(cast(box), empty)
        }
        for (key, title) in Self.groupTitles {
            let members = rules.filter { Self.group(of: $0) == key }
            guard !members.isEmpty else { continue }
            let group = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4), "box")
            gtk_box_append(cast(group), makeLabel("<b>\(MarkupText.escaped(title))</b>", markup: true))
            let list = browseList()
            connect(UnsafeMutableRawPointer(list), "row-activated", unsafeBitCast(ruleRowActivated, to: GCallback.self))
            for (position, rule) in members.enumerated() {
                let row = makeRow(rule, hits: hits[rule.name] ?? 0)
                gtk_list_box_append(OpaquePointer(list), row)
                places.append((list, position))
            }
            let frame = made(gtk_frame_new(nil), "frame")
            gtk_frame_set_child(cast(frame), list)
            gtk_box_append(cast(group), frame)
            groups.append(group)
            gtk_box_append(cast(box), group)
        }
    }

    /// Where each row is: its group's list and its position there.
    private var places: [(list: Widget, position: Int)] = []

    /// Puts the focus on rule `index` (the first by default), so Enter, Space and the arrows act
    /// on the rules at once, and after a switch is moved the focus stays on its rule.
    func focus(_ index: Int = 0) {
        guard places.indices.contains(index) else { return }
        let (list, position) = places[index]
        guard let row = gtk_list_box_get_row_at_index(OpaquePointer(list), Int32(position)) else { return }
        gtk_list_box_select_row(OpaquePointer(list), row)
        _ = gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
    }

    private func makeRow(_ rule: RouterClient.Rule, hits: Int) -> Widget {
        let described = rule.description
        let row = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12), "box")
        setMargins(row, 6)
        let toggle = made(gtk_switch_new(), "switch")
        gtk_switch_set_active(cast(toggle), described.enabled ? 1 : 0)
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        if described.locked {
            gtk_widget_set_sensitive(toggle, 0)
            gtk_widget_set_tooltip_text(toggle, "Locked by the administrator in \(described.file)")
        }
        connect(UnsafeMutableRawPointer(toggle), "notify::active", unsafeBitCast(ruleSwitched, to: GCallback.self), data: signalData(rows.count))
        gtk_box_append(cast(row), toggle)
        let text = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2), "box")
        gtk_widget_set_hexpand(text, 1)
        let name = makeLabel(Self.title(of: rule), markup: false)
        gtk_widget_add_css_class(name, "heading")
        let detail = makeLabel(Self.detail(of: rule), classes: ["dim-label"])
        let origin = makeLabel(Self.origin(of: described), classes: ["dim-label"], small: true)
        for widget in [name, detail, origin] { gtk_box_append(cast(text), widget) }
        gtk_box_append(cast(row), text)
        let hitsLabel = makeLabel(hits == 1 ? "1 hit" : "\(hits) hits", classes: ["dim-label"], wrap: false)
        gtk_widget_set_valign(hitsLabel, GTK_ALIGN_CENTER)
        gtk_box_append(cast(row), hitsLabel)
        rows.append(Row(rule: rule, toggle: toggle, name: name, detail: detail, origin: origin, hits: hitsLabel))
        return row
    }

    static func title(of rule: RouterClient.Rule) -> String {
        let name = rule.name.isEmpty ? "Rule #\(rule.description.index) (unnamed)" : rule.name
        return rule.description.locked ? "🔒 \(name)" : name
    }

    static func detail(of rule: RouterClient.Rule) -> String {
        let match = rule.match.isEmpty ? "every link" : rule.match
        return "\(match) → \(rule.description.action)"
    }

    static func origin(of rule: RuleDescription) -> String {
        var text = rule.file.isEmpty ? rule.layer : "\(rule.file):\(rule.line)"
        if rule.locked { text += " · locked by the administrator" }
        if rule.recommended { text += " · recommended" }
        return text
    }

    /// The name `SetRuleEnabled` takes: the rule's own, else its index.
    static func key(of rule: RouterClient.Rule) -> String {
        rule.name.isEmpty ? "#\(rule.description.index)" : rule.name
    }

    /// The user moved a switch: tell the daemon, then show what it says is in force.
    func switched(_ index: Int) {
        guard !updating, rows.indices.contains(index), let ui = settings, let client = ui.client else { return }
        let row = rows[index]
        let enabled = gtk_switch_get_active(cast(row.toggle)) != 0
        do {
            try client.setEnabled(Self.key(of: row.rule), enabled)
            ui.say("\(enabled ? "Turned on" : "Turned off") \(Self.title(of: row.rule)) until openurld restarts")
        } catch {
            ui.say("\(Self.title(of: row.rule)) was not changed: \(error)")
        }
        ui.refresh()
        focus(index)
    }

    /// Enter or Space on a row moves its switch; a locked rule's says why it cannot.
    func activated(_ row: UnsafeMutablePointer<GtkListBoxRow>) {
        guard let child = gtk_list_box_row_get_child(row) else { return }
        guard let index = rows.firstIndex(where: { gtk_widget_is_ancestor($0.toggle, child) != 0 }) else { return }
        let found = rows[index]
        if found.rule.description.locked {
            settings?.say("\(found.rule.name) is locked by the administrator (\(found.rule.description.file):\(found.rule.description.line)); it stays \(found.rule.description.enabled ? "on" : "off")")
            return
        }
        gtk_switch_set_active(cast(found.toggle), gtk_switch_get_active(cast(found.toggle)) == 0 ? 1 : 0)
    }

    /// What the report says of this page, read from the widgets.
    var json: JSONValue {
        .array(rows.map { row in
            .object([("name", .string(row.rule.name)), ("group", .string(Self.group(of: row.rule))),
                     ("title", .string(labelText(row.name))), ("detail", .string(labelText(row.detail))),
                     ("origin", .string(labelText(row.origin))), ("hits", .string(labelText(row.hits))),
                     ("on", .bool(gtk_switch_get_active(cast(row.toggle)) != 0)),
                     ("switchable", .bool(gtk_widget_get_sensitive(row.toggle) != 0))])
        })
    }
}

private let ruleSwitched: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
    settings?.rules.switched(signalIndex(data))
}

private let ruleRowActivated: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutableRawPointer?) -> Void = { _, row, _ in
    guard let row else { return }
    settings?.rules.activated(row)
}
