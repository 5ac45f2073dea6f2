import Foundation

/// Brings a fragment to the target heard loudness (`HeardLoudness`: ISO 532-1 N5, in phon) under a true-peak
/// ceiling.
///
/// Gain alone when the peaks allow; otherwise a true-peak limiter takes the peaks down and the gain is
/// raised again until the fragment is heard at the target, at most `maximumLimitingDB` of limiting. A fragment
/// that would need more than `maximumGainDB` is refused: it is a near-silent recording, not a quiet one.
public struct Normalize: Equatable, Sendable {
    /// The heard loudness every fragment is brought to (`Settings.Loudness.targetPhon`).
    public var targetPhon: Double
    public var targetLUFS: Double
    public var fullScaleDBSPL: Double
    public var ceilingDBTP: Double
    public var maximumGainDB: Double
    public var maximumLimitingDB: Double
    /// Room kept under the ceiling for the dither and rounding of the encoder.
    static let encoderMarginDB = 0.1
    /// How far under the ceiling the limiter aims. Its estimate of the peaks between samples reads up to
    /// about 0.015 dB under the 4× true-peak meter on speech; aiming this much lower lets its first try hold.
    static let limiterMarginDB = 0.03
    /// How close to the target counts as reached, in phon: well under what a listener tells apart.
    static let tolerancePhon = 0.1
    /// Loudness gained per dB of gain under a few dB of limiting, measured on speech: the first step's guess.
    static let limitedSlope = 0.6
    /// Limiting this close to `maximumLimitingDB` is as deep as it goes: the gain is capped to keep under it,
    /// and the limiter's reduction on a sample reads a little either side of where the cap aimed.
    static let deepestMarginDB = 0.1

    /// Every value given: the defaults live in the settings (`Settings.Loudness`), which PackTools maps here.
    public init(
        targetPhon: Double, targetLUFS: Double, fullScaleDBSPL: Double, ceilingDBTP: Double, maximumGainDB: Double,
        maximumLimitingDB: Double
    ) {
        self.targetPhon = targetPhon
        self.targetLUFS = targetLUFS
        self.fullScaleDBSPL = fullScaleDBSPL
        self.ceilingDBTP = ceilingDBTP
        self.maximumGainDB = maximumGainDB
        self.maximumLimitingDB = maximumLimitingDB
    }

    /// A signal as `Normalize` measures it before it chooses a gain: its loudness, true peak and heard
    /// loudness. None of it depends on the target, so a build whose pack gain moves normalizes again from here.
    public struct Measured: Sendable {
        let signal: Signal
        let loudnessLUFS: Double
        let truePeakDBTP: Double
        let heard: HeardLoudness

        /// About how much memory it holds: the samples and the hearing model's.
        var approximateBytes: Int { signal.frames * MemoryLayout<Float>.stride + heard.approximateBytes }

        /// The signal raised by `gainDB`, limiter or not: what a forecast of the pack's level splices.
        public func raised(byDB gainDB: Double) -> Signal {
            Signal(samples: Normalize.scaled(signal.samples, by: gainDB), sampleRate: signal.sampleRate)
        }
    }

    /// Measures `signal`; refuses one that is silent.
    public func measure(_ signal: Signal, name: String) throws(AudioError) -> Measured {
        let (loudness, peak) = LoudnessMeter.measure(signal)
        guard loudness.isFinite, loudness > -70 else {
            throw AudioError(
                file: name, problem: "it is silent (loudness under −70 LUFS)",
                fix: "export the recording again, with the voice in it")
        }
        let heard = try HeardLoudness(signal, fullScaleDBSPL: fullScaleDBSPL)
        return Measured(signal: signal, loudnessLUFS: loudness, truePeakDBTP: peak, heard: heard)
    }

    public func apply(_ signal: Signal, name: String) throws(AudioError) -> (Signal, LoudnessReport) {
        try apply(measure(signal, name: name), name: name)
    }

    /// `measured` brought to the target, its gain searched from `fitStart` when given (where a search for this
    /// target ended: the search then stops at once), else from the K-weighted guess.
    public func apply(_ measured: Measured, name: String, fitStart: Double? = nil) throws(AudioError) -> (
        Signal, LoudnessReport
    ) {
        let (signal, heard) = (measured.signal, measured.heard)
        let (inputLoudness, inputPeak) = (measured.loudnessLUFS, measured.truePeakDBTP)
        let gain = searchedGain(measured, from: fitStart)
        if gain > maximumGainDB {
            throw AudioError(
                file: name,
                problem:
                    "it measures \(Self.format(inputLoudness)) LUFS and would need \(Self.format(gain)) dB of gain",
                fix: "record it louder, or raise loudness.maximumGainDB in assets.json")
        }
        let (output, finalGain, limiting, phon, peak) = fit(signal, heard: heard, gain: gain, inputPeak: inputPeak)
        let report = LoudnessReport(
            inputLUFS: inputLoudness, inputTruePeakDBTP: inputPeak, gainDB: finalGain,
            limiterReductionDB: limiting, outputLUFS: LoudnessMeter.fragmentLoudness(output),
            outputTruePeakDBTP: peak, outputPhon: phon)
        return (output, report)
    }

    /// The gain `apply` fits from: a search at the hearing model's quick resolution, to half the tolerance (what
    /// it finds is measured again), from `guess`, or else from the gain that brings the K-weighted level to the
    /// target (usually within 3 phon).
    public func searchedGain(_ measured: Measured, from guess: Double? = nil) -> Double {
        measured.heard.gain(
            reaching: targetPhon, tolerance: Self.tolerancePhon / 2, from: guess ?? targetLUFS - measured.loudnessLUFS)
    }

    /// `signal` raised by `gain`, and, when its peaks pass the ceiling, limited with the gain raised again
    /// until it is heard at the target: the samples, the final gain, the limiting, and the heard loudness
    /// and true peak measured on the result. At most eight tries; the last may not step again.
    private func fit(
        _ signal: Signal, heard: HeardLoudness, gain: Double, inputPeak: Double
    ) -> (Signal, gain: Double, limiting: Double, phon: Double, peak: Double) {
        var fit = Fit(self, signal: signal, heard: heard, gain: gain, inputPeak: inputPeak)
        for attempt in 0..<8 {
            if fit.attempt(mayStep: attempt < 7) { break }
        }
        return fit.settled()
    }

    /// `fit`'s tries, and what each leaves for the next.
    private struct Fit {
        let normalize: Normalize
        let signal: Signal
        let heard: HeardLoudness
        let inputPeak: Double
        let ceiling: Double
        var gain: Double
        var limiterThreshold: Double
        var output: Signal
        var limiting = 0.0
        /// Peaks scale with the gain exactly and the heard loudness is asked at the gain: only a limited
        /// signal is measured again.
        var measured: (phon: Double, peak: Double)
        var corrected = false
        var previous: (gain: Double, phon: Double)?
        var peakKnown = true
        /// Under the limiter the heard loudness is estimated from the input's filter bank (`HeardLoudness`),
        /// and each result that the estimate puts at the target is measured in full; what the full measure
        /// found above the estimate corrects the next estimates.
        var estimateError = 0.0
        var fullMeasures = 0
        var phonIsEstimate = false
        /// Made on the first try that needs it: what it prepares does not depend on the gain.
        var limiter: TruePeakLimiter?
        /// The limiter's gain on each sample of the result (none when it did not act).
        var gains: [Float] = []

        init(_ normalize: Normalize, signal: Signal, heard: HeardLoudness, gain: Double, inputPeak: Double) {
            self.normalize = normalize
            self.signal = signal
            self.heard = heard
            self.inputPeak = inputPeak
            self.gain = gain
            ceiling = normalize.ceilingDBTP - Normalize.encoderMarginDB
            limiterThreshold = ceiling - Normalize.limiterMarginDB
            output = signal
            measured = (phon: .nan, peak: inputPeak + gain)
        }

        /// One try at the current gain; true when its result is the fit.
        mutating func attempt(mayStep: Bool) -> Bool {
            limiting = 0
            peakKnown = true
            measured.peak = inputPeak + gain
            return measured.peak > ceiling ? limited(mayStep: mayStep) : unlimited(mayStep: mayStep)
        }

        /// Gain alone: measured at the standard's resolution; the quick search's gain is corrected once if need be.
        mutating func unlimited(mayStep: Bool) -> Bool {
            measured.phon = heard.n5Phon(gainDB: gain)
            let shortfall = normalize.targetPhon - measured.phon
            if abs(shortfall) > Normalize.tolerancePhon && !corrected && mayStep {
                (gain, corrected) = (gain + shortfall, true)
                return false
            }
            output = Signal(samples: Normalize.scaled(signal.samples, by: gain), sampleRate: signal.sampleRate)
            (gains, phonIsEstimate) = ([], false)
            return true
        }

        /// The limiter takes the peaks down: loudness first, the true peak once the loudness is right.
        mutating func limited(mayStep: Bool) -> Bool {
            let target = normalize.targetPhon
            // No gain past the deepest limiting allowed: the peaks may pass the threshold by that much only.
            gain = min(gain, limiterThreshold - inputPeak + normalize.maximumLimitingDB)
            if limiter == nil { limiter = TruePeakLimiter(signal) }
            (output, limiting, gains) = limiter!.apply(gainDB: gain, thresholdDB: limiterThreshold)
            let estimate =
                heard.n5Phon(gainDB: gain, limiterGains: gains, sampleRate: signal.sampleRate) + estimateError
            (measured.phon, phonIsEstimate, peakKnown) = (estimate, true, false)
            let atDeepest = limiting >= normalize.maximumLimitingDB - Normalize.deepestMarginDB
            if abs(target - estimate) <= Normalize.tolerancePhon || atDeepest {
                measured.phon = heard.limited(gainDB: gain, limiterGains: gains).n5Phon()
                phonIsEstimate = false
                fullMeasures += 1
                estimateError += measured.phon - estimate
            }
            // Under the limiter a dB of gain buys less than a phon: step by the slope seen so far, or at
            // first by 0.6, what speech under a few dB of limiting shows.
            let shortfall = target - measured.phon
            if abs(shortfall) > Normalize.tolerancePhon && (shortfall < 0 || !atDeepest) && fullMeasures < 3 && mayStep
            {
                let slope = previous.map { (measured.phon - $0.phon) / (gain - $0.gain) } ?? Normalize.limitedSlope
                previous = (gain, measured.phon)
                gain += shortfall / min(1, max(0.25, slope.isFinite ? slope : 1))
                return false
            }
            measured.peak = LoudnessMeter.truePeak(output)
            peakKnown = true
            guard measured.peak > ceiling else { return true }
            // Peaks between the samples got through: the limiter aims that much lower.
            limiterThreshold -= measured.peak - ceiling + 0.01
            return false
        }

        /// Whatever the tries left, the ceiling holds, and the heard loudness reported is measured.
        func settled() -> (Signal, gain: Double, limiting: Double, phon: Double, peak: Double) {
            var output = output
            let peak = peakKnown ? measured.peak : LoudnessMeter.truePeak(output)
            let excess = max(0, peak - ceiling)
            if excess > 0 { output.samples = Normalize.scaled(output.samples, by: -excess) }
            guard excess > 0 || phonIsEstimate else { return (output, gain, limiting, measured.phon, peak) }
            let phon = heard.limited(gainDB: gain - excess, limiterGains: gains).n5Phon()
            return (output, gain, limiting, phon, peak - excess)
        }
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
    /// The result's loudness, true peak and heard loudness.
    public let outputLUFS: Double
    public let outputTruePeakDBTP: Double
    public let outputPhon: Double
}

/// A look-ahead peak limiter: a smooth gain curve that never lets a sample over the threshold.
///
/// The gain each sample needs is spread over a window around it (minimum, then moving average of the same
/// width), so the gain falls before a peak and the average never rises above what any sample in reach
/// needs; it recovers with a 50 ms release. Inter-sample peaks are caught by `Normalize`, which lowers the
/// threshold until the true peak is under the ceiling.
///
/// A limiter is made for one signal and applied at any gain and threshold: the gain a sample needs is
/// `threshold / (gain × the highest peak within reach)`, so the peaks' envelope — most of the work — is
/// found once, and each of `Normalize`'s tries costs one moving average and one pass over the samples.
struct TruePeakLimiter {
    let signal: Signal
    /// For each sample, the highest inter-sample peak of the unscaled signal within `radius` of it.
    let envelope: [Float]
    let radius: Int
    static let attackMs = 1.5
    static let releaseMs = 50.0

    init(_ signal: Signal) {
        self.signal = signal
        radius = max(1, signal.frames(ms: Self.attackMs))
        envelope = Self.movingMaximum(Self.interSamplePeaks(signal.samples), radius: radius)
    }

    /// The signal raised by `gainDB` and limited at `thresholdDB`, and the deepest reduction in dB.
    func apply(gainDB: Double, thresholdDB: Double) -> (Signal, reductionDB: Double, gains: [Float]) {
        let scale = Float(Decibels.gain(gainDB))
        let threshold = Float(Decibels.gain(thresholdDB)) / scale
        let needed = envelope.map { $0 > threshold ? threshold / $0 : 1 }
        let smoothed = Self.movingAverage(needed, radius: radius)
        let release = Float(1 - exp(-1 / (Self.releaseMs / 1000 * Double(signal.sampleRate))))
        var gain: Float = 1
        var deepest: Float = 1
        let count = signal.frames
        var gains = [Float](repeating: 1, count: count)
        var samples = [Float](repeating: 0, count: count)
        for index in 0..<count {
            gain = min(smoothed[index], gain + (1 - gain) * release)
            deepest = min(deepest, gain)
            gains[index] = gain
            samples[index] = signal.samples[index] * scale * gain
        }
        return (
            Signal(samples: samples, sampleRate: signal.sampleRate), -Decibels.amplitude(Double(deepest)), gains
        )
    }

    /// For each sample, the highest magnitude on the way to the next one: the sample itself and a cubic
    /// (Catmull-Rom) interpolation at a quarter, half and three quarters of the step. This finds most of
    /// the peaks between samples that a 4× oversampled true-peak meter sees, so the limiter's first try
    /// usually holds; `Normalize` measures the true peak and catches the rest.
    static func interSamplePeaks(_ samples: [Float]) -> [Float] {
        let x = samples
        let count = x.count
        return x.indices.map { index in
            let p1 = x[index]
            let p0 = index > 0 ? x[index - 1] : p1
            let p2 = index + 1 < count ? x[index + 1] : p1
            let p3 = index + 2 < count ? x[index + 2] : p2
            let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
            let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
            let c = -0.5 * p0 + 0.5 * p2
            let quarter = abs(((a * 0.25 + b) * 0.25 + c) * 0.25 + p1)
            let half = abs(((a * 0.5 + b) * 0.5 + c) * 0.5 + p1)
            let threeQuarters = abs(((a * 0.75 + b) * 0.75 + c) * 0.75 + p1)
            return max(max(abs(p1), quarter), max(half, threeQuarters))
        }
    }

    /// The maximum over `[i - radius, i + radius]` for each i (clipped at the ends) of values ≥ 0, in linear
    /// time: van Herk and Gil-Werman's running maxima forward and backward within blocks of the window's
    /// width. The values are padded with `radius` zeros either side, so every window is a full width and
    /// spans at most two blocks: the backward maximum from its start covers the first, the forward maximum
    /// up to its end the second.
    static func movingMaximum(_ values: [Float], radius: Int) -> [Float] {
        let count = values.count
        let width = 2 * radius + 1
        let padded = [Float](repeating: 0, count: radius) + values + [Float](repeating: 0, count: radius)
        var forward = padded
        var backward = padded
        for blockStart in stride(from: 0, to: padded.count, by: width) {
            let blockEnd = min(padded.count, blockStart + width)
            for index in (blockStart + 1)..<blockEnd { forward[index] = max(forward[index], forward[index - 1]) }
            for index in stride(from: blockEnd - 2, through: blockStart, by: -1) {
                backward[index] = max(backward[index], backward[index + 1])
            }
        }
        return (0..<count).map { max(backward[$0], forward[$0 + width - 1]) }
    }

    /// The mean over `[i - radius, i + radius]`, clipped at the ends.
    static func movingAverage(_ values: [Float], radius: Int) -> [Float] {
        let count = values.count
        var prefix = [Double](repeating: 0, count: count + 1)
        for index in 0..<count { prefix[index + 1] = prefix[index] + Double(values[index]) }
        return (0..<count).map { index in
            let low = max(0, index - radius)
            let high = min(count, index + radius + 1)
            return Float((prefix[high] - prefix[low]) / Double(high - low))
        }
    }
}
