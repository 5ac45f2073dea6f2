import Foundation

/// Loudness of a time-varying sound by ISO 532-1:2017 (Zwicker's method), for a 48 kHz signal in pascals.
///
///     third-octave levels (28 bands, every 0.5 ms) → core loudness (20 critical bands)
///       → nonlinear temporal decay → upper masking slopes and total loudness → temporal weighting
///
/// Each step follows the standard's published algorithm and tables; the results are cross-checked against
/// an independent implementation (mosqito's `loudness_zwtv`) in the tests. The third-octave levels are
/// kept apart from the rest, as intensities: a gain multiplies every one by the same factor, so
/// `loudness(gainDB:)` can be asked again at another gain without filtering the signal again — and, with the
/// standard's level tables turned into intensity factors once, without a logarithm or a power per frame.
public struct ZwickerLoudness: Sendable {
    /// The filter bank's coefficients are for this rate only.
    public static let sampleRate = 48_000
    /// Levels, core loudness and the temporal steps run at 2 kHz (one value per 0.5 ms).
    public static let levelRate = 2_000
    /// Total loudness is reported at 500 Hz (every 2 ms), as the standard's program does.
    public static let outputRate = 500

    /// Third-octave band intensities re (20 µPa)² (10·log10 of one is its level in dB SPL):
    /// `intensities[frame][band]`, 28 bands from 25 Hz to 12.5 kHz.
    let intensities: [[Double]]

    /// Frames of 0.5 ms.
    public var frames: Int { intensities.count }

    /// About how much memory the band intensities hold (each frame's array with its header).
    public var approximateBytes: Int { frames * (Tables.bands * MemoryLayout<Double>.stride + 32) }

    /// Filters `pressure` (48 kHz, pascals) into third-octave levels.
    public init(pressure: [Double]) {
        let decimation = Self.sampleRate / Self.levelRate
        let frames = (pressure.count + decimation - 1) / decimation
        var intensities = [[Double]](repeating: [Double](repeating: 0, count: Tables.bands), count: frames)
        for firstBand in stride(from: 0, to: Tables.bands, by: 4) {
            for (frame, intensity) in Self.bandIntensities(pressure, bands: firstBand).enumerated() {
                for lane in 0..<4 { intensities[frame][firstBand + lane] = intensity[lane] }
            }
        }
        self.intensities = intensities
    }

    /// How finely the two time filters run (the nonlinear decay and the temporal weighting). The standard's
    /// program steps them 24 times every 0.5 ms frame, on input interpolated between frames; two steps give
    /// N5 within 0.4 % of the standard's (0.05 phon) on the tests' tones, bursts and noise, at a twelfth of
    /// those filters' cost — for searches whose result is then measured at the standard's resolution.
    public enum Resolution: Sendable {
        case standard, quick

        var stepsPerFrame: Int { self == .standard ? 24 : 2 }
    }

    /// Total loudness in sone, every 2 ms, with every band level raised by `gainDB` — and each frame's
    /// intensities scaled by `framePowers[frame]`, when given: a slowly varying gain (a limiter's) applied
    /// after the filters instead of before them.
    public func loudness(gainDB: Double = 0, framePowers: [Double]? = nil, resolution: Resolution = .standard)
        -> [Double]
    {
        let frames = intensities.count
        let bands = Tables.criticalBands + 1
        let gain = pow(10, gainDB / 10)
        let tables = Self.frameTables
        // Band by band over time, as the decay runs along time.
        var core = [[Double]](repeating: [Double](repeating: 0, count: frames), count: bands)
        var frameCore = [Double](repeating: 0, count: bands)
        for frame in 0..<frames {
            Self.coreLoudness(intensities[frame], gain: gain * (framePowers?[frame] ?? 1), into: &frameCore, tables)
            for band in 0..<bands { core[band][frame] = frameCore[band] }
        }
        let steps = resolution.stepsPerFrame
        let decayed = Self.nonlinearDecay(core, steps: steps)
        var column = [Double](repeating: 0, count: bands)
        var total = [Double](repeating: 0, count: frames)
        for frame in 0..<frames {
            for band in 0..<bands { column[band] = decayed[band][frame] }
            total[frame] = Self.totalLoudness(column, tables)
        }
        let weighted = Self.temporalWeighting(total, steps: steps)
        return stride(from: 0, to: weighted.count, by: Self.levelRate / Self.outputRate).map { weighted[$0] }
    }

    /// The tables the frame loops read, gathered once per `loudness(gainDB:)`: a static table is reached
    /// through its lazy initializer's check on every read, which the loops would pay millions of times (and
    /// which ThreadSanitizer makes a lock).
    struct FrameTables {
        let lowBandRangeLimits = Tables.lowBandRangeLimits
        let lowBandFactors = Tables.lowBandFactors
        let audibleIntensity = Tables.audibleIntensity
        let excitationRatio = Tables.excitationRatio
        let loudnessScale = Tables.loudnessScale
        let bandUpperEdges = Tables.bandUpperEdges
        let slopeRanges = Tables.slopeRanges
        let upperSlopes = Tables.upperSlopes
    }

    static let frameTables = FrameTables()

    // MARK: - Third-octave levels (ISO 532-1, 6.3 and A.2)

    /// Four bands from `firstBand` on: three second-order sections, squaring, three first-order smoothing
    /// sections, then every 24th value (2 kHz) as an intensity re (20 µPa)². Each step of a recursive
    /// filter waits for the one before, so four bands side by side run in about the time of one.
    static func bandIntensities(_ pressure: [Double], bands firstBand: Int) -> [SIMD4<Double>] {
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
                result.append((s3 + 1e-12) / 4e-10)
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

    /// The core loudness of the 20 critical bands (sone/Bark), and a 21st of zero that ends the slopes, into
    /// `core`; `intensities` are the third-octave bands', each multiplied by `gain`. The standard states its
    /// corrections in decibels; `Tables` holds them as the intensity factors they are.
    static func coreLoudness(_ intensities: [Double], gain: Double, into core: inout [Double], _ tables: FrameTables) {
        // The eleven lowest bands: corrected by the equal-loudness contours at their level range, then summed
        // into the three lowest critical bands.
        var excitation = [0.0, 0.0, 0.0]
        for band in 0..<Tables.lowBands {
            let intensity = intensities[band] * gain
            var range = 0
            while range < tables.lowBandRangeLimits.count - 1 && intensity > tables.lowBandRangeLimits[range][band] {
                range += 1
            }
            excitation[band < 6 ? 0 : band < 9 ? 1 : 2] += intensity * tables.lowBandFactors[range][band]
        }
        let s = 0.25
        for band in 0..<Tables.criticalBands {
            let intensity = band < 3 ? excitation[band] : intensities[band + Tables.lowBands - 3] * gain
            // Heard at all once over the threshold in quiet, after the outer ear's free-field transmission.
            guard intensity > tables.audibleIntensity[band] else {
                core[band] = 0
                continue
            }
            let ratio = 1 - s + s * intensity * tables.excitationRatio[band]
            core[band] = max(0, tables.loudnessScale[band] * (ratio.squareRoot().squareRoot() - 1))
        }
        core[Tables.criticalBands] = 0
        // The lowest critical band is corrected for its smaller width at low loudness.
        let correction = 0.4 + 0.32 * pow(core[0], 0.2)
        if correction <= 1 { core[0] *= correction }
    }

    // MARK: - Nonlinear temporal decay (ISO 532-1, 6.4)

    /// Each critical band's core loudness over time (`core[band][frame]`) passed through the decay of hearing:
    /// fast after a short sound, slower after a long one. The filter runs `steps` times per 0.5 ms frame on
    /// linearly interpolated input, four bands side by side (see `DecayCoefficients.next`).
    static func nonlinearDecay(_ core: [[Double]], steps: Int) -> [[Double]] {
        let filter =
            steps == Resolution.standard.stepsPerFrame
            ? DecayCoefficients.standard : DecayCoefficients(step: 1 / Double(levelRate * steps))
        let frames = core.first?.count ?? 0
        var output = core
        for first in stride(from: 0, to: core.count, by: 4) {
            let lanes = first..<min(core.count, first + 4)
            // A band the sound never reaches stays at zero.
            if lanes.allSatisfy({ core[$0].allSatisfy { $0 == 0 } }) { continue }
            func value(_ frame: Int) -> SIMD4<Double> {
                guard frame < frames else { return SIMD4() }
                var values = SIMD4<Double>()
                for (lane, band) in lanes.enumerated() { values[lane] = core[band][frame] }
                return values
            }
            var uo = SIMD4<Double>()
            var u2 = SIMD4<Double>()
            var current = value(0)
            for frame in 0..<frames {
                let next = value(frame + 1)
                let delta = (next - current) / Double(steps)
                for step in 0..<steps {
                    (uo, u2) = filter.next(input: current + Double(step) * delta, lastOutput: uo, lastSecond: u2)
                    if step == 0 { for (lane, band) in lanes.enumerated() { output[band][frame] = uo[lane] } }
                }
                current = next
            }
        }
        return output
    }

    /// The decay filter's coefficients for time constants of 5, 15 and 75 ms.
    struct DecayCoefficients {
        static let standard = DecayCoefficients(step: 1 / Double(levelRate * Resolution.standard.stepsPerFrame))
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

        /// One step of four bands: a rising input passes at once; a falling one decays along two coupled
        /// paths (while the output is above the second path), or one (once it is not). Each lane takes the
        /// branch its own values choose, as the standard's program does band by band.
        @inline(__always)
        func next(input ui: SIMD4<Double>, lastOutput uo: SIMD4<Double>, lastSecond u2: SIMD4<Double>) -> (
            output: SIMD4<Double>, second: SIMD4<Double>
        ) {
            // The lanes' maxima and minima by mask: the generic pointwiseMax is not inlined.
            func larger(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a.replacing(with: b, where: b .> a) }
            func smaller(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
                a.replacing(with: b, where: b .< a)
            }
            let falling = ui .< uo
            let coupled = falling .& (uo .> u2)
            let single = falling .& .!coupled
            let coupledOutput = larger(ui, uo * b2 - u2 * b3)
            let singleOutput = larger(ui, uo * b4)
            var output = ui
            output.replace(with: coupledOutput, where: coupled)
            output.replace(with: singleOutput, where: single)
            // Rising: the second path follows the input, or meets it where the input holds steady under it.
            var second = (u2 - ui) * b5 + ui
            let steady = (ui - uo .< 1e-5) .& (uo - ui .< 1e-5) .& (ui .<= u2)
            second.replace(with: ui, where: .!falling .& steady)
            second.replace(with: smaller(coupledOutput, uo * b0 - u2 * b1), where: coupled)
            second.replace(with: singleOutput, where: single)
            return (output, second)
        }
    }

    // MARK: - Slopes and total loudness (ISO 532-1, A.4)

    /// Total loudness (sone) of one frame: the core loudness integrated over the critical-band rate, each
    /// band's loudness spreading upwards along the masking slope of its loudness range.
    static func totalLoudness(_ core: [Double], _ tables: FrameTables) -> Double {
        var total = 0.0
        var z1 = 0.0
        var n1 = 0.0
        var range = 0
        for band in 0..<core.count {
            let upper = tables.bandUpperEdges[band]
            let slopeColumn = min(band - 1, 7)
            let nm = core[band]
            repeat {
                let z2: Double
                let n2: Double
                if n1 <= nm {
                    // The band's own loudness stands above the slope reaching it: it counts whole.
                    if n1 < nm {
                        range = 0
                        while range < tables.slopeRanges.count - 1 && tables.slopeRanges[range] > nm { range += 1 }
                    }
                    z2 = upper
                    n2 = nm
                    total += n2 * (z2 - z1)
                } else {
                    // The slope from below masks the band, down to the band's loudness or the range's end.
                    let slope = tables.upperSlopes[range][slopeColumn]
                    var end = max(tables.slopeRanges[range], nm)
                    var width = (n1 - end) / slope
                    if z1 + width > upper {
                        width = upper - z1
                        end = n1 - width * slope
                    }
                    z2 = z1 + width
                    n2 = end
                    total += width * (n1 + n2) / 2
                }
                if n2 <= tables.slopeRanges[range] && range < tables.slopeRanges.count - 1 { range += 1 }
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
    static func temporalWeighting(_ loudness: [Double], steps: Int) -> [Double] {
        let fast = lowPass(loudness, tau: 0.0035, steps: steps)
        let slow = lowPass(loudness, tau: 0.070, steps: steps)
        return zip(fast, slow).map { 0.47 * $0 + 0.53 * $1 }
    }

    /// A first-order low-pass run `steps` times per frame on linearly interpolated input.
    static func lowPass(_ values: [Double], tau: Double, steps: Int) -> [Double] {
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
