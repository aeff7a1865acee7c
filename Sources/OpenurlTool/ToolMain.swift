// openurl-tool: every command of openurl but the click itself, and the embedded mode.
import Foundation

/// The tool's entry point: `openurl-tool` in the multi-call binary (and `openurl`, which execs it).
public enum ToolMain {
    /// Runs the command in `arguments` (argv, program name first); returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        Client(arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment).run()
    }
}
