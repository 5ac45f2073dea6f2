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

    /// The high-pass the band is read through (under 0.45 of the rate, for a recording whose band ends near 3 kHz).
    static func highPass(sampleRate: Int) -> Butterworth {
        Butterworth(.highPass, cutoffHz: min(cutoffHz, 0.45 * Double(sampleRate)), sampleRate: sampleRate)
    }

    /// The mean square over `cutoffHz` of each window, as `Trim.windowEnergies` reads the whole band.
    static func energies(_ samples: [Float], sampleRate: Int, window: Int, hop: Int) -> [Double] {
        var filter = highPass(sampleRate: sampleRate)
        return Trim.windowEnergies(samples.map { Float(filter(Double($0))) }, window: window, hop: hop)
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
