import Catalog
import CGtk
import ConfigFiles
import ConfigLanguage
import GtkWidgets
import JSON
import Launching
import Platform
import RouterContract
import RoutingCore
import URLModel

/// "Make a rule…": a recent click made into one `[[rules]]` block appended to the user's
/// config.toml by `UserRuleFile` (the rest of the file byte for byte as it was), checked by
/// loading before anything is written, then reloaded. What the new rule would do with the
/// clicked link (routes it, or an earlier rule takes it first) is shown as the form changes; a
/// rule that would not route it is saved only when Save is pressed a second time.
final class RuleForm {
    private var matchMenu: Widget?
    private var actionMenu: Widget?
    private var name: Widget?
    private var message: Widget?
    private var heading: Widget?
    private(set) var click: RecentLink?
    /// The matches offered for the click, narrowest last (domain, host, path prefix, mail domain).
    private(set) var matches: [RuleDraft.Match] = []
    /// The actions offered: each installed target, then copy, discard and ask.
    private(set) var actions: [(label: String, action: RuleDraft.Action)] = []
    /// True once the user typed a name of their own: it is then no longer made from the choices.
    private var nameEdited = false
    private var settingName = false
    /// A draft the user was warned about (an earlier rule takes its link): a second Save writes it.
    private var confirmed: RuleDraft?

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), "box")
        let heading = makeLabel("")
        self.heading = heading
        gtk_box_append(cast(box), heading)
        matchMenu = menuRow(in: box, "_Match:")
        actionMenu = menuRow(in: box, "_Send to:")
        let row = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6), "box")
        let label = fieldLabel("R_ule name:")
        let name = made(gtk_entry_new(), "entry")
        gtk_widget_set_hexpand(name, 1)
        gtk_label_set_mnemonic_widget(cast(label), name)
        connect(UnsafeMutableRawPointer(name), "changed", unsafeBitCast(nameChanged, to: GCallback.self))
        self.name = name
        gtk_box_append(cast(row), label)
        gtk_box_append(cast(row), name)
        gtk_box_append(cast(box), row)
        let message = makeLabel("")
        self.message = message
        gtk_box_append(cast(box), message)
        let buttons = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8), "box")
        for (title, index) in [("Sa_ve rule", 0), ("Cancel (Esc)", 1)] {
            let button = made(gtk_button_new_with_mnemonic(title), "button")
            connect(UnsafeMutableRawPointer(button), "clicked", unsafeBitCast(formButton, to: GCallback.self), data: signalData(index))
            gtk_box_append(cast(buttons), button)
        }
        gtk_box_append(cast(box), buttons)
        return box
    }

    /// A titled list of options: arrows pick one (no popover, so the keyboard never loses its
    /// place); Alt and the title's letter put the focus on the selected option.
    private func menuRow(in box: Widget, _ title: String) -> Widget {
        let label = made(gtk_label_new_with_mnemonic(title), "label")
        gtk_label_set_xalign(cast(label), 0)
        gtk_box_append(cast(box), label)
        let list = browseList()
        connect(UnsafeMutableRawPointer(list), "row-selected", unsafeBitCast(optionSelected, to: GCallback.self))
        let scrolled = made(gtk_scrolled_window_new(), "scrolled window")
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(cast(scrolled), 1)
        gtk_scrolled_window_set_max_content_height(cast(scrolled), 150)
        gtk_scrolled_window_set_child(cast(scrolled), list)
        let frame = made(gtk_frame_new(nil), "frame")
        gtk_frame_set_child(cast(frame), scrolled)
        gtk_box_append(cast(box), frame)
        return list
    }

    /// Puts `labels` in `list`, selecting `selected`.
    private func fill(_ list: Widget, _ labels: [String], selected: Int) {
        filling = true
        defer { filling = false }
        removeAllRows(list)
        for text in labels {
            let label = makeLabel(text, wrap: false)
            setMargins(label, 4)
            gtk_list_box_append(OpaquePointer(list), label)
        }
        if let row = gtk_list_box_get_row_at_index(OpaquePointer(list), Int32(selected)) { gtk_list_box_select_row(OpaquePointer(list), row) }
    }
    /// True while lists are filled, so their selection is not taken for the user's.
    private var filling = false

    private func selectedIndex(_ list: Widget?) -> Int? {
        guard let list, let row = gtk_list_box_get_selected_row(OpaquePointer(list)) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    /// Alt+M, Alt+S: the focus on the selected match or action.
    func focusList(action: Bool) {
        guard let list = action ? actionMenu : matchMenu else { return }
        let row = gtk_list_box_get_selected_row(OpaquePointer(list)) ?? gtk_list_box_get_row_at_index(OpaquePointer(list), 0)
        if let row { _ = gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self)) }
    }

    func optionChanged() {
        if !filling { changed() }
    }

    /// Fills the form for `click`: the matches its URL offers, the targets installed for its scheme.
    func start(for click: RecentLink) {
        self.click = click
        confirmed = nil
        let daemons = (try? settings?.client?.configPath()) ?? ""
        configPath = daemons.isEmpty ? Self.paths.configFile : daemons
        catalog = ConfigFile.installedApps(paths: Self.paths, environment: Environment.current())
        nameEdited = false
        let url = click.finalURL.isEmpty ? click.url : click.finalURL
        if let heading {
            gtk_label_set_markup(cast(heading), "<b>New rule</b> for links like \(MarkupText.escaped(url)) (added at the end of your config.toml)")
        }
        let suffixes = FileSystem.contents(PublicSuffixList.debianPath)
        matches = RuleDraft.suggested(for: url, action: .copy, suffixList: suffixes).map(\.match)
        let scheme = url.split(separator: ":", maxSplits: 1).first.map { String($0).lowercased() } ?? "https"
        let targets = (try? settings?.client?.targets(scheme: scheme)) ?? []
        actions = targets.map { ("Open in \($0.name) (\($0.target))", RuleDraft.Action.open(target: $0.target)) }
        actions += [("Copy it", .copy), ("Discard it", .discard)]
        let askable = targets.filter { [.browser, .profile, .entry, .app].contains($0.kind) }.prefix(4).map(\.target)
        if !askable.isEmpty { actions.append(("Ask: \(askable.joined(separator: ", ")), copy", .ask(choices: askable + ["copy"]))) }
        if let matchMenu { fill(matchMenu, matches.map(Self.describe), selected: 0) }
        let clicked = actions.firstIndex { if case .open(let target) = $0.action { return target == click.target } else { return false } }
        if let actionMenu { fill(actionMenu, actions.map(\.label), selected: clicked ?? 0) }
        changed()
    }

    static func describe(_ match: RuleDraft.Match) -> String {
        switch match {
        case .domain(let domain): return "links to \(domain) and its subdomains (match.domain)"
        case .host(let host): return "links to \(host) only (match.host)"
        case .pathPrefix(let host, let path): return "links under \(host)\(path) (match.host and match.path)"
        case .mailDomain(let domain): return "mail to anyone at \(domain) (match.to)"
        }
    }

    /// The draft the form shows, or nil before a click is chosen.
    var draft: RuleDraft? {
        guard let matchIndex = selectedIndex(matchMenu), let actionIndex = selectedIndex(actionMenu),
              matches.indices.contains(matchIndex), actions.indices.contains(actionIndex) else { return nil }
        let match = matches[matchIndex], action = actions[actionIndex].action
        let typed = name.map(entryText)?.trimmingSpacesAndTabs() ?? ""
        return RuleDraft(name: nameEdited && !typed.isEmpty ? typed : RuleDraft.defaultName(match: match, action: action), match: match, action: action)
    }

    /// A choice changed: a name made from the choices follows them, and what the rule would do is shown again.
    func changed() {
        confirmed = nil
        guard let draft else {
            say(matches.isEmpty ? "This link offers nothing a rule can match by name (an IP address or an odd host); write the rule by hand." : "")
            return
        }
        if !nameEdited, let name {
            settingName = true
            gtk_editable_set_text(OpaquePointer(name), draft.name)
            settingName = false
        }
        do {
            let preview = try UserRuleFile.preview(draft, configPath: configPath, sampleURL: click?.url, systemDirs: Self.paths.configDirs, discover: discover)
            say(preview.sample.map { "For the clicked link: \($0)." } ?? "")
        } catch {
            say("Cannot be saved: \(error)")
        }
    }

    func nameTyped() {
        guard !settingName else { return }
        nameEdited = true
        changed()
    }

    func save() {
        guard let draft, let ui = settings else { return }
        do {
            let preview = try UserRuleFile.preview(draft, configPath: configPath, sampleURL: click?.url, systemDirs: Self.paths.configDirs, discover: discover)
            if let sample = preview.sample, sample != UserRuleFile.SampleOutcome.decidedByNewRule, confirmed != draft {
                confirmed = draft
                say("For the clicked link: \(sample). Press Save again to add it anyway.")
                return
            }
            let result = try UserRuleFile.append(draft, configPath: configPath, sampleURL: click?.url, systemDirs: Self.paths.configDirs, discover: discover)
            do { try ui.client?.reload() } catch { ui.say("Added “\(result.name)” at \(result.path):\(result.line), but openurld did not reload: \(error)") }
            ui.recent.closeForm()
            ui.refresh()
            ui.say("Added rule “\(result.name)” at \(result.path):\(result.line); openurld uses it from the next click")
        } catch {
            say("Not saved: \(error)")
        }
    }

    private func say(_ text: String) {
        if let message { gtk_label_set_text(cast(message), text) }
        settings?.reportSoon()
    }

    /// The file the daemon reads, asked once per form: every preview and the save write there.
    private var configPath = ""
    /// The installed apps, found once per form: each change of the form checks the config against them.
    private var catalog = AppCatalog()

    private func discover() -> AppCatalog { catalog }

    static var paths: XDGPaths { XDGPaths(environment: Environment.current()) }


    /// Puts the focus on the match list.
    func focus() { focusList(action: false) }

    var json: JSONValue {
        .object([("match", .string(selectedIndex(matchMenu).flatMap { matches.indices.contains($0) ? Self.describe(matches[$0]) : nil } ?? "")),
                 ("action", .string(selectedIndex(actionMenu).flatMap { actions.indices.contains($0) ? actions[$0].label : nil } ?? "")),
                 ("name", .string(name.map(entryText) ?? "")), ("message", .string(message.map(labelText) ?? ""))])
    }

}

private let nameChanged: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    settings?.recent.form.nameTyped()
}

private let optionSelected: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, _ in
    settings?.recent.form.optionChanged()
}

private let formButton: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    if signalIndex(data) == 0 { settings?.recent.form.save() } else { settings?.recent.closeForm() }
}
