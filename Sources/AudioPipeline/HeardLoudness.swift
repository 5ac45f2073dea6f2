import Foundation
import HearingModel

/// How loud a fragment is heard: ISO 532-1 time-varying loudness of the fragment played back at a calibrated
/// level, summed up as N5 (the loudness reached or exceeded 5 % of the time) in phon.
///
/// A phone at arm's length is calibrated as a full-scale 1 kHz sine playing at `fullScaleDBSPL` (90 dB SPL by
/// default). The signal is resampled to the 48 kHz that the standard's filters are made for.
public struct HeardLoudness: Sendable {
    let model: ZwickerLoudness
    /// The signal at the model's rate, in pascals, and the rate it came at: what `limited` scales.
    let pressure: [Double]
    let sourceRate: Int

    /// Measures `signal` (full scale = ±1) as played at `fullScaleDBSPL`.
    public init(_ signal: Signal, fullScaleDBSPL: Double) throws(AudioError) {
        // libsamplerate's fastest converter keeps 80 % of the band, past the highest third-octave band (14.1
        // kHz), at a third of the medium one's cost.
        let resampled = try Resample(to: ZwickerLoudness.sampleRate, quality: .fastest).apply(signal)
        // A full-scale sine has an RMS of 1/√2: that RMS is the calibrated sound pressure.
        let pascals = 20e-6 * pow(10, fullScaleDBSPL / 20) * 2.0.squareRoot()
        self.init(pressure: resampled.samples.map { Double($0) * pascals }, sourceRate: signal.sampleRate)
    }

    /// About how much memory it holds: the pressure and the model's band intensities.
    var approximateBytes: Int { pressure.count * MemoryLayout<Double>.stride + model.approximateBytes }

    init(pressure: [Double], sourceRate: Int) {
        self.pressure = pressure
        self.sourceRate = sourceRate
        model = ZwickerLoudness(pressure: pressure)
    }

    /// The heard loudness of the signal raised by `gainDB` and then by a limiter's `limiterGains` (one a
    /// sample, at the signal's own rate; none: the gain alone), measured in full without resampling again:
    /// the gains, interpolated to the model's rate, scale the signal already resampled. A limiter's gain
    /// moves over milliseconds, so the two orders differ only within a few hundred hertz of the converter's
    /// cut-off (17.6 kHz), far above the model's highest band; a test holds them within 0.02 phon.
    public func limited(gainDB: Double, limiterGains: [Float]) -> HeardLoudness {
        let limiterGains = limiterGains.isEmpty ? [1] : limiterGains
        let scale = Decibels.gain(gainDB)
        let step = Double(sourceRate) / Double(ZwickerLoudness.sampleRate)
        let last = limiterGains.count - 1
        let scaled = pressure.indices.map { index -> Double in
            let position = Double(index) * step
            let low = min(last, Int(position))
            let high = min(last, low + 1)
            let fraction = min(1, position - Double(low))
            let gain = Double(limiterGains[low]) + fraction * Double(limiterGains[high] - limiterGains[low])
            return pressure[index] * scale * gain
        }
        return HeardLoudness(pressure: scaled, sourceRate: sourceRate)
    }

    /// N5 in sone, the signal raised by `gainDB`.
    public func n5Sone(gainDB: Double = 0, resolution: ZwickerLoudness.Resolution = .standard) -> Double {
        ZwickerLoudness.percentile5(model.loudness(gainDB: gainDB, resolution: resolution))
    }

    /// N5 as a loudness level in phon, the signal raised by `gainDB`.
    public func n5Phon(gainDB: Double = 0, resolution: ZwickerLoudness.Resolution = .standard) -> Double {
        ZwickerLoudness.phon(sone: n5Sone(gainDB: gainDB, resolution: resolution))
    }

    /// An estimate of N5 in phon of the signal raised by `gainDB` and then by the limiter's `limiterGains` (one a
    /// sample, at `sampleRate`): each 0.5 ms frame's band intensities scaled by the mean square of the gains
    /// over it. A limiter's gain moves slowly beside the band filters, so the estimate is close — not exact:
    /// `Normalize` measures its result in full. Estimated at the model's quick resolution.
    public func n5Phon(gainDB: Double, limiterGains: [Float], sampleRate: Int) -> Double {
        let perFrame = Double(sampleRate) / Double(ZwickerLoudness.levelRate)
        let powers = (0..<model.frames).map { frame -> Double in
            let low = min(limiterGains.count - 1, max(0, Int(Double(frame - 1) * perFrame)))
            let high = min(limiterGains.count, max(low + 1, Int(Double(frame) * perFrame)))
            return limiterGains[low..<high].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(high - low)
        }
        let loudness = model.loudness(gainDB: gainDB, framePowers: powers, resolution: .quick)
        return ZwickerLoudness.phon(sone: ZwickerLoudness.percentile5(loudness))
    }

    /// The gain that brings the heard loudness to `targetPhon`, within `tolerance`: secant steps from `guess`,
    /// at first of one phon per dB (the loudness level grows a little slower or faster than the level). The
    /// search asks the model at its quick resolution: measure the result again at the standard's.
    public func gain(reaching targetPhon: Double, tolerance: Double, from guess: Double = 0) -> Double {
        let n5Phon = { self.n5Phon(gainDB: $0, resolution: .quick) }
        var gain = guess
        var phon = n5Phon(guess)
        var slope = 1.0
        for _ in 0..<8 {
            let miss = targetPhon - phon
            if abs(miss) <= tolerance || !phon.isFinite { break }
            let step = miss / slope
            let next = n5Phon(gain + step)
            let seen = (next - phon) / step
            if seen.isFinite && seen > 0.2 { slope = min(3, seen) }
            gain += step
            phon = next
        }
        return gain
    }
}
