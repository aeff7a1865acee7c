@testable import LinkSafety
import Testing

/// The ASCII skeletons written into Skeleton (so that ASCII hosts never load ICU) are ICU's own.
@Suite struct SkeletonTableTests {
    @Test func theWrittenASCIITableIsICUs() {
        let written = Skeleton.asciiSkeletons, icu = Skeleton.asciiSkeletonsFromICU()
        #expect(written.count == 128)
        for value in 0..<128 where written[value] != icu[value] {
            Issue.record("ASCII \(value): written \(written[value].unicodeScalars.map(\.value)), ICU \(icu[value].unicodeScalars.map(\.value))")
        }
    }
}
