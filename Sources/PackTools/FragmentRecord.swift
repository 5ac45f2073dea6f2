import AudioPipeline
import PackManifest
import SpeechText
import VoicePack

/// A built fragment as the manifest records it, with the warnings a sound designer should hear about: what the
/// build did (a channel taken, deep limiting, a target out of reach) and, by `check`'s rules, what is wrong with
/// how the recording was made. A recording that merely starts within the trim's pre-roll is not among them: 46
/// fragments of 22 real packs did, 43 of them starting 38–90 dB under their peaks, not cut.
enum FragmentRecord {
    /// A look-ahead limiter taking a few dB off a syllable's peaks is not heard; from this depth its
    /// transients flatten, and a designer should listen.
    static let audibleLimitingDB = 6.0

    /// A warning the manifest notes of a fragment, with its kind (in the category `sound`).
    struct Warning {
        let kind: Diagnostic.Kind
        let text: String
    }

    /// The fragment as the manifest records it, and its warnings as `build` says them.
    static func make(
        token: String, file: String, sha256: String, source: SourceFile, sourceSHA256: String, report: FragmentReport,
        settings: Settings
    ) -> (fragment: Manifest.Fragment, warnings: [Warning]) {
        let built = warnings(report, settings: settings)
        var fragment = Manifest.Fragment(
            token: token, file: file, frames: report.frames, durationMs: report.durationMs, sha256: sha256,
            loudnessPhon: report.loudnessPhon, loudnessLUFS: report.loudnessLUFS, truePeakDBTP: report.truePeakDBTP,
            gainDB: report.loudness.gainDB,
            limiterReductionDB: report.loudness.limiterReductionDB, trimmedHeadMs: report.trim.headMs,
            trimmedTailMs: report.trim.tailMs, headDBFS: report.edgeLevels.headDBFS,
            tailDBFS: report.edgeLevels.tailDBFS, warnings: [],
            source: Manifest.Source(
                file: source.path, sha256: sourceSHA256, size: source.status.size, sampleRate: report.source.sampleRate,
                channels: report.source.channels, format: report.source.format.description,
                frames: report.source.frames,
                durationMs: report.sourceDurationMs, loudnessLUFS: report.loudness.inputLUFS,
                truePeakDBTP: report.loudness.inputTruePeakDBTP, noiseFloorDBFS: report.trim.noiseFloorDBFS,
                startLevelDB: report.trim.startLevelDB, endLevelDB: report.trim.endLevelDB,
                clippedSamples: report.sourceClippedSamples, channelDecision: report.channelDecision.description,
                readAsMonoSampleRate: report.channelDecision.alternateSamplesRate,
                straySound: report.trim.stray.map {
                    Manifest.StraySound(
                        edge: $0.edge.rawValue, pauseMs: $0.pauseMs, lengthMs: $0.lengthMs, levelDB: $0.levelDB)
                }),
            analysis: analysis(report.analysis, token: token))
        // How the recording was made — its voice cut, a sound apart from it, noise that is heard, clipping — by the
        // rules `check` reports.
        let all =
            built
            + PackChecker.recordingWarnings(fragment).map { Warning(kind: $0.kind, text: "\($0.message): \($0.fix)") }
        fragment.warnings = all.map(\.text)
        return (fragment, all)
    }

    static func analysis(_ voice: VoiceAnalysis, token: String) -> Manifest.Analysis {
        let pitch = keepsPitch(voice, token: token) ? voice : nil
        return Manifest.Analysis(
            pitchMedianHz: pitch?.pitchMedianHz, pitchRegisterHz: pitch?.pitchRegisterHz,
            pitchStartHz: voice.pitchStartHz, pitchEndHz: voice.pitchEndHz,
            voicedFraction: voice.voicedFraction, voiceOnsetMs: voice.voiceOnsetMs,
            onsetHighBandDB: voice.onsetHighBandDB, bandwidthHz: voice.bandwidthHz,
            centroidHz: voice.centroidHz,
            snrDB: voice.snrDB, syllables: Manifest.Analysis.syllables(in: token), voiceMs: voice.voiceMs,
            vowelMFCC: voice.vowelEnvelope)
    }

    /// Whether the pitch read of `token`'s recording shows where its voice reaches: read on
    /// `lowTonePitchFrames` frames or more, or on fewer (`VoiceAnalysis.minimumVoicedFrames` at least) for a
    /// single syllable whose tone starts high (first, fourth). A real fourth tone falls so fast that YIN is unsure
    /// of its middle (houyinyu's 二: 222 to 133 Hz in 170 ms, six of its 26 frames sure, all but one at its start),
    /// and four of twenty-one packs real apps shipped had only one to three of their fourth tones read before (two
    /// only their 亿): the rest could not be compared. Its sure frames are its high start, where its register is;
    /// where it ends they do not show (that 二 read 222 to 209 Hz): its start and end are read as
    /// `VoiceAnalysis.Course` says. A second or third tone read on so few frames may be read only at its low start
    /// or in its creak (houyinyu's 九 at 96 Hz over a room's noise, 8 semitones under its tone's), and a phrase's few
    /// frames tell little of its several syllables.
    static func keepsPitch(_ voice: VoiceAnalysis, token: String) -> Bool {
        guard voice.pitchFrames < lowTonePitchFrames else { return true }
        guard Manifest.Analysis.syllables(in: token) == 1 else { return false }
        return [.high, .falling].contains(Tone.citation(of: Token(token)))
    }

    /// 116 ms of frames at 44.1 kHz.
    static let lowTonePitchFrames = 10

    /// What the build did that a designer should hear: a channel taken, deep limiting, a target out of reach.
    static func warnings(_ report: FragmentReport, settings: Settings) -> [Warning] {
        var warnings: [Warning] = []
        if case .picked = report.channelDecision {
            warnings.append(Warning(kind: .channels, text: report.channelDecision.description))
        }
        if report.source.channels > 2 {
            warnings.append(
                Warning(
                    kind: .channels,
                    text: "\(report.source.channels) channels: a voice is recorded in mono or stereo; check the export")
            )
        }
        if report.loudness.limiterReductionDB >= audibleLimitingDB {
            warnings.append(
                Warning(
                    kind: .limited,
                    text: "peaks limited by \(format(report.loudness.limiterReductionDB)) dB to reach the target"))
        }
        let off = report.loudnessPhon - settings.loudness.targetPhon
        if abs(off) > settings.loudness.toleranceLU {
            warnings.append(
                Warning(
                    kind: .loudness,
                    text:
                        "heard at \(format(report.loudnessPhon)) phon, \(format(abs(off))) phon from the target, at \(format(settings.loudness.maximumLimitingDB)) dB of limiting"
                ))
        }
        return warnings
    }

    static func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}
