import ArrivalPaths
import DesktopDefaults
import Launching
import OpenurlCommands
import Platform

/// `openurl install --system` and `uninstall --system`: every user's defaults, in the system's
/// files (the first `$XDG_CONFIG_DIRS` and `$XDG_DATA_DIRS` directories), as root.
extension Client {
    func runInstallSystem(_ parsed: ParsedCommand) -> Int32 {
        let handlers = DefaultHandlers(paths: paths, scope: .system)
        var problems = DefaultHandlers.systemInstallProblems(paths: paths, isRoot: Environment.isRoot)
        // Root is needed whatever --force says; a missing service file may be forced past.
        if parsed.flag("--force") {
            for problem in problems where problem.containsText(".service is not installed") { Output.error("openurl: warning: \(problem)") }
            problems.removeAll { $0.containsText(".service is not installed") }
        }
        if let first = problems.first {
            return fail("not taking over the system's defaults: \(first)" + problems.dropFirst().map { "\nalso: \($0)" }.joined(),
                        code: ExitCode.notCarriedOut)
        }
        do {
            let shadowed = try handlers.install(openurl: Self.handlerPath, environment: environment)
            Output.print("openurld is now the default handler for http, https and mailto for every user (what was there is saved in \(handlers.recordFile))")
            for file in handlers.takenOverFiles() { Output.print("  changed \(file)") }
            if !shadowed.isEmpty, handlers.entries.entry(id: DefaultHandlers.ourDesktopID) == nil {
                Output.error("openurl: warning: \(DefaultHandlers.ourDesktopID) is installed but not usable here (is the program of its Exec line on PATH?)")
            } else {
                for type in shadowed { Output.error("openurl: warning: another system list still overrides \(type)") }
            }
            Output.print("A user's own ~/.config/mimeapps.list still wins over these files; `openurl status` as that user shows what decides.")
            return ExitCode.success
        } catch {
            return fail("install --system failed: \(error)", code: ExitCode.notCarriedOut)
        }
    }

    func runUninstallSystem() -> Int32 {
        guard Environment.isRoot else {
            return fail("uninstall --system changes files every user reads: run it as root (sudo openurl uninstall --system)", code: ExitCode.notCarriedOut)
        }
        let handlers = DefaultHandlers(paths: paths, scope: .system)
        // First: its record sits in the takeover's record folder, which goes with the takeover.
        do {
            for line in try Self.alternatives(paths: paths, environment: environment).restore() { Output.print(line) }
        } catch {
            return fail("uninstall --system failed: \(error)", code: ExitCode.notCarriedOut)
        }
        guard handlers.isRecorded else {
            Output.print("install --system was not run here (no record at \(handlers.recordFile)); nothing to restore")
            return ExitCode.success
        }
        do {
            try handlers.uninstall()
            Output.print("restored the system's previous default handlers for http, https and mailto")
            return ExitCode.success
        } catch {
            return fail("uninstall --system failed: \(error)", code: ExitCode.notCarriedOut)
        }
    }
}
