import Foundation
import SpeechText

/// Where each syllable's pitch reaches, judged against its own tone in this voice.
///
/// A real voice's third tone dips far under its first tone's level, and said alone its final rise is short, so
/// a third-tone syllable's register (the 90th percentile of its pitch) sits 5–11 semitones under a first-tone
/// one's in real packs; a second tone rises only to a few semitones under it. A syllable is therefore compared
/// with the syllables of its own tone when there are `VoiceConsistency.minimumGroup` of them (their median,
/// which an odd one does not move), and otherwise with where its tone's anchor puts it under the voice's high
/// register — the median, over every measured fragment of the voice, of its register with its anchor taken
/// off. A third tone said in full (2-1-4) rises at its end back to the high register (a real voice's 九: 237,
/// 194, 282 Hz against its 一's 274), so a third tone is over where its tone reaches only past both. A phrase
/// reaches over the high register in its several syllables; phrases are compared with where that puts them
/// however many there are, so that phrases all recorded in another voice do not pass as a group of their own.
struct ToneRegisters {
    /// Each measured token's register against what its tone leads one to expect, in semitones: for a third
    /// tone, how far it lies outside the range from its anchor (or group) up to the high register, 0 within it.
    let semitones: [String: Double]
    /// What each token was compared with: the nearest end of that range for a third tone.
    let expectedHz: [String: Double]
    /// Where the voice reaches in a high tone; nil when fewer than a group's worth of syllables are measured.
    let highHz: Double?
    private let tones: [String: Tone]

    /// Semitones from the high register that each tone reaches, said alone, as measured on six packs that real
    /// apps shipped (medians against their first tones: second −4.1, third −7.0, fourth +0.6; BENCHMARKS.md),
    /// and that a phrase (no tone) reaches over its syllables.
    static func anchor(_ tone: Tone?) -> Double {
        switch tone {
        case .rising: -4
        case .low: -7
        case .high, .falling: 0
        case nil: phraseAnchor
        }
    }

    /// Semitones over the high register that a phrase reaches: on sixteen phrases of thirteen packs that real
    /// apps shipped, −0.2 to +4.3 against their single syllables (median 2.7; BENCHMARKS.md); 2.5 keeps the
    /// flattest, and the espeak-ng stand-in's (−0.3), within 3 semitones of it.
    ///
    /// Phrases count in the high register's median with it: the stand-in voice says every tone at one pitch,
    /// so over its single syllables alone the anchored registers split in two about equal heaps (first and
    /// fourth tones at one height, the rest 4–7 semitones over), and one syllable more or less moved the
    /// median from one heap to the other.
    static let phraseAnchor = 2.5

    /// Medians are taken over the tokens in `voice`: the recordings that show the pack's voice.
    init(_ registers: [(token: String, hz: Double)], voice: Set<String>) {
        var tones: [String: Tone] = [:]
        for (token, _) in registers { tones[token] = Tone.citation(of: Token(token)) }
        self.tones = tones
        let level = registers.map { (token: $0.token, tone: tones[$0.token], semitones: 12 * log2($0.hz)) }
        let basis = level.filter { voice.contains($0.token) }
        guard basis.count >= VoiceConsistency.minimumGroup,
            let high = median(basis.map { $0.semitones - Self.anchor($0.tone) })
        else {
            (semitones, expectedHz, highHz) = ([:], [:], nil)
            return
        }
        // Each tone's median, where it has a group's worth of syllables: taken once a tone, not once a syllable.
        let groupMedian = Dictionary(grouping: basis.filter { $0.tone != nil }, by: \.tone).compactMapValues {
            $0.count >= VoiceConsistency.minimumGroup ? median($0.map(\.semitones)) : nil
        }
        var semitones: [String: Double] = [:]
        var expectedHz: [String: Double] = [:]
        for syllable in level {
            let expected = groupMedian[syllable.tone] ?? high + Self.anchor(syllable.tone)
            let reach = syllable.tone == .low ? max(expected, high) : expected
            let compared = min(max(syllable.semitones, expected), reach)
            semitones[syllable.token] = syllable.semitones - compared
            expectedHz[syllable.token] = pow(2, compared / 12)
        }
        (self.semitones, self.expectedHz, highHz) = (semitones, expectedHz, pow(2, high / 12))
    }

    /// What `token` was compared with, for a message: "a third (low) tone", "a phrase".
    func likeIt(_ token: String) -> String {
        tones[token].map { "a \($0) tone" } ?? "a phrase"
    }
}
