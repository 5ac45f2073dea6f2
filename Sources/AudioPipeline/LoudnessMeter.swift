import CEBUR128
import Foundation

/// Loudness and true peak by ITU-R BS.1770, measured with libebur128.
///
/// `fragmentLoudness` is the measure `assets` normalizes to:
///
/// - a fragment of 400 ms or more: BS.1770 integrated loudness, exactly (400 ms blocks every 100 ms,
///   gated at −70 LUFS and 10 LU under the gated mean);
/// - a shorter fragment, which has no complete 400 ms block and so is −∞ to BS.1770: the K-weighted
///   power of 20 ms blocks every 5 ms (the same filter, from libebur128), blocks under −70 LUFS left out,
///   averaged with each block weighted by its own power. A steady sound measures exactly as BS.1770 would
///   measure a long stretch of it; the fricative, attack, decay and pre-roll of a syllable count in
///   proportion to their energy, so a syllable measures the same whether it lasts 250 ms or 1.5 s, where
///   a plain mean over the fragment would read it 2–3 LU low.
public enum LoudnessMeter {
    /// Fragments at least this long are measured by BS.1770 integrated loudness.
    public static let integratedFromMs = 400.0
    static let shortBlockMs = 20
    static let shortStepMs = 5.0

    /// The fragment loudness (LUFS) and the true peak (dBTP), in one pass over the signal.
    public static func measure(_ signal: Signal) -> (loudnessLUFS: Double, truePeakDBTP: Double) {
        let peakMode = Int32(EBUR128_MODE_TRUE_PEAK.rawValue)
        if signal.durationMs >= integratedFromMs {
            let state = EBUR128State(sampleRate: signal.sampleRate, mode: Int32(EBUR128_MODE_I.rawValue) | peakMode)
            state.add(signal.samples[...])
            return (state.integratedLoudness, state.truePeakDBTP)
        }
        let state = EBUR128State(sampleRate: signal.sampleRate, mode: Int32(EBUR128_MODE_M.rawValue) | peakMode)
        return (shortLoudness(signal, state: state), state.truePeakDBTP)
    }

    /// The loudness `assets` normalizes to, in LUFS; −∞ for silence.
    public static func fragmentLoudness(_ signal: Signal) -> Double {
        if signal.durationMs >= integratedFromMs { return integratedLoudness(signal) }
        return shortLoudness(
            signal, state: EBUR128State(sampleRate: signal.sampleRate, mode: Int32(EBUR128_MODE_M.rawValue)))
    }

    /// Power-weighted 20 ms blocks, fed through `state` (which sees every sample once).
    private static func shortLoudness(_ signal: Signal, state: EBUR128State) -> Double {
        let block = signal.frames(ms: Double(shortBlockMs))
        guard signal.frames >= block else {
            state.add(signal.samples[...])
            return state.windowLoudness(ms: max(1, Int(signal.durationMs)))
        }
        let step = signal.frames(ms: shortStepMs)
        state.add(signal.samples[0..<block])
        var powers = [state.windowPower(ms: shortBlockMs)]
        var fed = block
        while fed + step <= signal.frames {
            state.add(signal.samples[fed..<(fed + step)])
            fed += step
            powers.append(state.windowPower(ms: shortBlockMs))
        }
        let audible = powers.filter { $0 > power(ofLoudness: -70) }
        guard !audible.isEmpty else { return -.infinity }
        let weighted = audible.reduce(0) { $0 + $1 * $1 } / audible.reduce(0, +)
        return loudness(ofPower: weighted)
    }

    /// BS.1770: loudness = −0.691 + 10·log10(mean square of the K-weighted signal).
    static func loudness(ofPower power: Double) -> Double { power > 0 ? -0.691 + 10 * log10(power) : -.infinity }
    static func power(ofLoudness loudness: Double) -> Double { pow(10, (loudness + 0.691) / 10) }

    /// BS.1770 integrated loudness as libebur128 computes it (−∞ under 400 ms): the reference.
    public static func integratedLoudness(_ signal: Signal) -> Double {
        let state = EBUR128State(sampleRate: signal.sampleRate, mode: Int32(EBUR128_MODE_I.rawValue))
        state.add(signal.samples[...])
        return state.integratedLoudness
    }

    /// The 4× oversampled true peak in dBTP.
    public static func truePeak(_ signal: Signal) -> Double {
        let state = EBUR128State(sampleRate: signal.sampleRate, mode: Int32(EBUR128_MODE_TRUE_PEAK.rawValue))
        state.add(signal.samples[...])
        return state.truePeakDBTP
    }
}

/// One libebur128 state for a mono signal, owned and destroyed here.
final class EBUR128State {
    let pointer: UnsafeMutablePointer<ebur128_state>

    init(sampleRate: Int, mode: Int32) {
        guard let state = ebur128_init(1, UInt(sampleRate), mode) else {
            fatalError("libebur128 could not allocate a state for \(sampleRate) Hz")
        }
        pointer = state
    }

    deinit {
        var state: UnsafeMutablePointer<ebur128_state>? = pointer
        ebur128_destroy(&state)
    }

    func add(_ samples: ArraySlice<Float>) {
        samples.withUnsafeBufferPointer { _ = ebur128_add_frames_float(pointer, $0.baseAddress, $0.count) }
    }

    /// The K-weighted loudness of the last `ms` milliseconds fed, in LUFS.
    func windowLoudness(ms: Int) -> Double {
        var loudness = -Double.infinity
        ebur128_loudness_window(pointer, UInt(ms), &loudness)
        return loudness
    }

    var integratedLoudness: Double {
        var loudness = -Double.infinity
        ebur128_loudness_global(pointer, &loudness)
        return loudness
    }

    var truePeakDBTP: Double {
        var peak = 0.0
        ebur128_true_peak(pointer, 0, &peak)
        return Decibels.amplitude(peak)
    }

    /// The K-weighted mean square of the last `ms` milliseconds fed.
    func windowPower(ms: Int) -> Double { LoudnessMeter.power(ofLoudness: windowLoudness(ms: ms)) }
}
