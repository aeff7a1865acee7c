import CGtk
import GtkWidgets
import JSON
import RouterContract

/// The remembered answers (the chooser's "Remember for …"), each with what it matches, where it
/// sends links and where it lives; "Forget" (Alt+G) removes the selected one through the daemon
/// (`ForgetRemembered`), which rewrites `remembered.toml` and reloads.
final class RememberedPage {
    private var list: Widget?
    private var forget: Widget?
    private(set) var answers: [RouterClient.Rule] = []
    private var labels: [Widget] = []

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
        setMargins(box, 12)
        gtk_box_append(cast(box), makeLabel("Answers you gave the chooser with “Remember for …”. Each applies only where a rule would ask.", classes: ["dim-label"]))
        let list = browseList()
        self.list = list
        gtk_box_append(cast(box), scrolled(list))
        let forget = made(gtk_button_new_with_mnemonic("For_get the selected answer"), "button")
        gtk_widget_set_halign(forget, GTK_ALIGN_START)
        connect(UnsafeMutableRawPointer(forget), "clicked", unsafeBitCast(forgetClicked, to: GCallback.self))
        self.forget = forget
        gtk_box_append(cast(box), forget)
        return box
    }

    func show(_ answers: [RouterClient.Rule]) {
        guard let list else { return }
        removeAllRows(list)
        self.answers = answers
        labels = []
        for answer in answers {
            let text = "\(answer.name)\n\(RulesPage.detail(of: answer))\n\(answer.description.file):\(answer.description.line)"
            let label = makeLabel(text)
            setMargins(label, 6)
            labels.append(label)
            gtk_list_box_append(OpaquePointer(list), label)
        }
        if let first = gtk_list_box_get_row_at_index(OpaquePointer(list), 0) { gtk_list_box_select_row(OpaquePointer(list), first) }
        if let forget { gtk_widget_set_sensitive(forget, answers.isEmpty ? 0 : 1) }
    }

    func forgetSelected() {
        guard let list, let ui = settings, let client = ui.client, let row = gtk_list_box_get_selected_row(OpaquePointer(list)) else { return }
        let index = Int(gtk_list_box_row_get_index(row))
        guard answers.indices.contains(index) else { return }
        let name = answers[index].name
        do {
            try client.forget(name)
            ui.say("Forgot “\(name)”: the next such link is asked about again")
        } catch {
            ui.say("“\(name)” was not forgotten: \(error)")
        }
        ui.refresh()
    }

    var json: JSONValue {
        .array(zip(answers, labels).map { answer, label in .object([("name", .string(answer.name)), ("text", .string(labelText(label)))]) })
    }
}

private let forgetClicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    settings?.remembered.forgetSelected()
}
