import Glibc

/// Tying a child to the daemon: the kernel kills it (`PR_SET_PDEATHSIG`, `SIGKILL`) when the
/// daemon dies, however it dies (a crash, `kill -9`, the OOM killer), so a picker or chooser
/// never outlives the daemon that would read its answer.
///
/// Why a wrapper: the daemon spawns with `posix_spawn`, which has no attribute for the parent-death
/// signal, and a program such as `rofi` or `fuzzel` will not set it for itself. So the daemon spawns
/// its own binary as `openurld --tied-to PID PATH ARGV…`: that sets the signal, checks that its
/// parent is still `PID` (the daemon may have died before the call, and then nothing would ever
/// send it), and `execv`s the program, which keeps the setting (the kernel clears it only for
/// set-user-id programs). The signal goes when the *thread* that spawned the child ends, so a
/// tied child must be spawned from a thread that outlives it: the loop's, or the one waiting for it.
public enum ParentDeath {
    /// The hidden argument of `openurld` that makes it this wrapper.
    public static let flag = "--tied-to"

    /// `PR_SET_PDEATHSIG` from `<linux/prctl.h>`.
    private static let setDeathSignal: Int32 = 1

    /// The argv that runs `argv` (whose program is at `path`) tied to this process through the
    /// wrapper `executable` (this binary, `/proc/self/exe`).
    public static func tiedArgv(_ argv: [String], path: String, executable: String = "/proc/self/exe") -> (path: String, argv: [String]) {
        (executable, ["openurld", flag, String(Sys.processID()), path] + argv)
    }

    /// The wrapper's body: `arguments` are what follows `--tied-to` (`PID PATH ARGV…`). Never
    /// returns: it becomes the program, or exits 127 (the program cannot run) or 0 (the parent
    /// is already gone, so nobody waits for an answer).
    public static func runTied(_ arguments: [String]) -> Never {
        guard arguments.count >= 3, let parent = Int32(arguments[0]) else {
            StandardStream.error.write("openurld \(flag): usage: openurld \(flag) PID PATH ARGV0 [ARG…]\n")
            exit(2)
        }
        _ = ProcessControl.call(setDeathSignal, UInt(SIGKILL))
        // Set after the fork: a parent that died in between is not there to send the signal.
        guard getppid() == parent else { exit(0) }
        let path = arguments[1]
        let argv = Array(arguments.dropFirst(2))
        let cArgv = argv.map { strdup($0) } + [nil]
        execv(path, cArgv)
        let code = errno
        StandardStream.error.write("openurld \(flag): cannot run \(path): \(String(cString: strerror(code)))\n")
        exit(127)
    }
}

/// `prctl`, which is variadic in C and so cannot be called from Swift: found at run time and
/// called with the five integer arguments the kernel reads (integer arguments pass alike either
/// way on x86-64 and AArch64 Linux).
enum ProcessControl {
    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    private static let function: Prctl? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl")
        .map { unsafeBitCast($0, to: Prctl.self) }

    /// `prctl(option, argument, 0, 0, 0)`; -1 when it fails or cannot be found.
    static func call(_ option: Int32, _ argument: UInt) -> Int32 { function?(option, argument, 0, 0, 0) ?? -1 }
}
