import Foundation
import PackManifest
import SpeechText
import VoicePack

/// Each fragment's voice against the pack's: the recording that does not match the rest — another voice or
/// register, a narrower band, more noise, another pace — read from the manifest's `analysis` (nothing is
/// decoded). `check` reports what it finds in the category `consistency`; `audit` shows the typical values
/// and marks the outliers.
///
/// Typical values are medians over the fragments — those delivered the usual way, where more than half the pack
/// came one way (below) — which one odd recording (or a few) does not move. Pitch is
/// compared tone by tone (`ToneRegisters`): a third tone dips far under a first tone in any real voice. Band
/// is compared with every fragment; noise only where it is audible; pace with fragments of its kind, single
/// syllables and phrases apart (a phrase's syllables run faster), phrases with the single syllables while
/// there are fewer than `minimumGroup` of them. A single syllable whose pitch moves against its tone is said to be
/// in another tone, one that should start with its voice but starts with a consonant (or, 五, with a hiss) is said
/// to, and a 七 十 千 三 or 四 that starts without its consonant is said to (`onsetProblem`), and 一 七 八 三 whose
/// vowels pair otherwise than their names are said to sound like the other vowel (`VowelGroups`), and two of a
/// pair (二 六, 零 九, 八 零, 万 亿, 八 六, 点 百, 零 五, 七 九) whose kin lie nearer the other one to be under each
/// other's names (`VowelKin`): another token's recording under its name, likely.
///
/// A recording delivered apart from the rest — another format, rate or channel count than more than half the
/// pack shares — is no mismatch by itself, but on packs that real apps shipped it was each time another voice's or
/// a later session's (a phrase taken from another app, digits of another pack, three units added later): it is
/// said, as a warning, of a recording nothing else sets apart, and such recordings do not set the typical values
/// (a real pack's six intruders, two of its three second tones, had made its own 零 "another voice").
public struct VoiceConsistency: Sendable {
    public struct Typical: Equatable, Sendable {
        /// Where the voice reaches in a high (first) or falling (fourth) tone.
        public var pitchRegisterHz: Double?
        public var bandwidthHz: Double?
        public var snrDB: Double?
        public var syllableMs: Double?
        public var phraseSyllableMs: Double?
        /// How long after its sound the voice starts in a syllable that starts with its voice (`Onset.voice`), and
        /// in one that starts with q or sh (`Onset.longConsonant`: 七 十 千).
        public var voiceOnsetMs: Double?
        public var longConsonantOnsetMs: Double?
        /// Each s syllable's (三 四: `Onset.s`) where its recording can carry its s (`carriesHiss`): each is judged
        /// against the others.
        public var sOnsetsMs: [String: Double] = [:]
        /// How more than half the pack's recordings were delivered.
        public var delivery: Delivery?
    }

    /// A way of delivering recordings (`Manifest.Source.delivery`), and how many of the pack's came so.
    public struct Delivery: Equatable, Sendable, Encodable {
        public var way: String
        public var recordings: Int
        public var total: Int

        /// The way more than half of `sources` came, when there is one and it is at least `minimumGroup`.
        init?(usualOf sources: [Manifest.Source]) {
            let counts = Dictionary(grouping: sources, by: \.delivery).mapValues(\.count)
            guard let (way, recordings) = counts.max(by: { $0.value < $1.value }),
                recordings * 2 > sources.count, recordings >= VoiceConsistency.minimumGroup
            else { return nil }
            (self.way, self.recordings, total) = (way, recordings, sources.count)
        }
    }

    /// What is odd about a fragment.
    public enum Kind: String, Sendable, CaseIterable {
        case voice, tone, onset, vowel, band, noise, pace, unmeasured, delivery

        /// Whether it says the voice does not match (`consistency.severity`), rather than what a reviewer should
        /// listen to (a warning): a pitch not measured, a recording delivered apart.
        public var isMismatch: Bool { self != .unmeasured && self != .delivery }

        /// As `check` names it, beside the category `consistency`.
        public var diagnosticKind: Diagnostic.Kind {
            switch self {
            case .voice: .voice
            case .tone: .tone
            case .onset: .onset
            case .vowel: .vowel
            case .band: .band
            case .noise: .noise
            case .pace: .pace
            case .unmeasured: .unmeasured
            case .delivery: .delivery
            }
        }
    }

    public struct Finding: Equatable, Sendable {
        public let kind: Kind
        public let token: String
        /// The recording, as the manifest names it.
        public let recording: String
        public let message: String
        public let fix: String
    }

    public let typical: Typical
    /// Each measured fragment's register against where its tone puts it in this voice, in semitones.
    public let registerSemitones: [String: Double]
    /// The thresholds it compared with.
    public let settings: Settings.Consistency
    /// By token, in the manifest's order; fragments the designer accepted have none.
    public let findings: [String: [Finding]]

    /// The smallest group of fragments whose median is a typical value.
    static let minimumGroup = 3
    /// Noise this far under the voice is not heard in a notification: played at the target level a voice
    /// peaks around 74 dB SPL (at `loudness.fullScaleDBSPL` 90), so its noise sits under 44 dB SPL, the
    /// level of a quiet office, which masks it wherever a phone is heard. Closer noise is reported when it is
    /// also `noiseDB` more than the pack's typical: noise the whole pack shares does not set one fragment apart.
    public static let audibleNoiseDB = 30.0
    /// A phrase's syllables take about this share of a syllable said alone (0.46–0.88 on five packs that real
    /// apps shipped, median 0.74), for comparing a phrase's pace while there are too few phrases for their own.
    static let phraseSyllableShare = 0.7

    public init(manifest: Manifest, settings: Settings.Consistency) {
        let analysed = manifest.fragments.compactMap { fragment in fragment.analysis.map { (fragment, $0) } }
        let delivery = Delivery(usualOf: manifest.fragments.map(\.source))
        // The voice's typical values are the recordings' delivered the usual way, where there is one.
        let voice = delivery.map { usual in analysed.filter { $0.0.source.delivery == usual.way } } ?? analysed
        let registers = ToneRegisters(
            analysed.compactMap { fragment, analysis in analysis.pitchRegisterHz.map { (fragment.token, $0) } },
            voice: Set(voice.map(\.0.token)))
        registerSemitones = registers.semitones
        let tonesSpoken = ToneMove.spoken(voice.map { ($0.0.token, $0.1) })
        let singles = voice.filter { $0.1.syllables == 1 }.map(\.1.msPerSyllable)
        let phrases = voice.filter { $0.1.syllables > 1 }.map(\.1.msPerSyllable)
        typical = Typical(
            pitchRegisterHz: registers.highHz,
            bandwidthHz: Self.typical(voice.compactMap(\.1.bandwidthHz)),
            snrDB: Self.typical(voice.map(\.1.snrDB)),
            syllableMs: Self.typical(singles),
            phraseSyllableMs: Self.typical(phrases) ?? Self.typical(singles).map { $0 * Self.phraseSyllableShare },
            voiceOnsetMs: Self.typical(Self.onsets(voice, .voice)),
            longConsonantOnsetMs: Self.typical(Self.onsets(voice, .longConsonant)),
            sOnsetsMs: Self.sOnsets(voice),
            delivery: delivery)
        self.settings = settings
        var findings: [String: [Finding]] = [:]
        for (fragment, analysis) in analysed where !Self.accepts(fragment, settings) {
            let odd = Self.compare(
                fragment, analysis, with: typical, registers: registers, tonesSpoken: tonesSpoken, settings: settings)
            if !odd.isEmpty { findings[fragment.token] = odd }
        }
        let vowels = VowelGroups(
            voice.filter { $0.1.syllables == 1 && !Self.accepts($0.0, settings) }.compactMap { fragment, analysis in
                analysis.vowelMFCC.map { (fragment.token, $0) }
            })
        for (fragment, _) in voice {
            guard let vowel = Self.vowelFinding(fragment, vowels) else { continue }
            findings[fragment.token, default: []].append(vowel)
        }
        // Judged only where nothing above sets a syllable apart: a swap the rules above half caught (八's name on
        // 九's take, called another tone, and 九's on 八's, not) leaves a kin that is not what its name says.
        let syllablesMatch = !analysed.contains { fragment, analysis in
            analysis.syllables == 1 && (findings[fragment.token] ?? []).contains { $0.kind.isMismatch }
        }
        let kin = VowelKin(
            syllablesMatch
                ? voice.filter { fragment, analysis in analysis.syllables == 1 && !Self.accepts(fragment, settings) }
                    .compactMap { fragment, analysis in analysis.vowelMFCC.map { (fragment.token, $0) } } : [])
        for (fragment, _) in voice {
            guard let swap = Self.kinFinding(fragment, kin) else { continue }
            findings[fragment.token, default: []].append(swap)
        }
        self.findings = findings
    }

    /// A syllable whose vowel sounds like the other vowel's syllables in this voice (`VowelGroups`): another
    /// token's recording under its name, likely, and where one syllable of each vowel is out of its group, the two
    /// swapped.
    static func vowelFinding(_ fragment: Manifest.Fragment, _ vowels: VowelGroups) -> Finding? {
        guard let odd = vowels.misplaced[fragment.token] else { return nil }
        let entry = Settings.Acceptance.pinning(fragment.source.file, sha256: fragment.source.sha256)
        let others = vowels.misplaced.filter { $0.key != fragment.token && $0.value.ownVowel == odd.vowel }
        let swapped =
            others.count == 1
            ? "; \(others.keys.first!) sounds like \(odd.ownVowel): the two may be under each other's names" : ""
        return Finding(
            kind: .vowel, token: fragment.token, recording: fragment.source.file,
            message:
                "\(fragment.token): its vowel sounds like \(odd.soundsLike.joined(separator: " "))'s (said with \(odd.vowel)), not like \(odd.unlike.joined(separator: " "))'s (said with \(odd.ownVowel)), in this voice\(swapped)",
            fix:
                "listen to it (assets audit): if it is another token's recording, give it that token's name; if it is this one, re-record it; or, if it is meant, add \(entry) to consistency.accept in assets.json (this take)"
        )
    }

    /// A syllable that sounds less like its vowel's kin than its partner does, and its partner more (`VowelKin`):
    /// the two under each other's names, likely.
    static func kinFinding(_ fragment: Manifest.Fragment, _ kin: VowelKin) -> Finding? {
        guard let swap = kin.swapped[fragment.token] else { return nil }
        let entry = Settings.Acceptance.pinning(fragment.source.file, sha256: fragment.source.sha256)
        let evidence = swap.evidence.map { side in
            let other = side.token == fragment.token ? swap.partner : fragment.token
            return
                "\(side.token) sounds less like \(side.kin.joined(separator: " ")) (\(side.vowel)) than \(other) does"
        }
        return Finding(
            kind: .vowel, token: fragment.token, recording: fragment.source.file,
            message:
                "\(fragment.token): it and \(swap.partner) may be under each other's names: \(evidence.joined(separator: ", and "))",
            fix:
                "listen to both (assets audit): if each says the other's token, swap their names; if one says neither, re-record it; or, if it is meant, add \(entry) to consistency.accept in assets.json (this take)"
        )
    }

    /// Whether `token`'s fragment stands apart from the voice (a mismatch), whether its recording was delivered
    /// apart from the rest, and whether its pitch could not be measured: what the reports count and mark. The
    /// last two say nothing of whether it matches.
    public func standsApart(_ token: String) -> Bool {
        findings[token]?.contains { $0.kind.isMismatch } ?? false
    }

    public func deliveredApart(_ token: String) -> Bool {
        findings[token]?.contains { $0.kind == .delivery } ?? false
    }

    public func unmeasured(_ token: String) -> Bool {
        findings[token]?.contains { $0.kind == .unmeasured } ?? false
    }

    /// The designer heard `fragment`'s recording and accepted it as it is (`consistency.accept`): it is compared
    /// with nothing.
    public func accepts(_ fragment: Manifest.Fragment) -> Bool { Self.accepts(fragment, settings) }

    /// Whether `consistency.accept` accepts `fragment`'s recording by its name alone, whatever the take.
    public func acceptsByName(_ fragment: Manifest.Fragment) -> Bool {
        settings.accept.contains { $0.take == nil && $0.recording == fragment.source.file }
    }

    static func accepts(_ fragment: Manifest.Fragment, _ settings: Settings.Consistency) -> Bool {
        settings.accept.contains { $0.accepts(fragment.source.file, sha256: fragment.source.sha256) }
    }

    static func typical(_ values: [Double]) -> Double? {
        values.count >= minimumGroup ? median(values) : nil
    }

    static func compare(
        _ fragment: Manifest.Fragment, _ analysis: Manifest.Analysis, with typical: Typical,
        registers: ToneRegisters, tonesSpoken: Bool, settings: Settings.Consistency
    ) -> [Finding] {
        let entry = Settings.Acceptance.pinning(fragment.source.file, sha256: fragment.source.sha256)
        let accept = "or, if it is meant, add \(entry) to consistency.accept in assets.json (this take)"
        let noise = noiseProblem(analysis, typical, settings, accept: accept)
        // Noise covers the top of a band, so a noisy recording's band is not held against it as well; and a
        // band cut as a telephone line cuts it leaves a pitch tracker a harmonic to read (a real 五 through
        // one read at 3/2 of its pitch), so its pitch is not held against it either: one true reason is said.
        let rate = fragment.source.readAsMonoSampleRate ?? fragment.source.sampleRate
        let band = noise == nil ? bandProblem(analysis, typical, settings, fileRate: rate, accept: accept) : nil
        let problems = [
            band == nil
                ? toneProblem(fragment.token, analysis, spoken: tonesSpoken, accept: accept)
                    ?? pitchProblem(fragment.token, analysis, registers, settings, accept: accept) : nil, noise,
            band, onsetProblem(fragment.token, analysis, typical, accept: accept),
            paceProblem(analysis, typical, settings, accept: accept),
        ].compactMap { $0 }
        let delivery = problems.isEmpty ? deliveryProblem(fragment.source, typical, accept: accept) : nil
        return (problems + [delivery].compactMap { $0 }).map { kind, message, fix in
            Finding(
                kind: kind, token: fragment.token, recording: fragment.source.file,
                message: "\(fragment.token): \(message)", fix: fix)
        }
    }

    typealias Problem = (kind: Kind, message: String, fix: String)

    /// A single syllable whose pitch moves against its token's tone — a first or second tone that falls, a fourth
    /// that rises (`ToneMove`) — is likely another token's recording under this one's name, and the pack would say
    /// another number. It is said instead of the register it may also miss. Judged only where the pack's voice
    /// speaks its tones (`ToneMove.spoken`): a synthetic voice may say them all alike.
    static func toneProblem(_ token: String, _ analysis: Manifest.Analysis, spoken: Bool, accept: String) -> Problem? {
        guard spoken, analysis.syllables == 1, let tone = Tone.citation(of: Token(token)),
            let move = ToneMove(analysis), let odd = move.against(tone)
        else { return nil }
        return (
            .tone,
            "said in another tone: its pitch \(odd), where \(token) is said in a \(tone) tone",
            "listen to it (assets audit): if it is another token's recording, give it that token's name; if it is this one, re-record it in its tone; \(accept)"
        )
    }

    /// The voice onsets of the single syllables among `fragments` that start with `onset`.
    private static func onsets(_ fragments: [(Manifest.Fragment, Manifest.Analysis)], _ onset: Onset) -> [Double] {
        fragments.filter { $0.1.syllables == 1 && Onset.of(Token($0.0.token)) == onset }.compactMap(\.1.voiceOnsetMs)
    }

    /// The voice onsets of the s syllables among `fragments` recorded clean enough to carry their s, by token.
    private static func sOnsets(_ fragments: [(Manifest.Fragment, Manifest.Analysis)]) -> [String: Double] {
        var onsets: [String: Double] = [:]
        for (fragment, analysis) in fragments
        where analysis.syllables == 1 && Onset.of(Token(fragment.token)) == .s && carriesHiss(analysis) {
            onsets[fragment.token] = analysis.voiceOnsetMs
        }
        return onsets
    }

    /// A syllable that starts with its voice (一 五 六 零 万 元 …) whose voice starts `consonantOnsetMs` later than
    /// the pack's such syllables' do starts with a consonant; one that starts with q or sh (七 十 千) whose voice
    /// starts less than `longConsonantOnsetMs` later than theirs starts without it. Either is likely another token's
    /// recording (a breath or a noise before the word, at best, for the first).
    ///
    /// On the twenty-one packs real apps shipped, as they came and over a room's noise or a hiss, a voice-first
    /// syllable's voice started at most 70 ms later than its pack's typical (a creaky start, a glottal stop before
    /// 五); 七 十 千 started theirs 61–290 ms later. The second judgement is made only where the pack's 七 十 千 start
    /// their voice `longConsonantsShownMs` or more later, as a median: a synthetic voice may start every syllable
    /// with its voice.
    ///
    /// An s (三 四) is judged as q and sh are, against the pack's other s syllable, only where both carry their s
    /// (`carriesHiss`) and the other's voice starts `consonantOnsetMs` or more later than the voice-first syllables':
    /// a weak s, or one cut short, left real 三 and 四 starting only 30–35 ms later (on two of twenty-one packs that
    /// real apps shipped, their other s at 139 and 53 ms), where the rest of theirs started 52–290 ms later. A 五
    /// whose voice starts `hissLaterMs` later after a hiss (`hissShareDB`) is another token's too (`saidWithU`).
    static func onsetProblem(_ token: String, _ analysis: Manifest.Analysis, _ typical: Typical, accept: String)
        -> Problem?
    {
        guard analysis.syllables == 1, let onset = analysis.voiceOnsetMs, let usual = typical.voiceOnsetMs else {
            return nil
        }
        let later = onset - usual
        let median = "the pack's syllables that start with their voice: \(ms(usual)) in, the median"
        let listen = "listen to it (assets audit): if it is another token's recording"
        switch Onset.of(Token(token)) {
        case .voice where later > consonantOnsetMs:
            return (
                .onset,
                "starts with a consonant: its voice starts \(ms(onset)) into its sound, where \(token) starts with its voice (\(median))",
                "\(listen) (三 四 七 十 千 start with a consonant this long), give it that token's name; if a breath or a noise comes before the word, cut it or re-record it; \(accept)"
            )
        case .longConsonant where later < longConsonantOnsetMs:
            guard let long = typical.longConsonantOnsetMs, long - usual >= longConsonantsShownMs else { return nil }
            return (
                .onset,
                "starts without its consonant: its voice starts \(ms(onset)) into its sound, where \(token) starts with q or sh (this pack's 七 十 千: \(ms(long)) in; \(median))",
                "\(listen), give it that token's name; if it is this one, re-record it with its consonant; \(accept)"
            )
        case .voice where saidWithU.contains(token) && later > hissLaterMs && carriesHiss(analysis):
            guard let share = analysis.onsetHighBandDB, share >= hissShareDB else { return nil }
            return (
                .onset,
                "starts with a hiss: its voice starts \(ms(onset)) into its sound, after a sound whose level over 3 kHz is within \(one(-share)) dB of its whole level, where \(token) starts with its voice, a w and a u that carry almost nothing over 3 kHz (\(median))",
                "\(listen) (九 starts with a hiss this long), give it that token's name; \(accept)"
            )
        case .s where later < longConsonantOnsetMs && carriesHiss(analysis):
            let others = typical.sOnsetsMs.filter { $0.key != token }
            guard let shown = others.max(by: { $0.value < $1.value }), shown.value - usual >= consonantOnsetMs else {
                return nil
            }
            return (
                .onset,
                "starts without its s: its voice starts \(ms(onset)) into its sound, where \(token) starts with s (this pack's \(shown.key): \(ms(shown.value)) in; \(median))",
                "\(listen), give it that token's name; if it is this one, re-record it with its s; \(accept)"
            )
        default:
            return nil
        }
    }

    /// How much later than the pack's typical a syllable that starts with its voice may start it, how much later
    /// one that starts with q or sh must, and how much later a pack's such syllables must, as a median, for that to
    /// be judged (see `onsetProblem`).
    static let consonantOnsetMs = 90.0
    static let longConsonantOnsetMs = 30.0
    static let longConsonantsShownMs = 60.0
    /// Whether a recording can carry a hiss before its voice — an s, a j — for `onsetProblem` to judge: its noise
    /// `hissHeardSNRDB` under its voice, and its band reaching `hissBandHz`. An s is a faint hiss, most of it over
    /// 4 kHz. On the twenty-one real packs laid over a hiss 45 dB under full scale (20–46 dB under their voices)
    /// three 三 lost theirs (their voices started 0–17 ms after their packs' voice-first syllables', their 四's
    /// 99–128 ms after), while as shipped (42–120 dB) none did; an 8 kHz pack's 三 (a band to 3.6 kHz) started its
    /// voice only 30 ms after them.
    static func carriesHiss(_ analysis: Manifest.Analysis) -> Bool {
        analysis.snrDB >= hissHeardSNRDB && (analysis.bandwidthHz ?? 0) >= hissBandHz
    }

    static let hissHeardSNRDB = 50.0
    static let hissBandHz = 5_000.0
    /// 五 starts with w and u, which carry almost nothing over 3 kHz: a hiss before its voice (the j of 九, both
    /// third tones) is another token's. On the twenty-one real packs a 五's sound before its voice lay 27 dB or
    /// more under its whole level over 3 kHz, where it lasted up to 70 ms more than the pack's voice-first
    /// syllables'; a 九's j lay within 19 dB of it, 35–128 ms longer than theirs.
    static let saidWithU: Set<String> = ["五", "伍"]
    static let hissShareDB = -25.0
    static let hissLaterMs = 20.0

    static func pitchProblem(
        _ token: String, _ analysis: Manifest.Analysis, _ registers: ToneRegisters, _ settings: Settings.Consistency,
        accept: String
    ) -> Problem? {
        if let register = analysis.pitchRegisterHz, let semitones = registers.semitones[token],
            let expected = registers.expectedHz[token], abs(semitones) > settings.pitchSemitones
        {
            return (
                .voice,
                "another voice or register: its pitch reaches \(hz(register)), \(one(abs(semitones))) semitones \(semitones < 0 ? "under" : "over") where this voice reaches in \(registers.likeIt(token)) (\(hz(expected))) (consistency.pitchSemitones \(one(settings.pitchSemitones)))",
                "re-record it with the pack's voice, in its register; \(accept)"
            )
        }
        guard analysis.pitchRegisterHz == nil && settings.reportUnmeasured else { return nil }
        return (
            .unmeasured,
            "no pitch could be measured (\(Int((analysis.voicedFraction * 100).rounded())) % of its frames voiced), so its voice was not compared with the pack's",
            "listen to it beside the rest; or set consistency.reportUnmeasured to false"
        )
    }

    static func noiseProblem(
        _ analysis: Manifest.Analysis, _ typical: Typical, _ settings: Settings.Consistency, accept: String
    ) -> Problem? {
        guard let usual = typical.snrDB, analysis.snrDB < Self.audibleNoiseDB, usual - analysis.snrDB > settings.noiseDB
        else { return nil }
        return (
            .noise,
            "an audible noise floor, far above the rest: \(one(analysis.snrDB)) dB under the voice (audible from \(one(Self.audibleNoiseDB)) dB), where the pack's typical is \(one(usual)) dB (consistency.noiseDB \(one(settings.noiseDB)))",
            "re-record it somewhere quieter, or with the microphone closer; \(accept)"
        )
    }

    /// A band that ends near half the file's rate was cut by that rate (a recording exported at 16 kHz, or a
    /// TTS's output): exporting the file again at a higher rate would not bring it back, so the fix says so.
    static func bandProblem(
        _ analysis: Manifest.Analysis, _ typical: Typical, _ settings: Settings.Consistency, fileRate: Int,
        accept: String
    ) -> Problem? {
        guard let usual = typical.bandwidthHz else { return nil }
        let octaves = analysis.bandwidthHz.map { log2(usual / $0) } ?? .infinity
        guard octaves > settings.bandwidthOctaves else { return nil }
        let band =
            analysis.bandwidthHz.map { "its band ends at \(khz($0)), \(one(octaves)) octaves under" }
            ?? "no band of it stands clear of its noise, against"
        let nyquist = Double(fileRate) / 2
        let cutByRate = analysis.bandwidthHz.map { $0 >= Self.rateCutShare * nyquist } ?? false
        let fix =
            cutByRate
            ? "its file is at \(fileRate) Hz, which holds nothing over \(khz(nyquist)): export it again from a recording at the pack's rate, or re-record it (resampling this file up does not bring the band back)"
            : "re-record or re-export it at the pack's quality (not through a phone line, a low sample rate or a lossy export)"
        return (
            .band,
            "a narrower band than the rest: \(band) the pack's typical \(khz(usual)) (consistency.bandwidthOctaves \(one(settings.bandwidthOctaves)))",
            "\(fix); \(accept)"
        )
    }

    /// How near half its file's rate a band must end to have been cut by that rate. A band is the upper edge of
    /// a third octave, and the highest that fits under half a rate lies at 0.81–0.94 of it (8, 16 and 32 kHz:
    /// 0.89; 22.05 and 44.1 kHz: 0.81); the real packs' 16 kHz and 8 kHz files read 0.89. A telephone line's
    /// band in a 16 kHz file reads 0.45.
    static let rateCutShare = 0.7

    /// Said only of a recording nothing else sets apart: where the voice differs, that is the reason to give.
    static func deliveryProblem(_ source: Manifest.Source, _ typical: Typical, accept: String) -> Problem? {
        guard let usual = typical.delivery, source.delivery != usual.way else { return nil }
        return (
            .delivery,
            "delivered apart from the rest: \(source.delivery), where \(usual.recordings) of the pack's \(usual.total) recordings are \(usual.way)",
            "a recording exported apart is often from another session, microphone or voice: listen to it beside the rest (assets audit), and export it as they were or re-record it with them; \(accept)"
        )
    }

    static func paceProblem(
        _ analysis: Manifest.Analysis, _ typical: Typical, _ settings: Settings.Consistency, accept: String
    ) -> Problem? {
        let usualPace = analysis.syllables > 1 ? typical.phraseSyllableMs : typical.syllableMs
        guard let usual = usualPace, usual > 0, analysis.msPerSyllable > 0 else { return nil }
        let ratio = analysis.msPerSyllable / usual
        guard ratio > settings.paceRatio || ratio < 1 / settings.paceRatio else { return nil }
        return (
            .pace,
            "another pace: \(Int(analysis.msPerSyllable.rounded())) ms a syllable, \(String(format: "%.2f", ratio))× the pack's typical \(Int(usual.rounded())) ms (consistency.paceRatio \(one(settings.paceRatio)))",
            "re-record it at the pack's pace, or cut the pauses inside it; \(accept)"
        )
    }

    private static func one(_ value: Double) -> String { String(format: "%.1f", value) }
    private static func hz(_ value: Double) -> String { "\(Int(value.rounded())) Hz" }
    private static func ms(_ value: Double) -> String { "\(Int(value.rounded())) ms" }
    private static func khz(_ value: Double) -> String { String(format: "%.1f kHz", value / 1000) }
}

extension PackChecker {
    /// Each fragment's voice matches the pack's (category `consistency`), and every accepted recording is one
    /// the pack was built from.
    static func checkConsistency(
        _ manifest: Manifest, settings: Settings, voices consistency: VoiceConsistency, paths: PackPaths,
        into report: inout CheckReport
    ) {
        report.voices = consistency
        for fragment in manifest.fragmentsInReadingOrder where fragment.analysis != nil {
            // A measurement the tool could not make is no fault of the recording, and a recording delivered apart
            // is something to listen to: warnings, at most.
            let findings = (consistency.findings[fragment.token] ?? []).map {
                Diagnostic(
                    $0.kind.isMismatch ? settings.consistency.severity : .warning,
                    paths.subject(manifestPath: $0.recording), .consistency, $0.kind.diagnosticKind, $0.message,
                    fix: $0.fix)
            }
            report.add(.consistency, fragment.source.file, findings)
        }
        let built = Dictionary(manifest.fragments.map { ($0.source.file, $0.source.sha256) }) { first, _ in first }
        for entry in settings.consistency.accept {
            guard let sha256 = built[entry.recording] else {
                report.add(
                    .consistency, entry.recording,
                    [
                        Diagnostic(
                            .warning, .settings, .consistency, .accept,
                            "consistency.accept lists \(entry.recording), which no fragment is built from",
                            fix: "write the recording's path as the manifest names it (raw-audio/…), or remove it")
                    ])
                continue
            }
            guard let take = entry.take, !entry.accepts(entry.recording, sha256: sha256) else { continue }
            // The designer accepted a take that is no longer there: the new one was compared like any other.
            let now = Settings.Acceptance.pinning(entry.recording, sha256: sha256)
            report.add(
                .consistency, entry.recording,
                [
                    Diagnostic(
                        .warning, .settings, .consistency, .accept,
                        "consistency.accept accepts the take \(take) of \(entry.recording), which now holds another (\(now.take ?? "")): it is compared with the pack like any other",
                        fix:
                            "listen to it (assets audit); if it is meant, accept this take instead: \(now); or remove the entry"
                    )
                ])
        }
    }
}
