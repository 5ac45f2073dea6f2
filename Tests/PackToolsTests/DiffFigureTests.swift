import Foundation
import PackManifest
import Testing

@testable import PackTools

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
