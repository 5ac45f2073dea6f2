import AudioPipeline
import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// The pack's level, set by measuring what it makes. Fragments are made equal in heard loudness (ISO 532-1);
/// how loud their splices then measure by BS.1770 depends on the voice — a pace, a timbre — so after a build
/// the amounts the audit plays are spliced from the pack and measured (libebur128), and one gain for the
/// whole pack brings their median to `loudness.targetLUFS`. It moves in 0.5 dB steps, and only when the
/// median is a step or more off, so refreshing a few recordings rarely moves it; when it moves, every
/// fragment is built again at the new level (no fragment moves against another).
struct PackCalibration: Equatable, Sendable {
    /// The gain the pack was built with, and the median its spliced amounts measured.
    let builtGainDB: Double
    let measuredLUFS: Double
    let targetLUFS: Double
    /// How many amounts were spliced.
    let amounts: Int
    /// The gain that brings the median to the target (`builtGainDB` when it is already within a step).
    let gainDB: Double

    static let stepDB = 0.5
    static let maximumCorrections = 2

    /// Splices the `playable` amounts from `pack`, built under `settings`, and measures them, `jobs` at a time;
    /// nil when none measures. `previous`, the calibration that set this build's gain, gives the slope of measured
    /// against gain.
    init?(
        _ pack: SoundPack, playable: [PlannedUtterance], settings: Settings, jobs: Int,
        after previous: PackCalibration? = nil
    ) {
        let splicer = Splicer(pack: pack, gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs)
        let measured = Self.measure(playable, jobs: jobs, playedBy: { pack.fragment(for: $0)?.file }) { tokens in
            (try? splicer.splice(tokens)).map { Signal(samples: $0.samples, sampleRate: $0.sampleRate) }
        }
        self.init(measured: measured, settings: settings, after: previous)
    }

    /// From the loudness of each amount, spliced from fragments at `settings`' pack gain.
    init?(measured: [Double], settings: Settings, after previous: PackCalibration? = nil) {
        guard let median = median(measured) else { return nil }
        builtGainDB = settings.loudness.packGainDB
        measuredLUFS = median
        targetLUFS = settings.loudness.targetLUFS
        amounts = measured.count
        let off = settings.loudness.targetLUFS - median
        var slope = 1.0
        if let previous, previous.builtGainDB != builtGainDB, previous.measuredLUFS != median {
            slope = min(2, max(0.5, (median - previous.measuredLUFS) / (builtGainDB - previous.builtGainDB)))
        }
        let wanted = builtGainDB + off / slope
        // `+ 0` turns a rounded −0 into 0, which the manifest would otherwise write as `-0`.
        gainDB = abs(off) < Self.stepDB ? builtGainDB : (wanted / Self.stepDB).rounded() * Self.stepDB + 0
    }

    /// The integrated loudness (BS.1770, libebur128) of each amount the audit plays, spliced as the app will by
    /// `splice`, `jobs` at a time. Amounts whose tokens are played by the same fragments (`playedBy`: 伍 played by
    /// 五, as styles that differ only by aliased characters are) are spliced and measured once.
    static func measure(
        _ playable: [PlannedUtterance], jobs: Int, playedBy: (Token) -> String?,
        splice: @Sendable ([Token]) -> Signal?
    ) -> [Double] {
        var indexOfPlayers: [String: Int] = [:]
        var distinct: [[Token]] = []
        let measuredAs = playable.map { plan -> Int in
            let players = plan.tokens.map { playedBy($0) ?? "" }.joined(separator: "\n")
            if let index = indexOfPlayers[players] { return index }
            indexOfPlayers[players] = distinct.count
            distinct.append(plan.tokens)
            return distinct.count - 1
        }
        let plans = distinct
        let loudness = ParallelWork.map(count: plans.count, jobs: jobs) { index -> Double? in
            guard let audio = splice(plans[index]) else { return nil }
            let lufs = LoudnessMeter.integratedLoudness(audio)
            return lufs.isFinite ? lufs : nil
        }
        return measuredAs.compactMap { loudness[$0] }
    }

    /// The gain the manifest at `url` records, from its last 64 kB: the header's loudness is written after the
    /// fragments, so a no-op build of thousands of fragments does not read them all.
    static func recordedGain(manifestAt url: URL) -> Double? {
        guard let file = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? file.close() }
        let size = (try? file.seekToEnd()) ?? 0
        try? file.seek(toOffset: size > 65_536 ? size - 65_536 : 0)
        return (try? file.readToEnd()).flatMap { recordedGain(inManifest: [UInt8]($0)) }
    }

    /// The gain a manifest's text records (`loudness.packGainDB`), without decoding it: the last mention.
    static func recordedGain(inManifest data: [UInt8]) -> Double? {
        let key = Array("\"packGainDB\": ".utf8)
        guard data.count >= key.count,
            let start = (0...(data.count - key.count)).reversed().first(where: {
                data[$0..<($0 + key.count)].elementsEqual(key)
            })
        else { return nil }
        let number = data[(start + key.count)...].prefix { "-+.0123456789eE".utf8.contains($0) }
        return Double(String(decoding: number, as: UTF8.self))
    }

    /// One line for the build's summary. It names the gain the splices were measured at rather than "the last
    /// build's": on a pack's first build there is none, and the fragments were first built at +0.0.
    var said: String { said(measured: "the spliced amounts", built: "built again") }

    /// The same line, saying what was `measured` and how every fragment was then `built`.
    func said(measured: String, built: String) -> String {
        String(
            format:
                "pack gain %+.1f dB: at %+.1f dB %@ measured %.1f LUFS against %.1f (median of %d), so every fragment was %@ at the new gain",
            gainDB, builtGainDB, measured, measuredLUFS, targetLUFS, amounts, built)
    }
}
