import Foundation
import SpeechText
import TestSupport
import Testing

@testable import PackTools

/// `assets diff` tells a take exported again from a new recording: whatever the export did to the take, it is
/// the same; another take of the same syllable is not.
@Suite struct SameTakeTests {
    /// A syllable like 七: a hiss (white noise differenced, as a fricative's spectrum rises) and then a vowel on
    /// the high level tone whose formants reach 3 kHz, where the waveform turns over every 15 samples.
    static func take(highHz: Double = 220, hissSeed: UInt64 = 7) -> [Float] {
        let white = Signals.noise(rms: 0.05, count: 4_410, seed: hissSeed)
        let hiss = zip(white, [0] + white.dropLast()).map { ($0 - $1) / Float(2.0.squareRoot()) }
        return hiss + TonalVoice.syllable(.high, highHz: highHz, formantScale: 1.15)
    }

    /// Compared with `take()`; a plain Bool, so that a failure does not print the samples.
    static func same(_ other: [Float], _ take: [Float] = take()) -> Bool {
        SameTake.compare(take, other, sampleRate: 44_100)
    }

    @Test func aTakeExportedAgainIsTheSameTake() {
        // Found again 12 samples later and 6 dB quieter: between two lags a search every eighth would try.
        let later = Self.same([Float](repeating: 0, count: 12) + Self.take().map { $0 / 2 })
        #expect(later)
        // Its hiss rebuilt as other noise of the same spectrum, as a lossy coder does, and cut 25 ms earlier.
        var recoded = Self.take(hissSeed: 8)
        recoded.insert(contentsOf: Signals.noise(rms: 1e-4, count: 1_102, seed: 3), at: 0)
        let (forth, back) = (Self.same(recoded), Self.same(Self.take(), recoded))
        #expect(forth && back)
    }

    @Test func anotherTakeIsNot() {
        let take = Self.take()
        // The same syllable, a sixth of a semitone higher, its hiss its own.
        let higher = Self.same(Self.take(highHz: 222, hissSeed: 8), take)
        // Another syllable after the same hiss.
        let falling = Self.same(Array(take.prefix(4_410)) + TonalVoice.syllable(.falling, formantScale: 1.15), take)
        // Far longer (110 ms): another cut, or another recording.
        let longer = Self.same(take + [Float](repeating: 0, count: 4_851), take)
        let empty = Self.same([], take)
        #expect(!higher && !falling && !longer && !empty, "\([higher, falling, longer, empty])")
    }
}
