import Checksum
import Foundation
import PackManifest
import Splicer
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

/// New joins change how every amount sounds though no fragment moves: the diff plays them all, each side with
/// its own joins.
@Suite struct DiffJoinsTests {
    @Test func otherJoinsPlayEveryAmountBothWays() throws {
        let pack = try coveredPack()
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("base-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: pack.root, to: base)
        defer { try? FileManager.default.removeItem(at: base) }
        pack.settings.splice.gapMs = 40
        _ = try pack.build()

        let diff = try PackDiff.make(
            paths: pack.paths, settings: pack.settings,
            base: PackBase.open(base.path, paths: pack.paths, settingsFile: nil, currentFolder: pack.root))
        #expect(diff.changed.isEmpty && diff.added.isEmpty && diff.removed.isEmpty)
        #expect(diff.settings.map(\.key).contains("splice.gapMs"), "\(diff.settings.map(\.key))")
        let soundPack = try SoundPack(manifestAt: pack.paths.manifest, digest: { SHA256.hex(of: $0) })
        let plans = UtterancePlan.plan(settings: pack.settings, pack: soundPack, longest: nil)
        // Every amount the pack's audit plays is there (the base, read without its settings file, plans more).
        let listed = Set(diff.utterances.map { "\($0.styleForm) \($0.template ?? "") \($0.amount)" })
        #expect(!plans.isEmpty)
        for plan in plans {
            #expect(listed.contains("\(plan.style.name)/\(plan.form.name) \(plan.template ?? "") \(plan.amount.plain)"))
        }
        var compared = 0
        for utterance in diff.utterances {
            guard let before = utterance.before.spliced, let after = utterance.after.spliced else { continue }
            // Each join: a 5 ms crossfade before, a 40 ms gap after.
            let joins = Double(utterance.tokens.count - 1)
            #expect(abs(after.durationMs - before.durationMs - joins * 45) <= joins * 0.1, "\(utterance.text)")
            compared += 1
        }
        #expect(compared >= plans.count, "\(compared) of \(plans.count)")
    }
}
