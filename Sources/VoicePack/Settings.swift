import PackManifest
import SpeechText

/// Everything `assets.json` can set; every setting has a default, so a pack needs no `assets.json`.
public struct Settings: Equatable, Sendable {
    /// Paths relative to the folder of `assets.json` (or the current folder when there is none).
    public var raw = "raw-audio"
    public var out = "normalized"
    public var manifest = "manifest.json"

    public var format = AudioFormat()
    public var resampler = ResamplerQuality.medium
    public var loudness = Loudness()
    public var trim = Trim()
    public var limits = Limits()
    public var splice = Splice()
    public var consistency = Consistency()
    public var check = Check()

    /// What the coverage check covers: the union of these styles' and forms' alphabets.
    public var styles: [ReadingStyle] = ReadingStyle.allCases
    public var forms: [AmountForm] = AmountForm.allCases
    /// The largest amount the app says (a collection code's single payment, a transfer limit): coverage, the
    /// longest utterance, the audit's amounts and `say` consider no larger one. Nil: every amount.
    public var maximumAmount: Amount?
    /// `maximumAmount`, or the largest amount the converter says.
    public var amountBound: Amount { maximumAmount ?? .maximum }
    /// File stem → token, added to (and overriding) the default stems.
    public var stems: [String: Token] = [:]
    /// File stem → phrase text: a phrase is one token (微信收款).
    public var phrases: [String: String] = [:]
    /// Token → token whose fragment serves it (〇 → 零, 億 → 亿).
    public var aliases: [Token: Token] = [:]
    /// Name → text with `{amount}` where the amount goes (`"wechat": "微信收款{amount}"`).
    public var templates: [String: String] = [:]

    public init() {}

    public struct Loudness: Equatable, Sendable {
        public init() {}

        /// What spliced amounts measure (BS.1770 integrated): the level a designer knows.
        public var targetLUFS = -16.0
        /// The calibration of the hearing model: a full-scale 1 kHz sine plays at this level, as a phone held
        /// at arm's length at a loud setting.
        public var fullScaleDBSPL = 90.0
        public var truePeakCeilingDBTP = -1.0
        /// More gain than this means a near-silent recording: refused.
        public var maximumGainDB = 40.0
        /// The deepest the limiter may go to reach the target.
        public var maximumLimitingDB = 12.0
        /// `check` accepts fragments heard this close (in phon) to the pack's median: a difference in loudness
        /// level under about 1 phon is not heard (the just-noticeable difference in level, 0.5–1 dB for speech
        /// and broadband sounds at these levels: Zwicker and Fastl, Psychoacoustics, ch. 7).
        public var toleranceLU = 1.0

        /// How far a fragment's heard loudness (N5, phon) stands above the target LUFS and the calibration,
        /// measured: fragments all heard at the same N5 splice into amounts that measure the target by
        /// BS.1770 when their N5 is this much over `targetLUFS + fullScaleDBSPL`.
        public static let phonOverSplicedLUFS = 15.75

        /// Not a setting: the build measures it. One gain for the whole pack, in 0.5 dB steps, that brings its
        /// spliced amounts to `targetLUFS` whatever the voice (the manifest records it).
        public var packGainDB = 0.0

        /// The heard loudness (ISO 532-1 N5, phon) every fragment is brought to.
        public var targetPhon: Double { targetLUFS + fullScaleDBSPL + Self.phonOverSplicedLUFS + packGainDB }
    }

    public struct Trim: Equatable, Sendable {
        public init() {}

        /// The lowest level that counts as sound, under the loudest 10 ms of the fragment.
        public var thresholdDB = -50.0
        /// The threshold sits this far over the noise floor (within 10 dB of `thresholdDB`).
        public var noiseMarginDB = 6.0
        public var preRollMs = 10.0
        public var postRollMs = 40.0
        public var fadeInMs = 5.0
        public var fadeOutMs = 10.0
    }

    public struct Limits: Equatable, Sendable {
        public init() {}

        /// A longer source is refused before it is decoded: it is not a fragment.
        public var maximumSourceSeconds = 60.0
        /// `check` flags built fragments shorter or longer than these.
        public var minimumFragmentMs = 60.0
        public var maximumFragmentMs = 5000.0
        /// `check` warns when the longest utterance comes this close to iOS's 30 s limit.
        public var utteranceWarningSeconds = 20.0
    }

    public struct Splice: Equatable, Sendable {
        public init() {}

        /// Silence between fragments.
        public var gapMs = 0.0
        /// Overlap of consecutive fragments, faded across.
        public var crossfadeMs = 5.0
    }

    /// How far a fragment's voice may stand from the pack's typical one before `check` reports it.
    public struct Consistency: Equatable, Sendable {
        public init() {}

        /// The top of the voice's register (90th percentile of pitch), in semitones either way from where the
        /// syllable's tone puts it in this voice: another voice, or the same voice in another register. On six
        /// packs that real apps shipped, every syllable is within 4.0; another voice 5 semitones off is over it.
        public var pitchSemitones = 4.5
        /// Whether `check` warns of a fragment whose pitch could not be measured (a whisper, a creak, a lossy
        /// 16 kb/s MP3): it is not compared, which is no fault of the recording.
        public var reportUnmeasured = false
        /// How much narrower the recording's band may be, in octaves: a telephone line (3.4 kHz) is 1.7 under
        /// a 22 kHz delivery's 11 kHz, a 16 kHz delivery 0.7.
        public var bandwidthOctaves = 1.0
        /// How much closer the noise floor may come to the voice than the pack's typical, in dB.
        public var noiseDB = 15.0
        /// How much slower or faster a syllable may be spoken, as a ratio either way.
        public var paceRatio = 2.0
        /// How `check` reports a fragment that does not match.
        public var severity = Severity.error
        /// Recordings a designer has heard and accepts as they are: by name, or pinned to one take.
        public var accept: [Acceptance] = []
    }

    /// One entry of `consistency.accept`: a recording as the manifest names it (`raw-audio/digit_3.wav`), and
    /// either any take under that name or only the take whose SHA-256 (the manifest's `source.sha256`) begins
    /// with `take`. A name alone lets a new recording under it pass unheard; a pin lets only the take heard.
    public struct Acceptance: Equatable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// How many hex digits of a take's SHA-256 a pin needs at least, and how many messages suggest.
        public static let shortestPin = 8
        public static let suggestedPin = 12

        public var recording: String
        /// The first hex digits (lowercase) of the accepted take's SHA-256; nil for any take.
        public var take: String?

        public init(recording: String, take: String? = nil) {
            self.recording = recording
            self.take = take?.lowercased()
        }

        public init(stringLiteral recording: String) { self.init(recording: recording) }

        /// The entry a designer writes to accept exactly this take.
        public static func pinning(_ recording: String, sha256: String) -> Acceptance {
            Acceptance(recording: recording, take: String(sha256.prefix(suggestedPin)))
        }

        public func accepts(_ recording: String, sha256: String) -> Bool {
            recording == self.recording && take.map { sha256.lowercased().hasPrefix($0) } ?? true
        }

        /// As `assets.json` writes it.
        public var description: String {
            let name =
                "\""
                + recording.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") + "\""
            return take.map { #"{"recording": \#(name), "sha256": "\#($0)"}"# } ?? name
        }
    }

    public enum Severity: String, CaseIterable, Sendable {
        case error, warning
    }

    /// What fails `check` beyond what fails it by default.
    public struct Check: Equatable, Sendable {
        public init() {}

        /// Kinds of finding that `check` reports as warnings and that fail it in this pack: a team that wants
        /// every recording to end with its decay lists `sound/cut`.
        public var errors: [WarningKind] = []
    }

    /// A kind of finding `check` can report as a warning, as `category/kind` (the names its summary, JSON and
    /// lines give), for `check.errors`.
    public enum WarningKind: String, CaseIterable, Sendable {
        case unlisted = "manifest/unlisted"
        case loudness = "sound/loudness"
        case cut = "sound/cut"
        case apart = "sound/apart"
        case noiseHeard = "sound/noise"
        case header = "sound/header"
        case clipped = "sound/clipped"
        case voice = "consistency/voice"
        case tone = "consistency/tone"
        case onset = "consistency/onset"
        case vowel = "consistency/vowel"
        case band = "consistency/band"
        case noise = "consistency/noise"
        case pace = "consistency/pace"
        case unmeasured = "consistency/unmeasured"
        case delivery = "consistency/delivery"
        case accept = "consistency/accept"
        case nearLimit = "budget/nearLimit"
    }
}
