// Child processes with their CPU time (wait4) and /proc readings (clocks and statistics are
// BenchSupport's). The one file that imports Glibc; the others reach it through Foundation.
import BenchSupport
import Foundation
import Glibc

/// KiB as MiB (the goals are in MiB: 12 MiB is 12,582,912 bytes).
func mib(_ kib: Int) -> String { fixed(Double(kib) / 1024, 1) + " MiB" }

/// The `count` largest mappings, a line each: Rss, its anonymous part, and the mapping's name.
func printMappings(_ mappings: [(name: String, rss: Int, anonymous: Int)], count: Int, indent: String) {
    for mapping in mappings.prefix(count) {
        print(indent + "\(mib(mapping.rss).padding(toLength: 9, withPad: " ", startingAt: 0)) (anon \(mib(mapping.anonymous)))  \(mapping.name)")
    }
}

/// A child spawned with argv (no shell), stdout and stderr to /dev/null, reaped with `wait4` so
/// its own CPU time is known.
struct Spawned {
    let pid: pid_t

    init(_ argv: [String], environment: [String: String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let env = environment.map { "\($0.key)=\($0.value)" }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, argv[0], &actions, nil, &cArgs, &cEnv)
        guard rc == 0 else { throw BenchError("posix_spawn \(argv[0]): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Waits for the exit; returns the exit status and the child's user+sys CPU seconds.
    func wait() -> (status: Int32, cpu: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ((status >> 8) & 0xff, cpu)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs argv to its exit: wall seconds and the child's CPU seconds; a non-zero exit is an error.
func timed(_ argv: [String], environment: [String: String]) throws -> (wall: Double, cpu: Double) {
    let start = now()
    let child = try Spawned(argv, environment: environment)
    let (status, cpu) = child.wait()
    let wall = now() - start
    guard status == 0 else { throw BenchError("\(argv.joined(separator: " ")) exited \(status)") }
    return (wall, cpu)
}

/// Readings from /proc for one process.
enum ProcFS {
    /// The whole of a /proc file: they report size 0, and String(contentsOfFile:) reads one page.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// CPU time of `pid`'s threads, in seconds: the live ones from `/proc/PID/task/*/schedstat`
    /// (nanoseconds), plus what threads that already exited used, which only the process's
    /// `/proc/PID/stat` still counts (in clock ticks): the live threads alone missed the lists'
    /// start-up thread once it was done.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var live = 0.0, liveTicks = 0.0
        for task in tasks {
            guard let text = read("/proc/\(pid)/task/\(task)/schedstat"),
                  let first = text.split(separator: " ").first, let ns = Double(first) else { continue }
            live += ns / 1e9
            liveTicks += ticks(read("/proc/\(pid)/task/\(task)/stat")) ?? 0
        }
        let processTicks = ticks(read("/proc/\(pid)/stat")) ?? 0
        return live + max(0, processTicks - liveTicks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// utime + stime of a `stat` file's text, in clock ticks.
    private static func ticks(_ stat: String?) -> Double? {
        guard let stat, let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return user + system
    }

    /// The `KEY: N kB` fields of `/proc/PID/smaps_rollup`, in KiB.
    static func rollup(_ pid: pid_t) -> [String: Int] {
        let text = read("/proc/\(pid)/smaps_rollup") ?? ""
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[0].hasSuffix(":"), let value = Int(parts[1]) else { continue }
            fields[String(parts[0].dropLast())] = value
        }
        return fields
    }

    /// Rss per mapped object (file path, `[heap]`, `[stack]`, or `[anon]`), largest first, in KiB.
    static func mappings(_ pid: pid_t) -> [(name: String, rss: Int, anonymous: Int)] {
        let text = read("/proc/\(pid)/smaps") ?? ""
        var totals: [String: (Int, Int)] = [:]
        var current = "[anon]"
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = parts.first else { continue }
            if first.contains("-"), first.first?.isHexDigit == true, parts.count >= 5 {
                current = parts.count >= 6 ? parts[5...].joined(separator: " ") : "[anon]"
            } else if first == "Rss:", parts.count >= 2, let kib = Int(parts[1]) {
                totals[current, default: (0, 0)].0 += kib
            } else if first == "Anonymous:", parts.count >= 2, let kib = Int(parts[1]) {
                totals[current, default: (0, 0)].1 += kib
            }
        }
        return totals.map { ($0.key, $0.value.0, $0.value.1) }.sorted { $0.rss > $1.rss }
    }

    /// Whether `pid` is gone (or a zombie nobody reaped yet).
    static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = read("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}
