import Foundation
import PackManifest
import SpeechText

/// Which way a single syllable's pitch moves, from its start to its end (semitones, from the analysis). Said alone, a
/// first tone holds level, a second rises and a fourth falls; a recording that moves against its token's tone is
/// likely another token's under this one's name.
public struct ToneMove: Equatable, Sendable {
    /// The end over the start: negative when it falls.
    public let rise: Double

    public init?(_ analysis: Manifest.Analysis) {
        guard let start = analysis.pitchStartHz, let end = analysis.pitchEndHz else { return nil }
        rise = 12 * log2(end / start)
    }

    /// Past what each tone does on the 345 syllables read of twenty-one packs that real apps shipped
    /// (BENCHMARKS.md): first tones fall at most 1.1 semitones and rise at most 2.8, second tones fall at most 2.6,
    /// and fourth tones fall at least 1.4. A syllable of another tone goes past them more often than not: a fourth
    /// tone falls 7.7 semitones (median), a second tone rises 4.2. A third tone's dip tells less: it may fall or
    /// rise, alone or in full. A second tone that rises 5 semitones or less (40 of the real packs' 62) is not told
    /// from a first: a bound of 4 would stand 1.2 semitones over the first tones' most; 5 is their fall's bound too.
    static let firstToneFall = 5.0
    static let firstToneRise = 5.0
    static let secondToneFall = 4.0
    static let fourthToneRise = 1.0

    /// What the pitch does that `tone` does not, for a message; nil when it moves as the tone may.
    func against(_ tone: Tone) -> String? {
        switch tone {
        case .high where -rise > Self.firstToneFall, .rising where -rise > Self.secondToneFall:
            "falls \(Self.one(-rise)) semitones"
        case .high where rise > Self.firstToneRise, .falling where rise > Self.fourthToneRise:
            "rises \(Self.one(rise)) semitones"
        default: nil
        }
    }

    /// Whether a voice speaks its tones, as a speaker does: the fourth tones among `analyses` (at least
    /// `VoiceConsistency.minimumGroup` of them measured) fall `spokenFourthToneFall` or more, as a median. A
    /// synthetic voice may say every tone at about one pitch (espeak-ng's fourth tones in this repository's pack:
    /// −0.7 semitones, the median of five), and then a tone tells nothing of a recording.
    static func spoken(_ analyses: [(token: String, analysis: Manifest.Analysis)]) -> Bool {
        let falls = analyses.compactMap { token, analysis -> Double? in
            guard analysis.syllables == 1, Tone.citation(of: Token(token)) == .falling else { return nil }
            return ToneMove(analysis).map { -$0.rise }
        }
        guard falls.count >= VoiceConsistency.minimumGroup, let fall = median(falls) else { return false }
        return fall >= spokenFourthToneFall
    }

    /// Under what a speaker's fourth tones fall, as a median over a pack: 3.0 to 12.4 semitones on the twenty-one
    /// real packs (listener, a low voice whose falls the short window reads shallower, at 3.0).
    static let spokenFourthToneFall = 3.0

    private static func one(_ value: Double) -> String { String(format: "%.1f", value) }
}
