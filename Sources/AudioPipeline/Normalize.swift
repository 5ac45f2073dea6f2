import Foundation
import VoicePack

/// Brings a fragment to the target loudness (`LoudnessMeter.fragmentLoudness`) under a true-peak ceiling.
///
/// Gain alone when the peaks allow; otherwise a true-peak limiter takes the peaks down and the gain is
/// raised again until the fragment is at the target, at most `maximumLimitingDB` of limiting. A fragment
/// that would need more than `maximumGainDB` is refused: it is a near-silent recording, not a quiet one.
public struct Normalize: Sendable {
    public var targetLUFS: Double
    public var ceilingDBTP: Double
    public var maximumGainDB: Double
    public var maximumLimitingDB: Double
    /// Room kept under the ceiling for the dither and rounding of the encoder.
    static let encoderMarginDB = 0.1
    /// How close to the target counts as reached: a fifth of the tolerance `check` allows by default.
    static let toleranceLU = 0.1
    /// Loudness gained per dB of gain under a few dB of limiting, measured on speech: the first step's guess.
    static let limitedSlope = 0.6

    /// The defaults are the settings' defaults (`Settings.Loudness`), so they are written down once.
    public init(_ settings: Settings.Loudness = Settings.Loudness()) {
        targetLUFS = settings.targetLUFS
        ceilingDBTP = settings.truePeakCeilingDBTP
        maximumGainDB = settings.maximumGainDB
        maximumLimitingDB = settings.maximumLimitingDB
    }

    public func apply(_ signal: Signal, name: String) throws(AudioError) -> (Signal, LoudnessReport) {
        let (inputLoudness, inputPeak) = LoudnessMeter.measure(signal)
        guard inputLoudness.isFinite, inputLoudness > -70 else {
            throw AudioError(
                file: name, problem: "it is silent (loudness under −70 LUFS)",
                fix: "export the recording again, with the voice in it")
        }
        var gain = targetLUFS - inputLoudness
        if gain > maximumGainDB {
            throw AudioError(
                file: name,
                problem:
                    "it measures \(Self.format(inputLoudness)) LUFS and would need \(Self.format(gain)) dB of gain",
                fix: "record it louder, or raise loudness.maximumGainDB in assets.json")
        }
        let ceiling = ceilingDBTP - Self.encoderMarginDB
        var limiterThreshold = ceiling
        var output = signal
        var limiting = 0.0
        // Loudness and true peak scale with the gain exactly: only a limited signal is measured again.
        var measured = (loudness: inputLoudness + gain, peak: inputPeak + gain)
        var previous: (gain: Double, loudness: Double)?
        var peakKnown = true
        for _ in 0..<8 {
            output = Signal(samples: Self.scaled(signal.samples, by: gain), sampleRate: signal.sampleRate)
            limiting = 0
            measured = (inputLoudness + gain, inputPeak + gain)
            peakKnown = true
            guard measured.peak > ceiling else { break }
            limiting = TruePeakLimiter(thresholdDB: limiterThreshold).apply(&output)
            // Loudness first (the cheaper measurement); the true peak once the loudness is right.
            measured.loudness = LoudnessMeter.fragmentLoudness(output)
            peakKnown = false
            // Under the limiter a dB of gain buys less than a dB of loudness: step by the slope seen so far,
            // or at first by 0.6, what speech under a few dB of limiting shows.
            let shortfall = targetLUFS - measured.loudness
            if abs(shortfall) > Self.toleranceLU && (shortfall < 0 || limiting < maximumLimitingDB) {
                let slope = previous.map { (measured.loudness - $0.loudness) / (gain - $0.gain) } ?? Self.limitedSlope
                previous = (gain, measured.loudness)
                gain += shortfall / min(1, max(0.25, slope.isFinite ? slope : 1))
                continue
            }
            measured.peak = LoudnessMeter.truePeak(output)
            peakKnown = true
            guard measured.peak > ceiling else { break }
            // Peaks between the samples got through: the limiter aims that much lower.
            limiterThreshold -= measured.peak - ceiling + 0.01
        }
        // Whatever the iterations left, the ceiling holds.
        if !peakKnown { measured.peak = LoudnessMeter.truePeak(output) }
        if measured.peak > ceiling {
            let excess = measured.peak - ceiling
            output.samples = Self.scaled(output.samples, by: -excess)
            measured = (measured.loudness - excess, ceiling)
        }
        let report = LoudnessReport(
            inputLUFS: inputLoudness, inputTruePeakDBTP: inputPeak, gainDB: gain, limiterReductionDB: limiting,
            outputLUFS: measured.loudness, outputTruePeakDBTP: measured.peak)
        return (output, report)
    }

    static func scaled(_ samples: [Float], by decibels: Double) -> [Float] {
        let factor = Float(Decibels.gain(decibels))
        return samples.map { $0 * factor }
    }

    static func format(_ value: Double) -> String { String(format: "%+.1f", value) }
}

/// What `Normalize` measured and did.
public struct LoudnessReport: Equatable, Sendable {
    public let inputLUFS: Double
    public let inputTruePeakDBTP: Double
    public let gainDB: Double
    /// The deepest gain reduction of the limiter, in dB (0 when it did not act).
    public let limiterReductionDB: Double
    /// The result's loudness and true peak: measured after limiting, or the input's plus the gain.
    public let outputLUFS: Double
    public let outputTruePeakDBTP: Double
}

/// A look-ahead peak limiter: a smooth gain curve that never lets a sample over the threshold.
///
/// The gain each sample needs is spread over a window around it (minimum, then moving average of the same
/// width), so the gain falls before a peak and the average never rises above what any sample in reach
/// needs; it recovers with a 50 ms release. Inter-sample peaks are caught by `Normalize`, which lowers the
/// threshold until the true peak is under the ceiling.
struct TruePeakLimiter {
    var thresholdDB: Double
    var attackMs = 1.5
    var releaseMs = 50.0

    /// Limits `signal` in place and returns the deepest reduction in dB.
    func apply(_ signal: inout Signal) -> Double {
        let threshold = Float(Decibels.gain(thresholdDB))
        let needed = Self.interSamplePeaks(signal.samples).map { $0 > threshold ? threshold / $0 : 1 }
        let radius = max(1, signal.frames(ms: attackMs))
        let smoothed = Self.movingAverage(Self.movingMinimum(needed, radius: radius), radius: radius)
        let release = Float(1 - exp(-1 / (releaseMs / 1000 * Double(signal.sampleRate))))
        var gain: Float = 1
        var deepest: Float = 1
        for index in signal.samples.indices {
            gain = min(smoothed[index], gain + (1 - gain) * release)
            deepest = min(deepest, gain)
            signal.samples[index] *= gain
        }
        return -Decibels.amplitude(Double(deepest))
    }

    /// For each sample, the highest magnitude on the way to the next one: the sample itself and a cubic
    /// (Catmull-Rom) interpolation at a quarter, half and three quarters of the step. This finds most of
    /// the peaks between samples that a 4× oversampled true-peak meter sees, so the limiter's first try
    /// usually holds; `Normalize` measures the true peak and catches the rest.
    static func interSamplePeaks(_ samples: [Float]) -> [Float] {
        let count = samples.count
        return [Float](unsafeUninitializedCapacity: count) { peaks, initialized in
            samples.withUnsafeBufferPointer { x in
                for index in 0..<count {
                    let p1 = x[index]
                    let p0 = index > 0 ? x[index - 1] : p1
                    let p2 = index + 1 < count ? x[index + 1] : p1
                    let p3 = index + 2 < count ? x[index + 2] : p2
                    let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
                    let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
                    let c = -0.5 * p0 + 0.5 * p2
                    var peak = abs(p1)
                    for t: Float in [0.25, 0.5, 0.75] {
                        peak = max(peak, abs(((a * t + b) * t + c) * t + p1))
                    }
                    peaks[index] = peak
                }
            }
            initialized = count
        }
    }

    /// The minimum over `[i - radius, i + radius]` for each i (clipped at the ends), in linear time: van
    /// Herk and Gil-Werman's running minima forward and backward within blocks of the window's width.
    static func movingMinimum(_ values: [Float], radius: Int) -> [Float] {
        let count = values.count
        guard count > 0 else { return [] }
        let width = 2 * radius + 1
        var forward = values
        var backward = values
        for index in 1..<count where index % width != 0 { forward[index] = min(forward[index], forward[index - 1]) }
        if count > 1 {
            for index in stride(from: count - 2, through: 0, by: -1) where (index + 1) % width != 0 {
                backward[index] = min(backward[index], backward[index + 1])
            }
        }
        return (0..<count).map { index in
            let low = max(0, index - radius)
            let high = min(count - 1, index + radius)
            // A window spans at most two blocks: the backward minimum from its start covers the first,
            // the forward minimum up to its end the second. A window inside one block (clipped at the
            // signal's edges) is covered by one of them, or scanned.
            if low / width != high / width { return min(backward[low], forward[high]) }
            if low % width == 0 { return forward[high] }
            if (high + 1) % width == 0 || high == count - 1 { return backward[low] }
            return values[low...high].min()!
        }
    }

    /// The mean over `[i - radius, i + radius]`, clipped at the ends.
    static func movingAverage(_ values: [Float], radius: Int) -> [Float] {
        var prefix = [Double](repeating: 0, count: values.count + 1)
        for index in values.indices { prefix[index + 1] = prefix[index] + Double(values[index]) }
        return values.indices.map { index in
            let low = max(0, index - radius)
            let high = min(values.count, index + radius + 1)
            return Float((prefix[high] - prefix[low]) / Double(high - low))
        }
    }
}
