import AudioPipeline
import Foundation

/// Whether two fragments are the same take: one performance, perhaps exported again at another level, rate or
/// bit rate, and cut a few milliseconds apart. Fragments are normalized, so what is left of one after the other,
/// best scaled and aligned, is what the export changed; another take never aligns (its pitch and phase are its
/// own), even of the same syllable by the same voice.
///
/// The two are compared under `bandHz` only, at every lag within reach. A lossy coder keeps a voice's waveform
/// under a few kilohertz but rebuilds a fricative's hiss above it as other noise of the same spectrum, and a
/// resampler moves what is near its cut-off: compared whole, a take of 四 exported again as a 64 kb/s MP3 left
/// 0.43 of itself. And a voice's waveform near 3 kHz turns over every 15 samples, so lags are tried one by one:
/// a search every eighth lag found another lag first and called a take of 一 re-exported at 48 kHz new.
enum SameTake {
    /// What may be left, as a share of the sound under `bandHz`, for the same take (−8 dB). Measured on the 1,340
    /// fragments of nineteen real packs, each exported again four ways (WAV at 48 and at 22.05 kHz, a 64 kb/s
    /// MP3, 6 dB quieter): at most 0.09. Two recordings of one vowel on one tone by one voice (hubin's 一 and 七)
    /// leave 0.32; other pairs of a pack's syllables, more.
    static let residual = 0.15
    static let bandHz = 3_000.0
    /// How far apart the two cuts may sit, beyond the difference in their lengths: the trim finds the sound again
    /// in the export, a few samples either way.
    static let reachMs = 10.0
    /// Longer than the other by more than this, it is another cut of the recording, or another recording.
    static let lengthDifferenceMs = 100.0

    static func compare(_ a: [Float], _ b: [Float], sampleRate: Int) -> Bool {
        let difference = abs(a.count - b.count)
        let perMs = Double(sampleRate) / 1000
        guard !a.isEmpty, !b.isEmpty, Double(difference) <= lengthDifferenceMs * perMs else { return false }
        let (x, y) = (lowPass(a, sampleRate: sampleRate), lowPass(b, sampleRate: sampleRate))
        let reach = difference + Int(reachMs * perMs)
        // Aligned, the two agree at every sample, so every fourth finds the lag; the lags beside it, on all of them.
        let coarse = (-reach...reach).min { left(x, y, lag: $0, step: 4) < left(x, y, lag: $1, step: 4) }!
        let best = (coarse - 3...coarse + 3).map { left(x, y, lag: $0, step: 1) }.min()!
        return best < residual
    }

    /// What is left of `a` after subtracting the best-scaled `b` shifted by `lag`, as a share of `a`'s energy
    /// where they overlap.
    static func left(_ a: [Double], _ b: [Double], lag: Int, step: Int) -> Double {
        var (ab, bb, aa) = (0.0, 0.0, 0.0)
        var index = max(0, lag)
        while index < min(a.count, b.count + lag) {
            let (x, y) = (a[index], b[index - lag])
            ab += x * y
            bb += y * y
            aa += x * x
            index += step
        }
        guard aa > 0, bb > 0 else { return 1 }
        return max(0, 1 - ab * ab / (aa * bb))
    }

    /// A second-order Butterworth low-pass at `bandHz`, run forward: both fragments go through the same filter,
    /// so its phase cancels out.
    static func lowPass(_ samples: [Float], sampleRate: Int) -> [Double] {
        var filter = Butterworth(.lowPass, cutoffHz: bandHz, sampleRate: sampleRate)
        return samples.map { filter(Double($0)) }
    }
}
