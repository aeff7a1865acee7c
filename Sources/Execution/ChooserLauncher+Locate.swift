import Launching
import Platform

extension ChooserLauncher {
    /// The chooser beside the running executable (an install or a build directory), else on `PATH`.
    public static func locate(environment: [String: String]) -> String? {
        if let own = try? FileSystem.symbolicLinkTarget("/proc/self/exe") {
            let beside = Path.parent(own) + "/" + programName
            if FileSystem.isExecutable(beside) { return beside }
        }
        return ProcessLauncher.resolve(programName, environment: environment)
    }

    /// True when `environment` has a display the window can appear on.
    public static func hasDisplay(_ environment: [String: String]) -> Bool { Environment.hasDisplay(environment) }

    /// `value` seconds as the log writes them: "3 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
