// Clocks, statistics and figure formatting shared by the benchmarks, so every bench measures
// and prints the same way. Over Glibc, not Foundation: bench-routing links no Foundation.
#if canImport(Glibc)
import Glibc
#endif

/// Monotonic seconds (CLOCK_MONOTONIC), for differences only.
public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Monotonic nanoseconds (CLOCK_MONOTONIC), for timings too short for a Double's seconds.
public func nanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The middle sample (the upper one of an even count); NaN for no samples.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// The 90th-percentile sample (nearest rank, rounded down); NaN for no samples.
public func p90(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
}

/// The best (shortest) wall time of `runs` calls of `body`, in seconds: the run least disturbed
/// by the rest of the machine.
public func bestTime(runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = now()
        body()
        best = min(best, now() - start)
    }
    return best
}

/// Items per second of `round` (which does `perRound` items a call): the best of `windows`
/// windows of `seconds` each. This machine is a VM whose neighbours take the CPU in turns: one
/// second-long window gave the same build anywhere from 0.6× to 1× its rate, several short
/// ones find a quiet stretch.
public func bestRate(windows: Int = 10, seconds: Double = 0.1, perRound: Int, _ round: () -> Void) -> Double {
    var best = 0.0
    for _ in 0..<windows {
        var done = 0
        let start = now()
        while now() - start < seconds {
            round()
            done += perRound
        }
        best = max(best, Double(done) / (now() - start))
    }
    return best
}

/// `value` with `digits` decimals, as printf's `%.Nf` writes it.
public func fixed(_ value: Double, _ digits: Int = 2) -> String {
    formatted("%.\(digits)f", value)
}

/// `format` filled in by C's vsnprintf: printf's padding and rounding without Foundation's
/// `String(format:)`.
public func formatted(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 256)
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        guard needed >= buffer.count else { return String(cString: buffer) }
        buffer = [CChar](repeating: 0, count: needed + 1)
        return withVaList(arguments) { again in
            _ = vsnprintf(&buffer, buffer.count, format, again)
            return String(cString: buffer)
        }
    }
}

/// Seconds written as milliseconds in one bench's column format (`%<width>.<decimals>f ms`);
/// called like a function: `let ms = Milliseconds(width: 7, decimals: 1); ms(0.0123)`.
public struct Milliseconds: Sendable {
    /// The minimum width of the number, padded with spaces on the left (0: none).
    public let width: Int
    /// Decimals after the point.
    public let decimals: Int

    /// A format of `decimals` decimals, the number padded to `width`.
    public init(width: Int = 0, decimals: Int) {
        self.width = width
        self.decimals = decimals
    }

    /// `seconds` as "12.3 ms" in this format.
    public func callAsFunction(_ seconds: Double) -> String {
        formatted("%\(width == 0 ? "" : String(width)).\(decimals)f ms", seconds * 1000)
    }
}
