import CGtk
import GtkWidgets
import JSON
import Platform

/// The handler chain as `openurl status` sees it (its own output, so the two never disagree),
/// with "Make openurld the default" (`openurl install`). Both run the tool beside this binary,
/// argv only; status runs when the page is first shown, not at start-up.
final class DefaultsPage {
    private let tool: String
    private var output: Widget?
    private var shownOnce = false

    init(tool: String) {
        self.tool = tool
    }

    func build() -> Widget {
        let box = made(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
        setMargins(box, 12)
        let buttons = made(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8), "box")
        let install = made(gtk_button_new_with_mnemonic("Make o_penurld the default"), "button")
        connect(UnsafeMutableRawPointer(install), "clicked", unsafeBitCast(installClicked, to: GCallback.self))
        let check = made(gtk_button_new_with_mnemonic("C_heck again"), "button")
        connect(UnsafeMutableRawPointer(check), "clicked", unsafeBitCast(checkClicked, to: GCallback.self))
        gtk_box_append(cast(buttons), install)
        gtk_box_append(cast(buttons), check)
        gtk_box_append(cast(box), buttons)
        let output = makeLabel("", wrap: true)
        gtk_label_set_selectable(cast(output), 1)
        gtk_widget_add_css_class(output, "monospace")
        self.output = output
        gtk_box_append(cast(box), scrolled(output, horizontal: true))
        return box
    }

    func showIfFirst() {
        guard !shownOnce else { return }
        shownOnce = true
        check()
    }

    func check() {
        guard let output else { return }
        let (status, text) = Self.run([tool, "status"])
        gtk_label_set_text(cast(output), text.isEmpty ? "openurl status printed nothing (exit \(status))" : text)
        settings?.reportSoon()
    }

    func install() {
        let (status, text) = Self.run([tool, "install"])
        settings?.say(status == 0 ? "openurld is now the default for links" : "openurl install failed (exit \(status)): \(text.split(separator: "\n").last.map(String.init) ?? "")")
        check()
    }

    /// Runs `argv` with this process's environment and returns its exit status and its output
    /// (stdout and stderr together).
    static func run(_ argv: [String]) -> (Int32, String) {
        guard let pipe = try? Descriptor.pipe() else { return (-1, "cannot make a pipe") }
        let pid: Int32
        do {
            pid = try ProcessSpawn.spawn(path: argv[0], argv: argv, environment: Environment.current(), stdout: pipe.write, stderr: pipe.write)
        } catch {
            Descriptor.close(pipe.read)
            Descriptor.close(pipe.write)
            return (-1, "cannot run \(argv[0]): \(error)")
        }
        Descriptor.close(pipe.write)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            switch Descriptor.read(pipe.read, into: &buffer) {
            case .bytes(let count): bytes += buffer[0..<count]
            case .wouldBlock: continue
            case .endOfFile, .failed: break reading
            }
        }
        Descriptor.close(pipe.read)
        let status = ChildProcesses.waitForExit(pid, timeout: 30) ?? -1
        return (status, String(decoding: bytes, as: UTF8.self))
    }

    var json: JSONValue { .object([("text", .string(output.map(labelText) ?? ""))]) }
}

private let installClicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    settings?.defaults.install()
}

private let checkClicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    settings?.defaults.check()
}
