import AudioPipeline
import Foundation
import TestSupport
import Testing

@testable import PackTools

/// What a build keeps of the recordings it prepared, for a pass that builds them again at another pack gain.
@Suite struct PreparedRecordingsTests {
    /// A pack holding one delivered recording (kept while the test holds it), the recording's path, and what
    /// prepares it (counting each time it does).
    static func recording(counting made: Counter = Counter()) throws -> (
        pack: TestPack, path: String, make: @Sendable () throws(AudioError) -> PreparedRecording
    ) {
        let pack = TestPack()
        _ = try pack.deliver("digit_1.wav")
        let pipeline = FragmentPipeline(settings: pack.settings)
        let path = pack.url("raw-audio/digit_1.wav").path
        return (
            pack, path,
            { () throws(AudioError) -> PreparedRecording in
                _ = made.increment()
                return try pipeline.prepare(sourcePath: path, name: "raw-audio/digit_1.wav", syllables: 1)
            }
        )
    }

    @Test func aRecordingIsPreparedOnceWhileTheBudgetHoldsIt() throws {
        let made = Counter()
        let (pack, path, make) = try Self.recording(counting: made)
        defer { withExtendedLifetime(pack) {} }
        let kept = PreparedRecordings()
        let first = try kept.prepared(path: path, sha256: "a", make: make)
        _ = try kept.prepared(path: path, sha256: "a", make: make)
        #expect(made.increment() == 2, "the second ask is answered from the first")
        #expect(first.approximateBytes > 100_000, "a syllable's samples and hearing model: \(first.approximateBytes)")

        // Other bytes at the same path are another recording.
        _ = try kept.prepared(path: path, sha256: "b", make: make)
        #expect(made.increment() == 4 && kept.count == 2)

        // Past the budget, nothing is kept: each ask prepares again.
        let none = PreparedRecordings(budgetBytes: first.approximateBytes - 1)
        _ = try none.prepared(path: path, sha256: "a", make: make)
        _ = try none.prepared(path: path, sha256: "a", make: make)
        #expect(made.increment() == 7 && none.count == 0)
    }

    /// The build's two workers ask at once; every answer is a recording, and each is kept once.
    @Test func workersShareWhatIsKept() throws {
        let (pack, path, make) = try Self.recording()
        defer { withExtendedLifetime(pack) {} }
        let kept = PreparedRecordings()
        let frames = ParallelWork.map(count: 8, jobs: 2) { index in
            try? kept.prepared(path: path, sha256: index.isMultiple(of: 2) ? "a" : "b", make: make).approximateBytes
        }
        #expect(frames.allSatisfy { $0 != nil } && Set(frames).count == 1 && kept.count == 2)
    }
}
