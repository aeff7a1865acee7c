import Glibc
import Testing
import Platform

@Suite struct EnvironmentTests {
    @Test func seesVariablesSetInTheProcess() {
        setenv("PLATFORM_TEST_VARIABLE", "a=b c", 1)
        #expect(Environment.current()["PLATFORM_TEST_VARIABLE"] == "a=b c")
        #expect(Environment.value("PLATFORM_TEST_VARIABLE") == "a=b c")
        unsetenv("PLATFORM_TEST_VARIABLE")
        #expect(Environment.current()["PLATFORM_TEST_VARIABLE"] == nil)
        #expect(Environment.value("PLATFORM_TEST_VARIABLE") == nil)
        #expect(Environment.processID == getpid())
    }

    @Test(arguments: [(["HOME": "/home/x"], "/home/x"), (["HOME": ""], nil), ([:], nil)] as [([String: String], String?)])
    func homeDirectoryPrefersHome(_ environment: [String: String], _ expected: String?) {
        let home = Environment.homeDirectory(environment)
        if let expected { #expect(home == expected) } else {
            #expect(home == String(cString: getpwuid(getuid())!.pointee.pw_dir))
        }
    }
}

@Suite struct ClockTests {
    @Test func wallClockAgreesWithTime() {
        let now = WallClock.now()
        #expect(abs(now.seconds - Int64(time(nil))) <= 1)
        #expect((0..<1_000_000_000).contains(now.nanoseconds))
    }

    @Test func monotonicClockAndPauseMoveForward() {
        let before = MonotonicClock.nanoseconds()
        pause(microseconds: 2_000)
        #expect(MonotonicClock.nanoseconds() - before >= 2_000_000)
        let deadline = Deadline(after: 0.001)
        pause(seconds: 0.002)
        #expect(deadline.hasPassed)
        #expect(!Deadline(after: 60).hasPassed)
    }

    /// Timeouts come from config and callers: none of these may trap.
    @Test(arguments: [Double.infinity, 1e300, Double.nan, -Double.infinity, -5])
    func extremeTimeoutsAreClamped(_ seconds: Double) {
        let deadline = Deadline(after: seconds)
        #expect(deadline.hasPassed == !(seconds > 0))
        pause(seconds: seconds > 0 ? 0 : seconds)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_780_000_000, "2026-05-28T20:26:40Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
    ])
    func utcCalendarTime(_ seconds: Int64, _ iso: String) {
        #expect(CalendarTime.utc(seconds).iso8601 == iso)
    }

    @Test func localCalendarTimeFollowsTZ() {
        let saved = Environment.value("TZ")
        defer { if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }; tzset() }
        setenv("TZ", "UTC-05:30", 1)
        tzset()
        let local = CalendarTime.local(0)
        #expect(local.iso8601 == "1970-01-01T05:30:00+05:30")
        #expect(local.timeText == "05:30:00" && local.dateText == "1970-01-01")
        #expect(local.isSameDay(as: CalendarTime.local(3600)))
        #expect(!local.isSameDay(as: CalendarTime.local(86_400)))
    }
}

@Suite struct ConcurrencyTests {
    @Test func threadsRunAndTheLockSerialises() async {
        final class Counter: @unchecked Sendable { var value = 0 }
        let lock = Lock()
        let counter = Counter()
        let done = Lock()
        final class Flag: @unchecked Sendable { var finished = 0 }
        let flag = Flag()
        for _ in 0..<4 {
            #expect(BackgroundThread.start(name: "platform-test") {
                for _ in 0..<10_000 { lock.withLock { counter.value += 1 } }
                done.withLock { flag.finished += 1 }
            })
        }
        while done.withLock({ flag.finished }) < 4 { pause(microseconds: 1_000) }
        #expect(counter.value == 40_000)
    }
}

@Suite struct TextAndPathTests {
    @Test(arguments: [
        ("  a b \t\n", "a b"), ("", ""), (" \r\n\u{0B}\u{0C}", ""), ("x", "x"), ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"),
    ])
    func trimsASCIIWhitespaceOnly(_ input: String, _ expected: String) {
        #expect(input.trimmingASCIIWhitespace() == expected)
    }

    @Test(arguments: [(" \tFirefox \t", "Firefox"), ("\nx\n", "\nx\n"), ("   ", "")])
    func trimsSpacesAndTabs(_ input: String, _ expected: String) {
        #expect(input.trimmingSpacesAndTabs() == expected)
    }

    @Test(arguments: [("a,,b,", ["a", "", "b", ""]), ("", [""]), ("abc", ["abc"])])
    func fieldsKeepEmptyParts(_ input: String, _ expected: [String]) {
        #expect(input.fields(separatedBy: ",") == expected)
    }

    @Test(arguments: [
        ("a\r\nb", "\n", "\\n", "a\r\\nb"),
        ("100%\u{301}", "%", "%%", "100%%\u{301}"),
        ("org.example.App", ".", "/", "org/example/App"),
        ("", "x", "y", ""),
        ("\\t", "\\", "\\\\", "\\\\t"),
    ] as [(String, String, String, String)])
    func replacesInsideGraphemes(_ input: String, _ target: String, _ replacement: String, _ expected: String) {
        #expect(input.replacingEvery(target, with: replacement) == expected)
    }

    @Test(arguments: [(7, 3, "007"), (2026, 4, "2026"), (12345, 2, "12345"), (-5, 3, "-05"), (0, 2, "00")])
    func zeroPads(_ value: Int, _ width: Int, _ expected: String) {
        #expect(Text.zeroPadded(value, width: width) == expected)
    }

    /// The cases NSString's lastPathComponent and deletingLastPathComponent document.
    @Test(arguments: [
        ("/tmp/scratch.tiff", "scratch.tiff", "/tmp"),
        ("/tmp/scratch", "scratch", "/tmp"),
        ("/tmp/", "tmp", "/"),
        ("/tmp", "tmp", "/"),
        ("scratch///", "scratch", ""),
        ("a/b", "b", "a"),
        ("/", "/", "/"),
        ("", "", ""),
    ])
    func pathComponents(_ path: String, _ last: String, _ parent: String) {
        #expect(Path.lastComponent(path) == last)
        #expect(Path.parent(path) == parent)
    }

    @Test(arguments: [("/a", "b", "/a/b"), ("/a/", "b", "/a/b"), ("", "b", "b"), ("/", "b", "/b")])
    func joins(_ base: String, _ component: String, _ expected: String) {
        #expect(Path.join(base, component) == expected)
    }

    @Test(arguments: [("rel", "/d/link", "/d/rel"), ("/abs", "/d/link", "/abs"), ("../x", "/d/e/link", "/d/e/../x")])
    func resolvesLinkTargets(_ target: String, _ link: String, _ expected: String) {
        #expect(Path.resolving(target, besides: link) == expected)
    }
}
