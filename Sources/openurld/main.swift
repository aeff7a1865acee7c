// The one binary behind openurld, openurl-tool, openurl-chooser, openurl-native-host and openurl-settings: they share one copy of the
// Swift runtime and of every module, and the name it was run by says which it is. `make install`
// installs it as openurld, with openurl-tool and openurl-chooser as symlinks to it.
import OpenurlChooser
import OpenurlDaemon
import OpenurlSettings
import OpenurlTool
import Platform

/// What the binary does when run as `name`: nil for a name it does not answer to.
enum Role: String, CaseIterable {
    case daemon = "openurld"
    case tool = "openurl-tool"
    case chooser = "openurl-chooser"
    case nativeHost = "openurl-native-host"
    case settings = "openurl-settings"

    init?(programName name: String) {
        // `openurl` execs openurl-tool with argv[0] "openurl", so its messages keep its own name.
        if name == "openurl" { self = .tool; return }
        self.init(rawValue: name)
    }
}

let arguments = ProcessArguments.current
let path = arguments.first ?? ""
let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
guard let role = Role(programName: name) else {
    let names = Role.allCases.map(\.rawValue).joined(separator: ", ")
    StandardStream.error.write("openurld: run as \"\(name)\", which is none of the names this binary answers to (\(names)); "
                               + "install it with `make install`, which links each name to it\n")
    exitProcess(2)
}
switch role {
case .daemon: DaemonMain.run(arguments: arguments)
case .tool: exitProcess(ToolMain.run(arguments: arguments))
case .chooser: ChooserMain.run(arguments: arguments)
case .nativeHost: exitProcess(NativeHost.run(arguments: arguments))
case .settings: SettingsMain.run(arguments: arguments)
}
