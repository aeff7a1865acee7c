// openurl-settings (`openurl settings`): the rules in force, a link tried, recent clicks made into
// rules, remembered answers and the default handlers, in a GTK 4 window.
//
//   openurl-settings [--page rules|try|recent|remembered|defaults] [--report FILE]
import CGtk
import CGtkLoader
import DBus
import Platform

/// The settings window's entry point: `openurl-settings` in the multi-call binary.
public enum SettingsMain {
    static let usage = "usage: openurl settings [--page rules|try|recent|remembered|defaults] [--report FILE]"

    /// Shows the window for `arguments` (argv, program name first) until it is closed, and exits.
    public static func run(arguments: [String]) -> Never {
        var page = 0
        var reportPath: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--page":
                guard let name = rest.popFirst(), let index = SettingsUI.pageNames.firstIndex(of: name) else {
                    fail("--page takes one of \(SettingsUI.pageNames.joined(separator: ", "))")
                }
                page = index
            case "--report":
                guard let path = rest.popFirst() else { fail("--report needs a file") }
                reportPath = path
            case "--help", "-h":
                print(usage)
                exitProcess(0)
            default:
                fail("unknown argument \(argument)")
            }
        }
        var message = [CChar](repeating: 0, count: 512)
        guard openurl_gtk_load(&message, message.count) == 0 else {
            StandardStream.error.write("openurl settings: \(String(cString: message))\n")
            exitProcess(3)
        }
        // As the chooser: a window of labels and lists gains nothing from GL, and cairo starts faster.
        Environment.set("GSK_RENDERER", "cairo", overwriting: false)
        g_set_prgname(SettingsUI.applicationID)
        g_set_application_name("Link routing")
        gtk_init()
        let client = try? RouterClient()
        let dark = client == nil ? nil : ColorScheme.prefersDark()
        if let dark { openurl_gtk_prefer_dark_theme(dark ? 1 : 0) }
        let ui = SettingsUI(client: client, report: reportPath.map(SettingsReport.init(path:)), firstPage: page, tool: toolPath())
        ui.colorScheme = dark.map { $0 ? "dark" : "light" } ?? "unknown"
        settings = ui
        ui.build()
        g_main_loop_run(g_main_loop_new(nil, 0))
        exitProcess(0)
    }

    private static func fail(_ message: String) -> Never {
        StandardStream.error.write("openurl settings: \(message)\n\(usage)\n")
        exitProcess(2)
    }

    /// `openurl-tool` beside this binary (the multi-call binary's other name), for status and install.
    static func toolPath() -> String {
        let own = (try? FileSystem.resolvingSymbolicLinks("/proc/self/exe")) ?? ""
        return Path.join(Path.parent(own), "openurl-tool")
    }
}
