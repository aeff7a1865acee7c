import ArrivalPaths
import DBus
import DesktopDefaults
import JSON
import Launching
import OpenurlCommands
import Platform
import RouterContract

/// `openurl doctor`: every way a link can arrive, what each would run (from the files and
/// variables the tool itself reads), and a live probe of each that should reach openurld. With
/// `--fix`, mends what the user may mend (recorded for `openurl uninstall`); with `--system`
/// too, as root, the system's. Exit 0 when every installed path reaches openurld, else 1.
extension Client {
    func runDoctor(_ parsed: ParsedCommand) -> Int32 {
        let json = parsed.flag("--json")
        let fix = parsed.flag("--fix")
        let system = parsed.flag("--system")
        if system && !fix { return fail("doctor: --system goes with --fix (openurl doctor --fix --system)", code: ExitCode.usage) }
        if system && !Environment.isRoot {
            return fail("doctor --fix --system changes files every user reads: run it as root (sudo openurl doctor --fix --system)", code: ExitCode.notCarriedOut)
        }
        let started = MonotonicClock.seconds()
        let bus = try? DBusConnection.session()
        var rows = arrivals(bus: bus).all()
        if fix {
            let (fixed, notes) = system ? (mendSystem(), []) : mend(rows)
            for (key, text) in fixed.map({ ("fixed", $0) }) + notes.map({ ("note", $0) }) {
                Output.print(json ? JSONValue.object([(key, .string(text))]).text : "\(key): \(text)")
            }
            if fixed.isEmpty, notes.isEmpty, !json { Output.print("fixed: nothing to change") }
            rows = arrivals(bus: bus).all()
        }
        var results: [Int: DoctorProbes.Result] = [:]
        var probeProblem: String?
        if let bus {
            do {
                results = try DoctorProbes(connection: bus, environment: environment).run(rows, nonce: Self.nonce())
            } catch {
                probeProblem = "openurld cannot be reached over D-Bus (\(error)): nothing was probed"
            }
        } else {
            probeProblem = "no session bus: nothing was probed (xdg-open and the others still run Exec=openurl, which routes in-process)"
        }
        var allReach = probeProblem == nil
        let width = rows.map(\.name.count).max() ?? 0
        for (index, row) in rows.enumerated() {
            let verdict = Self.verdict(row, result: results[index])
            if row.forecast.isInstalled, verdict.word != "reaches" { allReach = false }
            if json {
                var members: [(String, JSONValue)] = [("path", .string(row.name)), ("verdict", .string(verdict.word))]
                members.append(("milliseconds", verdict.milliseconds.map { .fraction(($0 * 10).rounded() / 10) } ?? .null))
                members.append(("program", verdict.program.map { .string($0) } ?? .null))
                members.append(("why", .string(verdict.why)))
                Output.print(JSONValue.object(members).text)
            } else {
                Output.print(row.name + String(repeating: " ", count: width - row.name.count) + "  " + verdict.text)
            }
        }
        if let probeProblem { Output.error("openurl: doctor: \(probeProblem)") }
        if !json {
            let elapsed = Int(((MonotonicClock.seconds() - started) * 1000).rounded())
            Output.print(allReach ? "every installed path reaches openurld (\(elapsed) ms)"
                                  : "some paths do not reach openurld (\(elapsed) ms)" + (fix ? "" : "; openurl doctor --fix mends what it can"))
        }
        return allReach ? 0 : 1
    }

    /// The paths, as this user's files and environment make them now.
    private func arrivals(bus: DBusConnection?) -> LinkArrivals {
        var answer: String?
        if ProcessLauncher.resolve("xdg-settings", environment: environment) != nil,
           let result = try? ProcessLauncher().run(["xdg-settings", "get", "default-web-browser"], environment: environment, timeout: 5),
           result.exitCode == 0 {
            answer = result.outputText.trimmingASCIIWhitespace()
        }
        let portal = "org.freedesktop.portal.Desktop"
        var portalAvailable = (try? bus?.nameHasOwner(portal)) == true
        if !portalAvailable, let bus, let names = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                                              method: "ListActivatableNames", timeout: 5).first?.stringArray {
            portalAvailable = names.contains(portal)
        }
        return LinkArrivals(paths: paths, environment: environment, xdgSettingsAnswer: answer, portalAvailable: portalAvailable)
    }

    /// A row's verdict: the forecast, confirmed or contradicted by its probe.
    static func verdict(_ row: ArrivalPath, result: DoctorProbes.Result?) -> (word: String, text: String, milliseconds: Double?, program: String?, why: String) {
        switch row.forecast {
        case .reaches(let why):
            switch result {
            case .arrived(let ms)?:
                return ("reaches", "reaches openurld (\(Int(ms.rounded())) ms): \(why)", ms, nil, why)
            case .missing(let problem)?:
                return ("goes-around", "goes around it → ? (\(problem); the files say: \(why))", nil, nil, problem + "; the files say: " + why)
            case nil:
                if case .none = row.probe { return ("reaches", "reaches openurld: \(why)", nil, nil, why) }
                return ("unproven", "should reach openurld, not probed: \(why)", nil, nil, why)
            }
        case .goesAround(let program, let why):
            return ("goes-around", "goes around it → \(program) (\(why))", nil, program, why)
        case .fails(let why):
            return ("fails", "reaches nothing (\(why))", nil, nil, why)
        case .notInstalled(let package):
            return ("not-installed", "not installed (apt-get install \(package))", nil, nil, "apt-get install \(package)")
        }
    }

    /// A run's probe prefix: unique enough that a run's probes are told from another's.
    private static func nonce() -> String {
        let now = WallClock.now()
        return "d\(now.seconds % 100_000)x\(now.nanoseconds / 1000)p\(Environment.processID)"
    }

    /// The user's mends: the takeover again when a desktop's files go around openurld, then the
    /// wrappers and `environment.d` entry `PathMends` works out. Returns what changed, and what
    /// only the user can do.
    private func mend(_ rows: [ArrivalPath]) -> (fixed: [String], notes: [String]) {
        var lines: [String] = []
        let handlers = DefaultHandlers(paths: paths)
        let desktopPaths = rows.filter { $0.name.hasPrefix("xdg-open") || ["gio open", "xdg-email", "exo-open", "kde-open5", "kde-open"].contains($0.name) }
        if desktopPaths.contains(where: { if case .goesAround = $0.forecast { return true } else { return false } }) {
            lines += takeOver(handlers, refusal: ActivationCheck(paths: paths).problem(), as: "openurl install")
        }
        let mends = PathMends(rows: rows, paths: paths, environment: environment, openurl: Self.handlerPath, userID: Environment.userID)
        do {
            let wrappers = Set(mends.wrappers.map(\.path))
            let changed = try handlers.mend(mends.files) { wrappers.contains($0) ? 0o755 : nil }
            for file in changed {
                lines.append(wrappers.contains(file) ? "\(file) hands its links to openurl"
                                                     : "\(file) sets BROWSER=\(Self.handlerPath) from your next login")
            }
        } catch {
            lines.append("could not write the mends: \(error)")
        }
        return (lines, mends.advice)
    }

    /// `command`'s takeover with `handlers`, unless `refusal` says why it must not run; a line
    /// for each file it changed.
    private func takeOver(_ handlers: DefaultHandlers, refusal: String?, as command: String) -> [String] {
        if let refusal { return ["not taking over the defaults as \(command) would: \(refusal)"] }
        do {
            return try handlers.installReporting(openurl: Self.handlerPath, environment: environment).changed
                .map { "\($0) names openurld (as \(command) does)" }
        } catch {
            return ["the takeover (as \(command) does) failed: \(error)"]
        }
    }

    /// The system's mends, as root: `install --system`'s takeover and the browser alternatives.
    private func mendSystem() -> [String] {
        var lines: [String] = []
        let handlers = DefaultHandlers(paths: paths, scope: .system)
        lines += takeOver(handlers, refusal: DefaultHandlers.systemInstallProblems(paths: paths, isRoot: true).first, as: "openurl install --system")
        let openurl = Self.handlerPath
        if !openurl.hasPrefix("/") || openurl.hasPrefix("/home/") || openurl.hasPrefix("/root/") {
            lines.append("the browser alternatives were left alone: they must name a program every user can run, and openurl here is \(openurl) "
                         + "(install the .deb, or make install PREFIX=/usr/local)")
            return lines
        }
        do {
            lines += try Self.alternatives(paths: paths, environment: environment).take(openurl: openurl)
        } catch {
            lines.append("\(error)")
        }
        return lines
    }

    /// The browser alternatives, recorded beside the system takeover's record.
    static func alternatives(paths: XDGPaths, environment: [String: String]) -> BrowserAlternatives {
        let record = DefaultHandlers(paths: paths, scope: .system).recordFile
        return BrowserAlternatives(recordFile: Path.parent(record) + "/alternatives", environment: environment)
    }
}
