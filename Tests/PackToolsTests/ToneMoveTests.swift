import Foundation
import PackManifest
import SpeechText
import Testing

@testable import PackTools

/// The tone rule's bounds against what the twenty-one real packs' syllables do (BENCHMARKS.md).
@Suite struct ToneMoveTests {
    static func move(semitones: Double) throws -> ToneMove {
        let analysis = Manifest.Analysis(
            pitchMedianHz: 220, pitchRegisterHz: 230, pitchStartHz: 220, pitchEndHz: 220 * pow(2, semitones / 12),
            voicedFraction: 0.8, bandwidthHz: 8_000, centroidHz: 1_500, snrDB: 60, syllables: 1, voiceMs: 300)
        return try #require(ToneMove(analysis))
    }

    /// The most each tone did on the real packs is said to be in its tone; a little past the bounds is not.
    @Test func theRealPacksMostIsNoFindingAndPastTheBoundIsOne() throws {
        let kept: [(Tone, Double)] = [(.high, 2.8), (.high, -1.1), (.rising, -2.6), (.falling, -1.4), (.low, 8.7)]
        for (tone, semitones) in kept {
            #expect(try Self.move(semitones: semitones).against(tone) == nil, "\(tone) \(semitones)")
        }
        let against: [(Tone, Double, String)] = [
            (.high, 5.5, "rises 5.5 semitones"), (.high, -5.5, "falls 5.5 semitones"),
            (.rising, -4.5, "falls 4.5 semitones"), (.falling, 1.5, "rises 1.5 semitones"),
        ]
        for (tone, semitones, said) in against {
            #expect(try Self.move(semitones: semitones).against(tone) == said, "\(tone) \(semitones)")
        }
    }
}
