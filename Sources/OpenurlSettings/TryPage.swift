import CGtk
import DBus
import GtkWidgets
import JSON
import Platform
import RouterContract

/// "Try a link": as one types, the daemon's `Explain` of the link (the decision, target, rule,
/// safety verdict and trace, in `openurl test`'s words), with the moment's facts a rule may
/// match (network, VPN, time, focused window, keys held, the app it came from) fixed by the fields.
final class TryPage {
    private var link: Widget?
    private var network: Widget?
    private var vpn: Widget?
    private var time: Widget?
    private var window: Widget?
    private var opener: Widget?
    private var keys: [(name: String, check: Widget)] = []
    private var result: Widget?
    private var pending: UInt32 = 0
    /// The decision last shown, as Explain gave it (for the report).
    private(set) var shown: [String: DBusValue] = [:]

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
        setMargins(box, 12)
        let link = entryRow(in: box, "_Link:", placeholder: "https://example.org/ or mailto:someone@example.org")
        self.link = link
        gtk_box_append(cast(box), makeLabel("<b>The moment of the click</b> (empty: as a click now would see it)", markup: true, small: true))
        let grid = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12), "box")
        let left = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4), "box")
        let right = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4), "box")
        for side in [left, right] { gtk_widget_set_hexpand(side, 1); gtk_box_append(cast(grid), side) }
        gtk_box_append(cast(box), grid)
        network = entryRow(in: left, "_Network:", placeholder: "Wi-Fi name")
        time = entryRow(in: left, "T_ime:", placeholder: "2026-12-01 18:30")
        window = entryRow(in: right, "_Window:", placeholder: "focused window's title")
        opener = entryRow(in: right, "_From app:", placeholder: "slack, org.gnome.Evolution.desktop")
        let checks = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8), "box")
        let vpn = made(gtk_check_button_new_with_label("VPN up"), "check button")
        self.vpn = vpn
        gtk_box_append(cast(checks), vpn)
        // No mnemonics here: the letters are the fields' and the pages'; Tab reaches these.
        for (name, label) in [("shift", "Shift"), ("ctrl", "Ctrl"), ("alt", "Alt"), ("super", "Super")] {
            let check = made(gtk_check_button_new_with_label(label + " held"), "check button")
            keys.append((name, check))
            gtk_box_append(cast(checks), check)
        }
        for check in [vpn] + keys.map(\.check) {
            connect(UnsafeMutableRawPointer(check), "toggled", unsafeBitCast(tryChanged, to: GCallback.self))
        }
        gtk_box_append(cast(box), checks)
        let result = makeLabel("Type a link to see where it would go.", wrap: true)
        gtk_label_set_selectable(cast(result), 1)
        gtk_widget_add_css_class(result, "monospace")
        gtk_widget_set_valign(result, GTK_ALIGN_START)
        self.result = result
        gtk_box_append(cast(box), scrolled(result))
        return box
    }

    private func entryRow(in box: Widget, _ title: String, placeholder: String) -> Widget {
        let row = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6), "box")
        let label = fieldLabel(title)
        let entry = made(gtk_entry_new(), "entry")
        gtk_widget_set_hexpand(entry, 1)
        gtk_widget_set_tooltip_text(entry, placeholder)
        gtk_label_set_mnemonic_widget(cast(label), entry)
        connect(UnsafeMutableRawPointer(entry), "changed", unsafeBitCast(tryChanged, to: GCallback.self))
        gtk_box_append(cast(row), label)
        gtk_box_append(cast(row), entry)
        gtk_box_append(cast(box), row)
        return entry
    }

    /// Something changed: explain again once typing pauses (150 ms), not at every key.
    func changed() {
        if pending != 0 { g_source_remove(pending) }
        pending = g_timeout_add(150, explainLater, nil)
    }

    /// The moment's facts the fields fix, as `Explain`'s `moment` option carries them.
    var moment: [(String, DBusValue)] {
        var facts: [(String, DBusValue)] = []
        typealias Key = Router1.MomentOption
        if let network, !entryText(network).isEmpty { facts.append((Key.network, .string(entryText(network)))) }
        if let vpn, gtk_check_button_get_active(cast(vpn)) != 0 { facts.append((Key.vpn, .bool(true))) }
        if let time, !entryText(time).isEmpty { facts.append((Key.at, .string(entryText(time)))) }
        if let window, !entryText(window).isEmpty { facts.append((Key.window, .string(entryText(window)))) }
        // The keys a window's Try button is pressed with are not the link's: none held, unless ticked.
        let held = keys.filter { gtk_check_button_get_active(cast($0.check)) != 0 }.map(\.name)
        facts.append((Key.modifiers, .string(held.isEmpty ? "none" : held.joined(separator: ","))))
        return facts
    }

    func explain() {
        pending = 0
        guard let link, let result, let ui = settings else { return }
        let url = entryText(link).trimmingSpacesAndTabs()
        guard !url.isEmpty else {
            gtk_label_set_text(cast(result), "Type a link to see where it would go.")
            shown = [:]
            ui.reportSoon()
            return
        }
        guard let client = ui.client else { return }
        do {
            shown = try client.explain(url, moment: moment, opener: opener.map(entryText))
            gtk_label_set_text(cast(result), Self.text(shown))
        } catch {
            shown = [:]
            gtk_label_set_text(cast(result), "\(error)")
        }
        ui.reportSoon()
    }

    /// The decision in `openurl test`'s words and order.
    static func text(_ reply: [String: DBusValue]) -> String {
        typealias Key = Router1.Result
        var lines = ["url:       \(reply[Key.url]?.string ?? "")"]
        if let final = reply[Key.finalURL]?.string, final != reply[Key.url]?.string { lines.append("final url: \(final)") }
        var summary = "decision:  \(reply[Key.decision]?.string ?? "?")"
        if let target = reply[Key.target]?.string { summary += " → \(target)" }
        lines.append(summary)
        let rule = reply[Key.rule]?.string ?? reply[Key.rule]?.uint32.map { "#\($0)" }
        lines.append("rule:      \(rule ?? "none ([default])")")
        if let copy = reply[Key.copyText]?.string { lines.append("copy text: \(copy)") }
        if let choices = reply[Key.choices]?.stringArray { lines.append("choices:   \(choices.joined(separator: ", "))") }
        if let error = reply[Key.error]?.string { lines.append("error:     \(error)") }
        if let safety = reply[Key.safety]?.dictionary {
            let verdict = safety["verdict"]?.string ?? "?"
            let summary = safety["summary"]?.string ?? ""
            lines.append("safety:    \(verdict)\(summary.isEmpty ? "" : " (\(summary))")")
        }
        lines.append("trace:")
        for step in reply[Key.trace]?.stringArray ?? [] { lines.append("  \(step)") }
        return lines.joined(separator: "\n")
    }

    /// Puts the focus in the link field, once the page is on screen (a hidden widget cannot take it).
    func focus() {
        g_idle_add(focusLinkIdle, nil)
    }

    func focusLink() {
        if let link { _ = gtk_widget_grab_focus(link) }
    }

    /// Puts `url` in the field (the Recent page's "Try" and tests).
    func setLink(_ url: String) {
        if let link { gtk_editable_set_text(OpaquePointer(link), url) }
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("link", .string(link.map(entryText) ?? "")), ("text", .string(result.map(labelText) ?? ""))]
        for key in [Router1.Result.decision, Router1.Result.target] {
            members.append((key, shown[key]?.string.map { .string($0) } ?? .null))
        }
        members.append((Router1.Result.rule, (shown[Router1.Result.rule]?.string ?? shown[Router1.Result.rule]?.uint32.map { "#\($0)" }).map { .string($0) } ?? .null))
        members.append(("verdict", shown[Router1.Result.safety]?.dictionary?["verdict"]?.string.map { .string($0) } ?? .null))
        return .object(members)
    }
}

private let tryChanged: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    settings?.tryLink.changed()
}

private let explainLater: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { _ in
    settings?.tryLink.explain()
    return 0
}

private let focusLinkIdle: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { _ in
    settings?.tryLink.focusLink()
    return 0
}
