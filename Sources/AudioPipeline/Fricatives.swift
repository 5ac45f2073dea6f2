import Foundation

/// Where a room's noise raised the trim's threshold, a fricative before its vowel — the s of 三 and 四, the x of
/// 七 and 千, the sh of 十 — can sit under it and be cut off: 三 is then heard as "an". Its hiss lies over 3 kHz,
/// where a room's noise is weaker than over the whole band (a room's rumble and hum lie low; pink noise puts a
/// third of its power there), so the start of the sound is looked for again in that band: the windows just
/// before it whose level over 3 kHz stands over that band's own noise belong to the word.
/// Only the start: a Mandarin syllable never ends in a fricative.
public enum Fricatives {
    static let cutoffHz = 3_000.0
    static let marginDB = 1.0
    /// The least of the recording that is not sound (50 ms) that the band's noise is read from.
    static let noiseMinimumWindows = 10
    /// Longer than any fricative said before its vowel; a stretch of hiss longer than this is the room's.
    static let longestMs = 300.0
    /// A gap of this many windows under the threshold, where the hiss gives way to the vowel, ends nothing.
    static let gapWindows = 4

    /// A second-order Butterworth high-pass at `cutoffHz` (the bilinear transform's biquad), sample by sample.
    struct HighPass {
        let b0, b1, a1, a2: Double
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

        init(sampleRate: Int) {
            let omega = 2 * Double.pi * min(cutoffHz, 0.45 * Double(sampleRate)) / Double(sampleRate)
            let alpha = sin(omega) / 2.0.squareRoot()
            let norm = 1 + alpha
            (b0, b1) = ((1 + cos(omega)) / 2 / norm, -(1 + cos(omega)) / norm)
            (a1, a2) = (-2 * cos(omega) / norm, (1 - alpha) / norm)
        }

        mutating func callAsFunction(_ sample: Float) -> Float {
            let x = Double(sample)
            let y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            return Float(y)
        }
    }

    /// The mean square over `cutoffHz` of each window, as `Trim.windowEnergies` reads the whole band.
    static func energies(_ samples: [Float], sampleRate: Int, window: Int, hop: Int) -> [Double] {
        var filter = HighPass(sampleRate: sampleRate)
        return Trim.windowEnergies(samples.map { filter($0) }, window: window, hop: hop)
    }

    /// The level over 3 kHz (a mean square) a window must pass to be a fricative's: `marginDB` over that band's
    /// noise, the median of its level in the windows that are not sound (`isSound`), digital silence left out;
    /// nil with under `noiseMinimumWindows` of them. The median, not the quietest windows the whole band's floor
    /// is read from: an 8-bit recording's noise passes its quietest windows' level by 5 dB, and a breath in
    /// every pause of a session is a fifth of its windows that are not sound.
    static func threshold(_ high: [Double], isSound: (Int) -> Bool) -> Double? {
        let noise = high.indices.filter { !isSound($0) && high[$0] > Trim.digitalSilence }.map { high[$0] }
        guard noise.count >= noiseMinimumWindows else { return nil }
        return Trim.quietest(noise, fraction: 0.5) * pow(10, marginDB / 10)
    }

    /// The window where the sound starts, `first` or earlier: the run of windows before `first` (gaps of up to
    /// `gapWindows` bridged, none before `earliest`) whose level over 3 kHz passes `threshold`. A run longer than
    /// `longestMs` leaves `first` as it is.
    static func start(before first: Int, high: [Double], threshold: Double, earliest: Int = 0, hopMs: Double) -> Int {
        let longest = Int(longestMs / hopMs)
        var start = first
        var index = first - 1
        while index >= earliest, start - index <= gapWindows + 1 {
            if high[index] > threshold {
                guard first - index <= longest else { return first }
                start = index
            }
            index -= 1
        }
        return start
    }
}
