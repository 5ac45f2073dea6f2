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
    /// How close to the target counts as reached.
    static let toleranceLU = 0.05

    /// The defaults are the settings' defaults (`Settings.Loudness`), so they are written down once.
    public init(_ settings: Settings.Loudness = Settings.Loudness()) {
        targetLUFS = settings.targetLUFS
        ceilingDBTP = settings.truePeakCeilingDBTP
        maximumGainDB = settings.maximumGainDB
        maximumLimitingDB = settings.maximumLimitingDB
    }

    public func apply(_ signal: Signal, name: String) throws(AudioError) -> (Signal, LoudnessReport) {
        let inputLoudness = LoudnessMeter.fragmentLoudness(signal)
        let inputPeak = LoudnessMeter.truePeak(signal)
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
        for _ in 0..<12 {
            output = Signal(samples: Self.scaled(signal.samples, by: gain), sampleRate: signal.sampleRate)
            limiting = 0
            if LoudnessMeter.truePeak(output) > ceiling {
                limiting = TruePeakLimiter(thresholdDB: limiterThreshold).apply(&output)
                let peak = LoudnessMeter.truePeak(output)
                if peak > ceiling {
                    limiterThreshold -= peak - ceiling + 0.01
                    continue
                }
            }
            let shortfall = targetLUFS - LoudnessMeter.fragmentLoudness(output)
            if shortfall > Self.toleranceLU && limiting < maximumLimitingDB {
                gain += shortfall
                continue
            }
            break
        }
        let report = LoudnessReport(
            inputLUFS: inputLoudness, inputTruePeakDBTP: inputPeak, gainDB: gain, limiterReductionDB: limiting)
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
        let needed = signal.samples.map { abs($0) > threshold ? threshold / abs($0) : 1 }
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

    /// The minimum over `[i - radius, i + radius]` for each i, in linear time (a monotonic queue).
    static func movingMinimum(_ values: [Float], radius: Int) -> [Float] {
        var result = [Float](repeating: 0, count: values.count)
        var queue: [Int] = []
        var head = 0
        var next = 0
        for index in values.indices {
            while next < values.count && next <= index + radius {
                while queue.count > head && values[queue[queue.count - 1]] >= values[next] { queue.removeLast() }
                queue.append(next)
                next += 1
            }
            while queue[head] < index - radius { head += 1 }
            result[index] = values[queue[head]]
        }
        return result
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
