import CAubio
import Foundation

/// A syllable's vowel, as the shape of its spectrum: aubio's mel-frequency cepstral coefficients 1 to 12, averaged
/// over the frames within `loudestWithinDB` of the loudest (the vowel: a consonant before it is weaker).
///
/// The 26 mel bands span 100 Hz to 3.8 kHz, which every delivery carries (an 8 kHz recording's band ends at 4 kHz),
/// so that a narrow recording's vowel reads like a wide one's. Coefficient 0 (the level) is left out, and so is
/// everything that shifts every band alike (the microphone's tilt, the gain): the envelope is what tells 一 (i: a
/// low first formant, a high second) from 八 (a: a high first, a low second) in one voice. Two voices' envelopes
/// differ as well, so `check` only compares envelopes within a pack (`VowelGroups`).
public enum VowelEnvelope {
    static let bands: UInt32 = 26
    static let coefficients = 12
    static let lowestHz: Float = 100
    static let highestHz: Float = 3_800
    static let loudestWithinDB = 12.0
    /// Fewer loud frames than this (93 ms at 44.1 kHz, half-overlapping) give no envelope.
    static let minimumFrames = 3

    /// The envelope of `signal`'s loudest part, in the analysis' 46 ms frames (`AubioFrames.window`: 2,048 samples
    /// at 44.1 kHz, half-overlapping; 23 ms frames split the real voices' vowels less clearly, BENCHMARKS.md); nil
    /// where the signal is too short or too quiet.
    public static func measure(_ signal: Signal) -> [Double]? {
        let window = AubioFrames.window(for: signal.sampleRate)
        let hop = window / 2
        guard signal.samples.count >= window,
            let mfcc = new_aubio_mfcc(UInt32(window), bands, UInt32(coefficients + 1), UInt32(signal.sampleRate))
        else { return nil }
        aubio_mfcc_set_mel_coeffs_htk(mfcc, lowestHz, min(highestHz, Float(signal.sampleRate) * 0.45))
        var hann = Array("hanningz".utf8CString)
        let taper = new_aubio_window(&hann, UInt32(window))!
        let fft = new_aubio_fft(UInt32(window))!
        let frame = new_fvec(UInt32(window))!
        let spectrum = new_cvec(UInt32(window))!
        let cepstrum = new_fvec(UInt32(coefficients + 1))!
        defer {
            del_aubio_mfcc(mfcc)
            del_fvec(taper)
            del_aubio_fft(fft)
            del_fvec(frame)
            del_cvec(spectrum)
            del_fvec(cepstrum)
        }
        var frames: [(energy: Double, coefficients: [Double])] = []
        for start in stride(from: 0, through: signal.samples.count - window, by: hop) {
            var energy = 0.0
            for index in 0..<window {
                let sample = signal.samples[start + index]
                frame.pointee.data[index] = sample
                energy += Double(sample) * Double(sample)
            }
            fvec_weight(frame, taper)
            aubio_fft_do(fft, frame, spectrum)
            aubio_mfcc_do(mfcc, spectrum, cepstrum)
            frames.append((energy, (1...coefficients).map { Double(cepstrum.pointee.data[$0]) }))
        }
        guard let loudest = frames.map(\.energy).max(), loudest > 0 else { return nil }
        let loud = frames.filter { $0.energy >= loudest * pow(10, -loudestWithinDB / 10) }
        guard loud.count >= minimumFrames else { return nil }
        return (0..<coefficients).map { index in loud.reduce(0) { $0 + $1.coefficients[index] } / Double(loud.count) }
    }
}
