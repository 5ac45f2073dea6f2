import Foundation
import PackManifest
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

/// What a diff lists of a changed fragment: only figures that moved by a step a reviewer can use.
@Suite struct DiffFigureTests {
    static func entry(register: Double, pace: Double, length: Double, snr: Double) -> PackDiff.Entry {
        let fragment = Manifest.Fragment(
            token: "七", file: "normalized/七.wav", frames: 4410, durationMs: length, sha256: "f", loudnessPhon: 89.75,
            loudnessLUFS: -16, truePeakDBTP: -1.1, gainDB: 3, limiterReductionDB: 0, trimmedHeadMs: 0,
            trimmedTailMs: 0, headDBFS: -10, tailDBFS: -20, warnings: [],
            source: Manifest.Source(
                file: "raw-audio/七.wav", sha256: "s", size: 1, sampleRate: 44_100, channels: 1, format: "wav/pcm16",
                frames: 4410, durationMs: 100, loudnessLUFS: -20, truePeakDBTP: -5, noiseFloorDBFS: -80,
                clippedSamples: 0, channelDecision: "mono"),
            analysis: Manifest.Analysis(
                pitchMedianHz: register * 0.9, pitchRegisterHz: register, voicedFraction: 0.8, bandwidthHz: 8_000,
                centroidHz: 1_500, snrDB: snr, syllables: 1, voiceMs: pace))
        return PackDiff.Entry(
            fragment: fragment, location: URL(fileURLWithPath: "/nowhere"), verdict: "matches the voice",
            recordingProblems: "none", waveform: nil)
    }

    /// As much as a take exported again moves them by itself (real packs: register up to 1.2 semitones, median
    /// 0.15; pace up to 7 %; length up to 22 ms; noise mostly 50 dB or more under the voice) is not listed; a step further is.
    @Test func figuresAreListedWhenTheyMoveBeyondWhatAnExportMoves() {
        let before = Self.entry(register: 300, pace: 400, length: 350, snr: 95)
        let export = Self.entry(register: 300 * pow(2, 0.4 / 12), pace: 412, length: 357, snr: 84)
        #expect(PackDiff.figures(before, export).isEmpty)
        let another = Self.entry(register: 300 * pow(2, 1.0 / 12), pace: 440, length: 370, snr: 45)
        #expect(
            PackDiff.figures(before, another).map(\.name) == ["length", "register", "signal to noise", "pace"])
        // Noise that comes near hearing is listed even by a few dB.
        let noisy = (
            Self.entry(register: 300, pace: 400, length: 350, snr: 42),
            Self.entry(register: 300, pace: 400, length: 350, snr: 38)
        )
        #expect(PackDiff.figures(noisy.0, noisy.1).map(\.name) == ["signal to noise"])
    }
}
