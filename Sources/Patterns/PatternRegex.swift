import CPCRE2
import Platform
import Synchronization

/// A compiled PCRE2 regular expression (JIT-compiled where available), safe to share.
///
/// Compiling checks the pattern (errors are exact at load time); the JIT compilation, which
/// costs several times more, waits for the first match, so that a config or rule file with
/// hundreds of patterns loads without compiling machine code for the ones no link reaches.
///
/// PCRE2 is used instead of Swift `Regex` because rule matching runs on every click and the
/// benchmark showed Swift `Regex` far slower (see README, "Performance").
public final class PatternRegex: @unchecked Sendable {
    /// The pattern as written.
    public let pattern: String
    private let code: OpaquePointer
    /// 0: not JIT-compiled yet; 1: JIT-compiled; 2: the JIT is unavailable (interpreted).
    private let jitState = Atomic<UInt8>(0)
    /// Held while JIT-compiling, so two threads never compile the same code at once.
    private let jitLock = Lock()
    /// One match block kept for reuse: allocating one per match cost about as much as the
    /// match itself. A thread that finds it in use allocates its own.
    private let spareData: OpaquePointer?
    private let spareLock = Lock()

    /// Why a pattern did not compile, with the 0-based offset in the pattern.
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        /// PCRE2's message.
        public var message: String
        /// The UTF-8 offset in the pattern where compilation stopped.
        public var offset: Int
        /// The message with its offset.
        public var description: String { "\(message) at offset \(offset)" }
    }

    /// Compiles `pattern` (UTF mode; `caseInsensitive` adds `(?i)`).
    public init(_ pattern: String, caseInsensitive: Bool = false) throws(CompileError) {
        self.pattern = pattern
        var errorCode: Int32 = 0
        var errorOffset = 0
        var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_MATCH_INVALID_UTF)
        if caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
        let compiled: OpaquePointer? = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) {
                pcre2_compile_8($0.baseAddress, $0.count - 1, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            var message = [UInt8](repeating: 0, count: 256)
            let length = pcre2_get_error_message_8(errorCode, &message, message.count)
            throw CompileError(
                message: String(decoding: message.prefix(max(0, Int(length))), as: UTF8.self),
                offset: errorOffset)
        }
        code = compiled
        spareData = pcre2_match_data_create_from_pattern_8(code, nil)
    }

    deinit {
        if let spareData { pcre2_match_data_free_8(spareData) }
        pcre2_code_free_8(code)
    }

    /// True once the pattern is JIT-compiled (compiling it now if this is its first match).
    private func jitted() -> Bool {
        switch jitState.load(ordering: .acquiring) {
        case 1: return true
        case 2: return false
        default:
            return jitLock.withLock {
                let state = jitState.load(ordering: .acquiring)
                if state != 0 { return state == 1 }
                let compiled = pcre2_jit_compile_8(code, UInt32(PCRE2_JIT_COMPLETE)) == 0
                jitState.store(compiled ? 1 : 2, ordering: .releasing)
                return compiled
            }
        }
    }

    /// JIT-compiles the pattern now rather than on its first match (for comparing with the
    /// eager path in benchmarks); false when the JIT is unavailable.
    @discardableResult
    public func jitCompileNow() -> Bool { jitted() }

    /// True when the pattern has been JIT-compiled (it is on its first match).
    public var isJITCompiled: Bool { jitState.load(ordering: .acquiring) == 1 }

    /// Runs `body` with a match block: the spare one when free, else a fresh one.
    private func withMatchData<T>(_ body: (OpaquePointer) -> T) -> T? {
        if let spareData, let result = spareLock.withLockIfAvailable({ body(spareData) }) {
            return result
        }
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else { return nil }
        defer { pcre2_match_data_free_8(data) }
        return body(data)
    }

    private func match(_ subject: UnsafePointer<UInt8>, _ length: Int, _ data: OpaquePointer) -> Int32 {
        jitted() ? pcre2_jit_match_8(code, subject, length, 0, 0, data, nil) : pcre2_match_8(code, subject, length, 0, 0, data, nil)
    }

    /// True when the pattern matches anywhere in `subject`.
    public func matches(_ subject: String) -> Bool {
        var subject = subject
        return subject.withUTF8 { matches(utf8: $0) }
    }

    /// True when the pattern matches anywhere in the UTF-8 bytes.
    public func matches(utf8 subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let empty: UInt8 = 0
        return withUnsafePointer(to: empty) { emptyPointer in
            withMatchData { match(subject.baseAddress ?? emptyPointer, subject.count, $0) >= 0 } ?? false
        }
    }

    /// The first match's capture groups (index 0 is the whole match), or nil without a match.
    /// A group that did not take part is nil.
    public func firstMatch(in subject: String) -> [String?]? {
        // JIT and the spare match block, as `matches`: most calls find no match, and a fresh
        // block plus a copy of the subject cost more than the match.
        var subject = subject
        return subject.withUTF8 { bytes -> [String?]? in
            let empty: UInt8 = 0
            return withUnsafePointer(to: empty) { emptyPointer -> [String?]? in
                withMatchData { data -> [String?]? in
                    guard match(bytes.baseAddress ?? emptyPointer, bytes.count, data) >= 0 else { return nil }
                    let pairs = Int(pcre2_get_ovector_count_8(data))
                    guard let vector = pcre2_get_ovector_pointer_8(data) else { return nil }
                    return (0..<pairs).map { group in
                        let start = vector[2 * group], end = vector[2 * group + 1]
                        guard start != pcre2Unset, end != pcre2Unset, start <= end, end <= bytes.count else { return nil }
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    }
                } ?? nil
            }
        }
    }

    /// Replaces the first match (or every match with `global`) with `replacement`, in which
    /// `$1`, `${name}` and `$$` refer to groups as in PCRE2's extended substitution syntax.
    /// Returns nil when nothing matched; throws when the replacement is malformed.
    public func replacing(in subject: String, with replacement: String, global: Bool = false) throws(CompileError) -> String? {
        let bytes = Array(subject.utf8)
        let replacementBytes = Array(replacement.utf8)
        var options = UInt32(PCRE2_SUBSTITUTE_OVERFLOW_LENGTH) | UInt32(PCRE2_SUBSTITUTE_EXTENDED)
        if global { options |= UInt32(PCRE2_SUBSTITUTE_GLOBAL) }
        _ = jitted()  // pcre2_substitute uses the JIT code once it exists
        var capacity = bytes.count + replacementBytes.count + 64
        for _ in 0..<2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var length = capacity
            let empty: UInt8 = 0
            let status = withUnsafePointer(to: empty) { emptyPointer in
                bytes.withUnsafeBufferPointer { s in
                    replacementBytes.withUnsafeBufferPointer { r in
                        pcre2_substitute_8(
                            code, s.baseAddress ?? emptyPointer, s.count, 0, options, nil, nil,
                            r.baseAddress ?? emptyPointer, r.count, &output, &length)
                    }
                }
            }
            if status == 0 { return nil }
            if status > 0 { return String(decoding: output.prefix(length), as: UTF8.self) }
            if status == PCRE2_ERROR_NOMEMORY { capacity = length + 1; continue }
            var message = [UInt8](repeating: 0, count: 256)
            let messageLength = pcre2_get_error_message_8(status, &message, message.count)
            throw CompileError(message: String(decoding: message.prefix(max(0, Int(messageLength))), as: UTF8.self), offset: 0)
        }
        return nil
    }
}

/// PCRE2_UNSET, `~(PCRE2_SIZE)0`: a macro Swift does not import; `size_t` arrives as `Int`.
private let pcre2Unset = -1
