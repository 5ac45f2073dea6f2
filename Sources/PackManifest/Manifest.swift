import Foundation
import SpeechText

/// What the splicer reads: the format, the loudness target, and one entry per fragment, sorted by token.
/// Paths are relative to the manifest's folder; the same inputs and settings give the same bytes.
public struct Manifest: Codable, Equatable, Sendable {
    /// The manifest schema this version writes and reads.
    public static let currentSchemaVersion = 1

    public var schemaVersion = Manifest.currentSchemaVersion
    public var generator = GeneratorInfo()
    public var format: AudioFormat
    public var loudness: LoudnessTarget
    /// The settings that shaped the audio: a fragment built under other ones is rebuilt.
    public var processing: Processing
    /// The largest amount the pack was checked for (`maximumAmount` in `assets.json`, as a decimal string): its
    /// coverage and its longest utterance hold up to it. Absent: every amount the converter says.
    public var maximumAmount: String?
    /// How the pack's fragments are joined, as written (nil in manifests from before it was); read `joins`.
    public var splice: Splice?
    public var styles: [String]
    public var forms: [String]
    /// Token → token whose fragment serves it.
    public var aliases: [String: String]
    /// Template name → text with `{amount}`.
    public var templates: [String: String]
    public var fragments: [Fragment]

    public init(
        format: AudioFormat, loudness: LoudnessTarget, processing: Processing, splice: Splice = Splice(),
        maximumAmount: String? = nil, styles: [String], forms: [String], aliases: [String: String],
        templates: [String: String], fragments: [Fragment]
    ) {
        self.format = format
        self.loudness = loudness
        self.processing = processing
        self.splice = splice
        self.maximumAmount = maximumAmount
        self.styles = styles
        self.forms = forms
        self.aliases = aliases
        self.templates = templates
        self.fragments = fragments.sorted { Token($0.token) < Token($1.token) }
    }

    /// How the splicer joins fragments: the silence between them, or, with none, the overlap faded across each
    /// join. The build measures the pack's level on amounts joined so, and the app's splicer reads it here.
    public struct Splice: Codable, Equatable, Sendable {
        public var gapMs: Double
        public var crossfadeMs: Double

        public init(gapMs: Double = 0, crossfadeMs: Double = 5) {
            self.gapMs = gapMs
            self.crossfadeMs = crossfadeMs
        }
    }

    /// How the pack's fragments are joined: `splice`, or the splicer's defaults in a manifest from before it.
    public var joins: Splice { splice ?? Splice() }

    /// The fragments as a person looks them up: 零 一 … 九, the units, the money words, then the phrases
    /// (`SpeechConverter.inReadingOrder`). The manifest keeps them in token order (Unicode scalars: 一 七 万 三…),
    /// which is the same on every platform but not what a reader of a report expects.
    public var fragmentsInReadingOrder: [Fragment] {
        let byToken = Dictionary(fragments.map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first })
        return SpeechConverter.inReadingOrder(Set(byToken.keys.map { Token($0) })).compactMap { byToken[$0.text] }
    }

    public struct GeneratorInfo: Codable, Equatable, Sendable {
        public var name = Generator.name
        public var version = Generator.version
    }

    public struct LoudnessTarget: Codable, Equatable, Sendable {
        /// What spliced amounts measure by BS.1770.
        public var targetLUFS: Double
        public var truePeakCeilingDBTP: Double
        /// The measure every fragment is brought to, and its parameters.
        public var measure: Measure
        /// The one gain, in dB, that sets the whole pack where its spliced amounts measure `targetLUFS`, as
        /// the build measured them (nil in manifests from before it was measured: 0).
        public var packGainDB: Double?

        public init(targetLUFS: Double, truePeakCeilingDBTP: Double, measure: Measure, packGainDB: Double = 0) {
            self.targetLUFS = targetLUFS
            self.truePeakCeilingDBTP = truePeakCeilingDBTP
            self.measure = measure
            self.packGainDB = packGainDB
        }
    }

    /// Fragments are brought to one heard loudness: ISO 532-1 N5 in phon, played at a calibrated level.
    public struct Measure: Codable, Equatable, Sendable {
        public var name = "ISO 532-1 time-varying loudness, N5, free field"
        /// A full-scale 1 kHz sine plays at this level.
        public var fullScaleDBSPL: Double
        /// What every fragment's `loudnessPhon` is brought to.
        public var targetPhon: Double
        /// How each fragment's `loudnessLUFS` (for information) is measured.
        public var loudnessLUFS = "BS.1770 integrated from 400 ms; power-weighted 20 ms blocks below"

        public init(fullScaleDBSPL: Double, targetPhon: Double) {
            self.fullScaleDBSPL = fullScaleDBSPL
            self.targetPhon = targetPhon
        }
    }

    /// The settings that decide a fragment's samples, beyond `format` and `loudness`.
    public struct Processing: Codable, Equatable, Sendable {
        /// Bumped whenever the audio pipeline's code changes what it writes: the samples, or the voice analysis
        /// `check` reads from the manifest, so that a pack built before is analysed again (23: how much of the
        /// sound before a voice lies over 3 kHz; 22: a syllable's vowel envelope; 21: an octave's detour
        /// moved back before a blip beside it; 20: where a pitch starts and ends read with a shorter window where
        /// the long one is sure of too few frames; 19: a syllable's pace read without a stray sound apart from its
        /// word; 18: a first or fourth tone's pitch read on 5 to 9 frames).
        public static let currentPipelineRevision = 23

        public var pipelineRevision = Processing.currentPipelineRevision
        public var resampler: String
        public var maximumGainDB: Double
        public var maximumLimitingDB: Double
        public var trimThresholdDB: Double
        public var trimNoiseMarginDB: Double
        public var preRollMs: Double
        public var postRollMs: Double
        public var fadeInMs: Double
        public var fadeOutMs: Double

        public init(
            resampler: String, maximumGainDB: Double, maximumLimitingDB: Double, trimThresholdDB: Double,
            trimNoiseMarginDB: Double, preRollMs: Double, postRollMs: Double, fadeInMs: Double, fadeOutMs: Double
        ) {
            self.resampler = resampler
            self.maximumGainDB = maximumGainDB
            self.maximumLimitingDB = maximumLimitingDB
            self.trimThresholdDB = trimThresholdDB
            self.trimNoiseMarginDB = trimNoiseMarginDB
            self.preRollMs = preRollMs
            self.postRollMs = postRollMs
            self.fadeInMs = fadeInMs
            self.fadeOutMs = fadeOutMs
        }
    }

    public struct Fragment: Codable, Equatable, Sendable {
        public var token: String
        /// The built file, relative to the manifest's folder.
        public var file: String
        public var frames: Int
        public var durationMs: Double
        public var sha256: String
        /// How loud the fragment is heard (ISO 532-1 N5): the figure fragments are made equal by.
        public var loudnessPhon: Double
        public var loudnessLUFS: Double
        public var truePeakDBTP: Double
        public var gainDB: Double
        public var limiterReductionDB: Double
        public var trimmedHeadMs: Double
        public var trimmedTailMs: Double
        /// The loudest 50 ms within the first and the last 150 ms (dBFS): what a join's level step is read from.
        public var headDBFS: Double
        public var tailDBFS: Double
        /// What a sound designer should hear about (a noisy recording, a limited one).
        public var warnings: [String]
        public var source: Source
        /// What the voice is like, for `check`'s comparison with the rest of the pack. Absent only in a
        /// manifest written before `pipelineRevision` 5, which `check` reports as stale anyway.
        public var analysis: Analysis?

        public init(
            token: String, file: String, frames: Int, durationMs: Double, sha256: String, loudnessPhon: Double,
            loudnessLUFS: Double, truePeakDBTP: Double, gainDB: Double, limiterReductionDB: Double,
            trimmedHeadMs: Double,
            trimmedTailMs: Double, headDBFS: Double, tailDBFS: Double, warnings: [String], source: Source,
            analysis: Analysis? = nil
        ) {
            self.token = token
            self.file = file
            self.frames = frames
            self.durationMs = Manifest.rounded(durationMs)
            self.sha256 = sha256
            self.loudnessPhon = Manifest.rounded(loudnessPhon)
            self.loudnessLUFS = Manifest.rounded(loudnessLUFS)
            self.truePeakDBTP = Manifest.rounded(truePeakDBTP)
            self.gainDB = Manifest.rounded(gainDB)
            self.limiterReductionDB = Manifest.rounded(limiterReductionDB)
            self.trimmedHeadMs = Manifest.rounded(trimmedHeadMs)
            self.trimmedTailMs = Manifest.rounded(trimmedTailMs)
            self.headDBFS = Manifest.rounded(headDBFS)
            self.tailDBFS = Manifest.rounded(tailDBFS)
            self.warnings = warnings
            self.source = source
            self.analysis = analysis
        }
    }

    /// A fragment's voice as measured when it was built: its pitch, the band of its recording, the noise under
    /// it and its pace. A figure that could not be measured (too short, too noisy) is absent.
    public struct Analysis: Codable, Equatable, Sendable {
        /// Median over the voiced frames.
        public var pitchMedianHz: Double?
        /// The 90th percentile over the voiced frames: the top of the register.
        public var pitchRegisterHz: Double?
        /// Where the pitch starts and ends (the medians of the first and last fifth of the voiced frames): whether
        /// a single syllable's tone rises or falls. Absent before pipelineRevision 16, and where fewer than 10 frames
        /// carried a pitch in either of the analysis' windows (46 and 23 ms; the shorter read only since 20).
        public var pitchStartHz: Double?
        public var pitchEndHz: Double?
        public var voicedFraction: Double
        /// How long after its sound its voice starts: the consonant before the vowel (q and sh the longest). Absent
        /// before pipelineRevision 17.
        public var voiceOnsetMs: Double?
        /// Of the sound before the voice (10 ms or more of it): its level over 3 kHz against its whole level, in
        /// dB — near 0 for a hiss, far under for a voice's own start. Absent before pipelineRevision 23.
        public var onsetHighBandDB: Double?
        /// Of the recording, before resampling: the highest frequency where the voice stands clear of its noise.
        public var bandwidthHz: Double?
        public var centroidHz: Double
        /// The voice over the recording's noise floor.
        public var snrDB: Double
        /// Spoken syllables: one per Chinese character of the token.
        public var syllables: Int
        /// The voice's length (pre-roll and post-roll left out) over its syllables.
        public var msPerSyllable: Double
        /// A single syllable's vowel: the mean of its loudest frames' mel-frequency cepstral coefficients 1–12
        /// (`VowelEnvelope`), which `check` compares within the pack alone. Absent before pipelineRevision 22.
        public var vowelMFCC: [Double]?

        public init(
            pitchMedianHz: Double?, pitchRegisterHz: Double?, pitchStartHz: Double? = nil, pitchEndHz: Double? = nil,
            voicedFraction: Double, voiceOnsetMs: Double? = nil, onsetHighBandDB: Double? = nil,
            bandwidthHz: Double?, centroidHz: Double,
            snrDB: Double, syllables: Int, voiceMs: Double, vowelMFCC: [Double]? = nil
        ) {
            self.pitchMedianHz = pitchMedianHz.map(Manifest.rounded)
            self.pitchRegisterHz = pitchRegisterHz.map(Manifest.rounded)
            self.pitchStartHz = pitchStartHz.map(Manifest.rounded)
            self.pitchEndHz = pitchEndHz.map(Manifest.rounded)
            self.voicedFraction = Manifest.rounded(voicedFraction)
            self.voiceOnsetMs = voiceOnsetMs.map(Manifest.rounded)
            self.onsetHighBandDB = onsetHighBandDB.map(Manifest.rounded)
            self.bandwidthHz = bandwidthHz.map(Manifest.rounded)
            self.centroidHz = Manifest.rounded(centroidHz)
            self.snrDB = Manifest.rounded(snrDB)
            self.syllables = syllables
            self.msPerSyllable = Manifest.rounded(voiceMs / Double(max(1, syllables)))
            self.vowelMFCC = vowelMFCC?.map(Manifest.rounded)
        }

        /// Syllables in a token's text: its Chinese characters (each one syllable), at least one.
        public static func syllables(in text: String) -> Int {
            max(1, text.unicodeScalars.count { $0.properties.isIdeographic })
        }
    }

    /// The recording a fragment was built from, as it was when built.
    public struct Source: Codable, Equatable, Sendable {
        /// Relative to the manifest's folder.
        public var file: String
        public var sha256: String
        public var size: Int
        public var sampleRate: Int
        public var channels: Int
        /// Container and encoding, as `wav/pcm16`, `flac/pcm24`, `ogg/vorbis`.
        public var format: String
        public var frames: Int
        public var durationMs: Double
        /// Measured after trimming, before the gain.
        public var loudnessLUFS: Double
        public var truePeakDBTP: Double
        public var noiseFloorDBFS: Double
        /// Its first and last 10 ms against its loudest, in dB: a voice cut off before its decay ends near 0.
        public var startLevelDB: Double?
        public var endLevelDB: Double?
        /// Samples in runs of three or more at full scale: the recording clipped.
        public var clippedSamples: Int
        public var channelDecision: String
        /// The rate its samples were read at, one channel, where its header says two channels at half of it and they
        /// alternate one voice's samples (the header was written wrong); absent otherwise.
        public var readAsMonoSampleRate: Int?
        /// A sound the trim kept though a pause parts it from the voice (a breath, a click); absent when none.
        public var straySound: StraySound?

        public init(
            file: String, sha256: String, size: Int, sampleRate: Int, channels: Int, format: String, frames: Int,
            durationMs: Double, loudnessLUFS: Double, truePeakDBTP: Double, noiseFloorDBFS: Double,
            startLevelDB: Double? = nil, endLevelDB: Double? = nil, clippedSamples: Int, channelDecision: String,
            readAsMonoSampleRate: Int? = nil, straySound: StraySound? = nil
        ) {
            self.file = file
            self.sha256 = sha256
            self.size = size
            self.sampleRate = sampleRate
            self.channels = channels
            self.format = format
            self.frames = frames
            self.durationMs = Manifest.rounded(durationMs)
            self.loudnessLUFS = Manifest.rounded(loudnessLUFS)
            self.truePeakDBTP = Manifest.rounded(truePeakDBTP)
            self.noiseFloorDBFS = Manifest.rounded(max(noiseFloorDBFS, -200))
            self.startLevelDB = startLevelDB.map { Manifest.rounded(max($0, -200)) }
            self.endLevelDB = endLevelDB.map { Manifest.rounded(max($0, -200)) }
            self.clippedSamples = clippedSamples
            self.channelDecision = channelDecision
            self.readAsMonoSampleRate = readAsMonoSampleRate
            self.straySound = straySound
        }

        /// How the recording was delivered, in the words every report uses: `wav/pcm16, 16000 Hz`, with
        /// `, 2 channels` when it is not mono.
        public var delivery: String {
            "\(format), \(sampleRate) Hz" + (channels == 1 ? "" : ", \(channels) channels")
        }
    }

    /// A sound apart from the voice in a recording: at its `start` or `end`, `pauseMs` from the voice, `lengthMs`
    /// long, its loudest 10 ms `levelDB` against the recording's loudest.
    public struct StraySound: Codable, Equatable, Sendable {
        public var edge: String
        public var pauseMs: Double
        public var lengthMs: Double
        public var levelDB: Double

        public init(edge: String, pauseMs: Double, lengthMs: Double, levelDB: Double) {
            self.edge = edge
            self.pauseMs = Manifest.rounded(pauseMs)
            self.lengthMs = Manifest.rounded(lengthMs)
            self.levelDB = Manifest.rounded(max(levelDB, -200))
        }
    }

    /// Hundredths: enough for dB and ms, and the same digits on every platform.
    public static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return value < 0 ? -200 : 200 }
        let result = (value * 100).rounded() / 100
        return result == 0 ? 0 : result
    }
}

/// A manifest that cannot be used, and why.
public struct ManifestError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

extension Manifest {
    /// The canonical bytes of this manifest: sorted keys, two-space indent, final newline.
    public func canonicalData() -> Data {
        JSONLayout.indented(CanonicalJSON.data(self))
    }

    /// Reads a manifest: its `schemaVersion` first, so a newer file gets a clear message rather than a
    /// decoding error.
    public static func decode(_ data: Data, name: String) throws(ManifestError) -> Manifest {
        struct Probe: Decodable { let schemaVersion: Int }
        let decoder = JSONDecoder()
        let probe: Probe
        do {
            probe = try decoder.decode(Probe.self, from: data)
        } catch {
            if let text = String(data: data, encoding: .utf8) {
                do { _ = try JSONNode.parse(text) } catch {
                    throw ManifestError(
                        file: name, message: "not valid JSON at \(error.position): \(error.message): run `assets build`"
                    )
                }
            }
            throw ManifestError(file: name, message: "has no schemaVersion: it is not an assets manifest")
        }
        guard probe.schemaVersion <= currentSchemaVersion else {
            throw ManifestError(
                file: name,
                message:
                    "is schema version \(probe.schemaVersion), newer than this assets reads (\(currentSchemaVersion)): update assets"
            )
        }
        guard probe.schemaVersion == currentSchemaVersion else {
            throw ManifestError(
                file: name,
                message:
                    "is schema version \(probe.schemaVersion), which this assets no longer reads: run `assets build`")
        }
        do {
            return try decoder.decode(Manifest.self, from: data)
        } catch let error as DecodingError {
            throw ManifestError(
                file: name, message: "does not match schema version \(currentSchemaVersion): \(Self.describe(error))")
        } catch {
            throw ManifestError(file: name, message: "cannot be decoded: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
