import Foundation

/// Loudness of a time-varying sound by ISO 532-1:2017 (Zwicker's method), for a 48 kHz signal in pascals.
///
///     third-octave levels (28 bands, every 0.5 ms) → core loudness (20 critical bands)
///       → nonlinear temporal decay → upper masking slopes and total loudness → temporal weighting
///
/// Each step follows the standard's published algorithm and tables; the results are cross-checked against
/// an independent implementation (mosqito's `loudness_zwtv`) in the tests. The third-octave levels are
/// kept apart from the rest: a gain moves every level by exactly its decibels, so `loudness(gainDB:)` can
/// be asked again at another gain without filtering the signal again.
public struct ZwickerLoudness: Sendable {
    /// The filter bank's coefficients are for this rate only.
    public static let sampleRate = 48_000
    /// Levels, core loudness and the temporal steps run at 2 kHz (one value per 0.5 ms).
    static let levelRate = 2_000
    /// Total loudness is reported at 500 Hz (every 2 ms), as the standard's program does.
    public static let outputRate = 500

    /// Third-octave band levels in dB SPL: `levels[frame][band]`, 28 bands from 25 Hz to 12.5 kHz.
    let levels: [[Double]]

    /// Filters `pressure` (48 kHz, pascals) into third-octave levels.
    public init(pressure: [Double]) {
        let decimation = Self.sampleRate / Self.levelRate
        let frames = (pressure.count + decimation - 1) / decimation
        var levels = [[Double]](repeating: [Double](repeating: 0, count: Tables.bands), count: frames)
        for firstBand in stride(from: 0, to: Tables.bands, by: 4) {
            for (frame, level) in Self.bandLevels(pressure, bands: firstBand).enumerated() {
                for lane in 0..<4 { levels[frame][firstBand + lane] = level[lane] }
            }
        }
        self.levels = levels
    }

    /// Total loudness in sone, every 2 ms, with every band level raised by `gainDB`.
    public func loudness(gainDB: Double = 0) -> [Double] {
        // Band by band over time, as the decay runs along time.
        var core = [[Double]](repeating: [Double](repeating: 0, count: levels.count), count: Tables.criticalBands + 1)
        for (frame, frameLevels) in levels.enumerated() {
            for (band, value) in Self.coreLoudness(frameLevels, gainDB: gainDB).enumerated() {
                core[band][frame] = value
            }
        }
        let decayed = core.map(Self.nonlinearDecay)
        let total = levels.indices.map { frame in Self.totalLoudness(decayed.map { $0[frame] }) }
        let weighted = Self.temporalWeighting(total)
        return stride(from: 0, to: weighted.count, by: Self.levelRate / Self.outputRate).map { weighted[$0] }
    }

    // MARK: - Third-octave levels (ISO 532-1, 6.3 and A.2)

    /// Four bands from `firstBand` on: three second-order sections, squaring, three first-order smoothing
    /// sections, then every 24th value (2 kHz) as a level in dB re (20 µPa)². Each step of a recursive
    /// filter waits for the one before, so four bands side by side run in about the time of one.
    static func bandLevels(_ pressure: [Double], bands firstBand: Int) -> [SIMD4<Double>] {
        let lanes = firstBand..<(firstBand + 4)
        func perBand(_ value: (Int) -> Double) -> SIMD4<Double> { SIMD4(lanes.map(value)) }
        // Every band's sections share their numerators (1 2 1, 1 0 −1, 1 −2 1); the table gives how the
        // denominators differ from the reference (1 −2 1).
        func section(_ index: Int, numerator: (Double, Double, Double)) -> Biquad {
            Biquad(
                b: numerator, a1: perBand { -2 - Tables.filterDenominators[$0][index].0 },
                a2: perBand { 1 - Tables.filterDenominators[$0][index].1 })
        }
        var first = section(0, numerator: (1, 2, 1))
        var second = section(1, numerator: (1, 0, -1))
        var third = section(2, numerator: (1, -2, 1))
        let gain = perBand { Tables.filterGains[$0] }
        let a = perBand { band in
            let centre = 1000 * pow(10, Double(band - 16) / 10)
            let tau = centre <= 1000 ? 2 / (3 * centre) : 2 / 3000.0
            return exp(-1 / (Double(sampleRate) * tau))
        }
        var (s1, s2, s3) = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
        let decimation = sampleRate / levelRate

        var result: [SIMD4<Double>] = []
        result.reserveCapacity(pressure.count / decimation + 1)
        var untilNext = 0
        for sample in pressure {
            let filtered = gain * third.process(second.process(first.process(SIMD4(repeating: sample))))
            s1 = (1 - a) * filtered * filtered + a * s1
            s2 = (1 - a) * s1 + a * s2
            s3 = (1 - a) * s2 + a * s3
            if untilNext == 0 {
                result.append(SIMD4((0..<4).map { 10 * log10((s3[$0] + 1e-12) / 4e-10) }))
                untilNext = decimation
            }
            untilNext -= 1
        }
        return result
    }

    /// Second-order sections of four bands in direct form II transposed, each denominator's first
    /// coefficient 1; the numerator is the same for the four.
    struct Biquad {
        let b: (Double, Double, Double)
        let a1, a2: SIMD4<Double>
        var z1 = SIMD4<Double>()
        var z2 = SIMD4<Double>()

        init(b: (Double, Double, Double), a1: SIMD4<Double>, a2: SIMD4<Double>) {
            self.b = b
            self.a1 = a1
            self.a2 = a2
        }

        @inline(__always) mutating func process(_ x: SIMD4<Double>) -> SIMD4<Double> {
            let y = b.0 * x + z1
            z1 = b.1 * x - a1 * y + z2
            z2 = b.2 * x - a2 * y
            return y
        }
    }

    // MARK: - Core loudness (ISO 532-1, A.4: from third-octave levels to 20 critical bands)

    /// The core loudness of the 20 critical bands (sone/Bark), and a 21st of zero that ends the slopes.
    static func coreLoudness(_ levels: [Double], gainDB: Double) -> [Double] {
        // The eleven lowest bands: levels corrected by the equal-loudness contours at their level range,
        // then summed in powers into the three lowest critical bands.
        var intensities = [Double](repeating: 0, count: Tables.lowBands)
        for band in 0..<Tables.lowBands {
            let level = levels[band] + gainDB
            var range = 0
            while range < Tables.rangeUpperLevels.count - 1
                && level > Tables.rangeUpperLevels[range] - Tables.lowBandCorrections[range][band]
            {
                range += 1
            }
            intensities[band] = pow(10, (level + Tables.lowBandCorrections[range][band]) / 10)
        }
        let lowGroups = [0..<6, 6..<9, 9..<11]
        var excitation = lowGroups.map { group in
            let sum = group.reduce(0) { $0 + intensities[$1] }
            return sum > 0 ? 10 * log10(sum) : 0
        }
        excitation += levels[Tables.lowBands...].map { $0 + gainDB }

        var core = [Double](repeating: 0, count: Tables.criticalBands + 1)
        let s = 0.25
        for band in 0..<Tables.criticalBands {
            // Free field: the outer ear's transmission.
            var level = excitation[band] - Tables.freeFieldTransmission[band]
            let threshold = Tables.thresholdInQuiet[band]
            guard level > threshold else { continue }
            level -= Tables.criticalBandCorrection[band]
            let ratio = 1 - s + s * pow(10, 0.1 * (level - threshold))
            core[band] = max(0, Tables.loudnessScale[band] * (ratio.squareRoot().squareRoot() - 1))
        }
        // The lowest critical band is corrected for its smaller width at low loudness.
        let correction = 0.4 + 0.32 * pow(core[0], 0.2)
        if correction <= 1 { core[0] *= correction }
        return core
    }

    // MARK: - Nonlinear temporal decay (ISO 532-1, 6.4)

    /// One critical band's core loudness over time passed through the decay of hearing: fast after a short
    /// sound, slower after a long one. The filter runs at 24 steps per 0.5 ms frame on linearly interpolated
    /// input.
    static func nonlinearDecay(_ core: [Double]) -> [Double] {
        if core.allSatisfy({ $0 == 0 }) { return core }  // a band the sound never reaches stays at zero
        let steps = 24
        let filter = DecayCoefficients.atStep
        var output = core
        var uo = 0.0
        var u2 = 0.0
        for frame in core.indices {
            let current = core[frame]
            let next = frame + 1 < core.count ? core[frame + 1] : 0
            let delta = (next - current) / Double(steps)
            for step in 0..<steps {
                (uo, u2) = filter.next(input: current + Double(step) * delta, lastOutput: uo, lastSecond: u2)
                if step == 0 { output[frame] = uo }
            }
        }
        return output
    }

    /// The decay filter's coefficients for time constants of 5, 15 and 75 ms.
    struct DecayCoefficients {
        static let atStep = DecayCoefficients(step: 1 / Double(levelRate * 24))
        let b0, b1, b2, b3, b4, b5: Double

        init(step: Double) {
            let short = 0.005
            let long = 0.015
            let variable = 0.075
            let p = (variable + long) / (variable * short)
            let q = 1 / (short * variable)
            let root = (p * p / 4 - q).squareRoot()
            let lambda1 = -p / 2 + root
            let lambda2 = -p / 2 - root
            let denominator = variable * (lambda1 - lambda2)
            let e1 = exp(lambda1 * step)
            let e2 = exp(lambda2 * step)
            b0 = (e1 - e2) / denominator
            b1 = ((variable * lambda2 + 1) * e1 - (variable * lambda1 + 1) * e2) / denominator
            b2 = ((variable * lambda1 + 1) * e1 - (variable * lambda2 + 1) * e2) / denominator
            b3 = (variable * lambda1 + 1) * (variable * lambda2 + 1) * (e1 - e2) / denominator
            b4 = exp(-step / long)
            b5 = exp(-step / variable)
        }

        /// One step: a rising input passes at once; a falling one decays along two coupled paths.
        func next(input ui: Double, lastOutput: Double, lastSecond: Double) -> (output: Double, second: Double) {
            if ui < lastOutput {
                if lastOutput > lastSecond {
                    let output = max(ui, lastOutput * b2 - lastSecond * b3)
                    let second = min(output, lastOutput * b0 - lastSecond * b1)
                    return (output, second)
                }
                let output = max(ui, lastOutput * b4)
                return (output, output)
            }
            if abs(ui - lastOutput) < 1e-5 && ui <= lastSecond { return (ui, ui) }
            return (ui, (lastSecond - ui) * b5 + ui)
        }
    }

    // MARK: - Slopes and total loudness (ISO 532-1, A.4)

    /// Total loudness (sone) of one frame: the core loudness integrated over the critical-band rate, each
    /// band's loudness spreading upwards along the masking slope of its loudness range.
    static func totalLoudness(_ core: [Double]) -> Double {
        var total = 0.0
        var z1 = 0.0
        var n1 = 0.0
        var range = 0
        for band in 0..<core.count {
            let upper = Tables.bandUpperEdges[band]
            let slopeColumn = min(band - 1, 7)
            let nm = core[band]
            repeat {
                let z2: Double
                let n2: Double
                if n1 <= nm {
                    // The band's own loudness stands above the slope reaching it: it counts whole.
                    if n1 < nm {
                        range = 0
                        while range < Tables.slopeRanges.count - 1 && Tables.slopeRanges[range] > nm { range += 1 }
                    }
                    z2 = upper
                    n2 = nm
                    total += n2 * (z2 - z1)
                } else {
                    // The slope from below masks the band, down to the band's loudness or the range's end.
                    let slope = Tables.upperSlopes[range][slopeColumn]
                    var end = max(Tables.slopeRanges[range], nm)
                    var width = (n1 - end) / slope
                    if z1 + width > upper {
                        width = upper - z1
                        end = n1 - width * slope
                    }
                    z2 = z1 + width
                    n2 = end
                    total += width * (n1 + n2) / 2
                }
                if n2 <= Tables.slopeRanges[range] && range < Tables.slopeRanges.count - 1 { range += 1 }
                z1 = z2
                n1 = n2
            } while z1 < upper
        }
        total = max(0, total)
        return total <= 16 ? (total * 1000 + 0.5).rounded(.down) / 1000 : (total * 100 + 0.5).rounded(.down) / 100
    }

    // MARK: - Temporal weighting (ISO 532-1, 6.5)

    /// Two first-order low-passes of the total loudness (3.5 ms and 70 ms), mixed 0.47 : 0.53: how a short
    /// sound is heard as softer than a long one of the same level.
    static func temporalWeighting(_ loudness: [Double]) -> [Double] {
        let fast = lowPass(loudness, tau: 0.0035)
        let slow = lowPass(loudness, tau: 0.070)
        return zip(fast, slow).map { 0.47 * $0 + 0.53 * $1 }
    }

    /// A first-order low-pass run at 24 steps per frame on linearly interpolated input.
    static func lowPass(_ values: [Double], tau: Double) -> [Double] {
        let steps = 24
        let a = exp(-1 / (Double(levelRate * steps) * tau))
        var y = 0.0
        var output = values
        for index in values.indices {
            let next = index + 1 < values.count ? values[index + 1] : 0
            let delta = (next - values[index]) / Double(steps)
            for step in 0..<steps {
                y = (1 - a) * (values[index] + Double(step) * delta) + a * y
                if step == 0 { output[index] = y }
            }
        }
        return output
    }

    // MARK: - Figures from the loudness

    /// The loudness reached or exceeded 5 % of the time (the 95th percentile, linearly interpolated).
    public static func percentile5(_ loudness: [Double]) -> Double {
        guard !loudness.isEmpty else { return 0 }
        let sorted = loudness.sorted()
        let position = 0.95 * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(sorted.count - 1, low + 1)
        return sorted[low] + (position - Double(low)) * (sorted[high] - sorted[low])
    }

    /// Loudness level in phon of a loudness in sone (ISO 532-1, 5.2).
    public static func phon(sone: Double) -> Double {
        sone >= 1 ? 40 + 33.22 * log10(sone) : 40 * pow(sone + 0.0005, 0.35)
    }
}
