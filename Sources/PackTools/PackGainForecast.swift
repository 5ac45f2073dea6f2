import AudioPipeline
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// The pack gain a pack's first build starts at, forecast from its recordings before any fragment is made.
///
/// With no gain recorded, a voice unlike the stand-ins was built at 0, measured (`PackCalibration`), and built
/// again at its gain: 1.55–1.76× the time of one pass. The forecast splices the same amounts from the prepared
/// recordings instead, each raised by the gain its fit at 0 starts from (the hearing model's quick search; no
/// limiter, no dither), and takes the gain `PackCalibration` would. The pass builds at it (a fit at 0 starts from
/// that search's result, where its own search would stop; one at another gain searches as it always did), and the
/// calibration then measures the built pack as before: a forecast that fell short costs the pass it meant to save,
/// never a wrong level.
struct PackGainForecast {
    /// What the amounts spliced from the recordings measured at the settings' gain, and the gain they call for.
    let calibration: PackCalibration

    /// The forecast for the fragments `work` will build, nil when none of the amounts the audit plays can be
    /// spliced from them, or a recording they need cannot be prepared (the pass says why).
    init?(
        _ work: [PackBuilder.Work], settings: Settings, prepared: PreparedRecordings, paths: PackPaths, jobs: Int
    ) {
        let byToken = Dictionary(work.map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first })
        let available = Set(byToken.keys)
        let playable = UtterancePlan.plan(settings: settings, available: available, longest: nil)
            .filter(\.missing.isEmpty)
        // Each token the amounts say, and the recording that plays it (伍 played by 五's).
        let aliases = AliasResolver(settings.aliases)
        let playerOf = Set(playable.flatMap(\.tokens)).reduce(into: [Token: Token]()) { players, token in
            players[token] = aliases.player(of: token, hasFragment: available.contains)
        }
        let pipeline = FragmentPipeline(settings: settings)
        let needed = Set(playerOf.values).compactMap { byToken[$0] }
        guard !playable.isEmpty, let raised = Self.raised(needed, pipeline, prepared, paths, jobs) else { return nil }

        let pieces = playerOf.mapValues { raised[$0]! }
        let rate = settings.format.sampleRate
        let joins = Splicer.joinFrames(
            gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs, sampleRate: rate)
        let measured = PackCalibration.measure(playable, jobs: jobs, playedBy: { playerOf[$0]?.text }) { tokens in
            let samples = Splicer.join(
                tokens.map { pieces[$0]! }, gap: joins.gap, crossfade: joins.crossfade, sampleFormat: .float32)
            return Signal(samples: samples, sampleRate: rate)
        }
        guard let calibration = PackCalibration(measured: measured, settings: settings) else { return nil }
        self.calibration = calibration
    }

    /// The recordings `work` names, prepared (and kept for the pass) and raised by the gain their fit starts from
    /// (kept for a fit at this target); nil when one cannot be prepared.
    static func raised(
        _ work: [PackBuilder.Work], _ pipeline: FragmentPipeline, _ prepared: PreparedRecordings, _ paths: PackPaths,
        _ jobs: Int
    ) -> [Token: [Float]]? {
        let targetPhon = pipeline.normalize.targetPhon
        let raised = ParallelWork.map(count: work.count, jobs: jobs) { index -> [Float]? in
            let (job, sha256) = (work[index].job, work[index].sourceSHA256)
            guard
                let measured = try? job.prepare(pipeline, paths: paths, sourceSHA256: sha256, prepared: prepared)
                    .measured
            else { return nil }
            let source = job.source
            let gain = pipeline.normalize.searchedGain(measured)
            prepared.keep(searchedGain: gain, path: source.fullPath, sha256: sha256, targetPhon: targetPhon)
            return measured.raised(byDB: gain).samples
        }
        guard raised.allSatisfy({ $0 != nil }) else { return nil }
        return Dictionary(uniqueKeysWithValues: zip(work.map(\.token), raised.map { $0! }))
    }

    /// One line for the build's summary, when the gain is not the settings'.
    var said: String? {
        guard calibration.gainDB != calibration.builtGainDB else { return nil }
        return calibration.said(measured: "the amounts spliced from the recordings", built: "built")
    }
}
