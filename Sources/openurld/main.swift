// The one binary behind openurld, openurl-tool, openurl-chooser and openurl-native-host: they share one copy of the
// Swift runtime and of every module, and the name it was run by says which it is. `make install`
// installs it as openurld, with openurl-tool and openurl-chooser as symlinks to it.
import OpenurlChooser
import OpenurlDaemon
import OpenurlTool
import Platform

/// What the binary does when run as `name`: nil for a name it does not answer to.
enum Role: String, CaseIterable {
    case daemon = "openurld"
    case tool = "openurl-tool"
    case chooser = "openurl-chooser"
    case nativeHost = "openurl-native-host"

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
}
