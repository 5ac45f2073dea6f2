import AudioPipeline
import Foundation
import PackManifest
import PackTools
import SpeechText
import VoicePack

/// A pack in a temporary folder, with recordings made by code: syllables with a soft fricative onset,
/// delivered in mixed containers, encodings, rates, channel layouts and levels over a noise floor.
public final class TestPack {
    public let root: URL
    public var settings = Settings()

    public init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("assets-pack-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(
            at: root.appendingPathComponent("raw-audio"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    public var paths: PackPaths {
        PackPaths(root: root, settings: settings, raw: nil, out: nil, manifest: nil, currentFolder: root)
    }

    public func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// How one test recording is delivered.
    public struct Delivery: Sendable {
        public var container = "wav"
        public var encoding = "pcm16"
        public var rate = 44_100
        /// `mono`, `stereo`, `silent-right`, `inverted-right`, `six-channels`.
        public var layout = "mono"
        /// The vowel's RMS level in dBFS.
        public var levelDB = -20.0
        public var leadSeconds = 0.3
        public var trailSeconds = 0.3
        public var vowelSeconds = 0.3
        public var fricativeSeconds = 0.06
        public var fricativeBelowDB = 35.0
        /// The noise floor under the vowel's level.
        public var noiseBelowDB = 60.0

        public init(
            container: String = "wav", encoding: String = "pcm16", rate: Int = 44_100, layout: String = "mono",
            levelDB: Double = -20, leadSeconds: Double = 0.3, trailSeconds: Double = 0.3, vowelSeconds: Double = 0.3,
            fricativeSeconds: Double = 0.06, fricativeBelowDB: Double = 35, noiseBelowDB: Double = 60
        ) {
            self.container = container
            self.encoding = encoding
            self.rate = rate
            self.layout = layout
            self.levelDB = levelDB
            self.leadSeconds = leadSeconds
            self.trailSeconds = trailSeconds
            self.vowelSeconds = vowelSeconds
            self.fricativeSeconds = fricativeSeconds
            self.fricativeBelowDB = fricativeBelowDB
            self.noiseBelowDB = noiseBelowDB
        }
    }

    /// Writes `raw-audio/<name>` and returns where the fricative starts, in ms from the file's start.
    @discardableResult
    public func deliver(_ name: String, _ delivery: Delivery = Delivery()) throws -> Double {
        let rate = delivery.rate
        let rms = pow(10, delivery.levelDB / 20)
        let syllable = Signals.syllable(
            vowelRMS: rms, fricativeBelowDB: delivery.fricativeBelowDB, fricativeSeconds: delivery.fricativeSeconds,
            vowelSeconds: delivery.vowelSeconds, rate: rate)
        let lead = Int(delivery.leadSeconds * Double(rate))
        let total = lead + syllable.count + Int(delivery.trailSeconds * Double(rate))
        let noise = Signals.noise(
            rms: rms * pow(10, -delivery.noiseBelowDB / 20), count: total, seed: UInt64(name.utf8.count))
        var voice = noise
        for (index, sample) in syllable.enumerated() { voice[lead + index] += sample }
        let channels: [[Float]]
        switch delivery.layout {
        case "stereo": channels = [voice, voice.map { $0 * 0.8 }]
        case "silent-right": channels = [voice, noise.map { $0 * 0.1 }]
        case "inverted-right": channels = [voice, voice.map { -$0 * 0.9 }]
        case "six-channels": channels = (0..<6).map { channel in voice.map { $0 * Float(1 - 0.1 * Double(channel)) } }
        default: channels = [voice]
        }
        try write(
            name, channels: channels, rate: rate,
            format: FileFormat(container: delivery.container, encoding: delivery.encoding))
        return delivery.leadSeconds * 1000
    }

    public func write(_ name: String, channels: [[Float]], rate: Int, format: FileFormat) throws {
        let file = try SoundFile.create(
            writing: url("raw-audio/\(name)").path, format: format, sampleRate: rate, channels: channels.count)
        var interleaved = [Float](repeating: 0, count: channels[0].count * channels.count)
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() { interleaved[frame * channels.count + channel] = sample }
        }
        try file.write(interleaved: interleaved)
        try file.close()
    }

    public func writeBytes(_ name: String, _ data: Data) throws {
        try data.write(to: url("raw-audio/\(name)"))
    }

    public func build(force: Bool = false, jobs: Int = 2) throws -> BuildOutcome {
        try PackBuilder.build(BuildRequest(paths: paths, settings: settings, jobs: jobs, force: force))
    }

    public func manifest() throws -> Manifest {
        try Manifest.decode(Data(contentsOf: url("manifest.json")), name: "manifest.json")
    }

    /// Every file of the pack (outputs and manifest) with its bytes, to compare before and after.
    public func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        if let data = try? Data(contentsOf: url("manifest.json")) { files["manifest.json"] = data }
        let out = url("normalized")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] {
            files["normalized/\(name)"] = try? Data(contentsOf: out.appendingPathComponent(name))
        }
        return files
    }
}

/// Test signals with levels known by construction.
public enum Signals {
    public static func noise(rms: Double, count: Int, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed &+ 0x1234_5678)
        let scale = rms * 3.0.squareRoot()
        return (0..<count).map { _ in Float(scale * (2 * random.unit() - 1)) }
    }

    /// A room's noise: white noise through a one-pole low-pass at `cornerHz`, at `rms`. At 100 Hz it is a rumble,
    /// whose level in 10 ms swings by several dB; at 1 kHz, a steadier noise; either has little over 3 kHz.
    public static func roomNoise(rms: Double, count: Int, rate: Int, cornerHz: Double = 100) -> [Float] {
        let white = noise(rms: 1, count: count, seed: 43)
        let pole = exp(-2 * Double.pi * cornerHz / Double(rate))
        var state = 0.0
        let low = white.map { sample -> Double in
            state = pole * state + (1 - pole) * Double(sample)
            return state
        }
        let level = (low.map { $0 * $0 }.reduce(0, +) / Double(count)).squareRoot()
        return low.map { Float($0 * rms / level) }
    }

    /// Hiss `fricativeBelowDB` under a vowel (harmonics of 150 Hz, 20 ms attack, 80 ms decay).
    public static func syllable(
        vowelRMS: Double, fricativeBelowDB: Double, fricativeSeconds: Double, vowelSeconds: Double, rate: Int
    ) -> [Float] {
        let white = noise(
            rms: vowelRMS * pow(10, -fricativeBelowDB / 20), count: Int(fricativeSeconds * Double(rate)), seed: 99)
        var previous: Float = 0
        let hiss = white.map { sample -> Float in
            defer { previous = sample }
            return (sample - previous) / Float(2.0.squareRoot())
        }
        let harmonics: [(Double, Double)] = [(1, 1), (2, 0.8), (3, 0.6), (5, 0.5), (8, 0.3), (12, 0.15)]
        let scale = vowelRMS / harmonics.map { $0.1 * $0.1 / 2 }.reduce(0, +).squareRoot()
        let frames = Int(vowelSeconds * Double(rate))
        let tail = Int(0.08 * Double(rate))
        let vowel = (0..<frames).map { index -> Float in
            let t = Double(index) / Double(rate)
            let envelope =
                min(1, t / 0.02)
                * (index >= frames - tail ? exp(-6 * Double(index - (frames - tail)) / Double(tail)) : 1)
            return Float(scale * envelope * harmonics.map { $0.1 * sin(2 * .pi * 150 * $0.0 * t) }.reduce(0, +))
        }
        return hiss + vowel
    }
}

/// A voice made by code that carries what real voices have: Mandarin tone contours that move the pitch as a
/// speaker's do (a third tone dipping 10 semitones under the first tone's level) and a vowel's formants.
public enum TonalVoice {
    /// Every default stem of spoken/yuan, and 点.
    public static let stems: [(stem: String, token: Token)] = [
        ("digit_0", "零"), ("digit_1", "一"), ("digit_2", "二"), ("digit_3", "三"), ("digit_4", "四"), ("digit_5", "五"),
        ("digit_6", "六"), ("digit_7", "七"), ("digit_8", "八"), ("digit_9", "九"), ("digit_liang", "两"),
        ("unit_shi", "十"), ("unit_bai", "百"), ("unit_qian", "千"), ("unit_wan", "万"), ("unit_yi", "亿"),
        ("unit_yuan", "元"), ("unit_jiao", "角"), ("unit_fen", "分"), ("unit_zheng", "整"), ("unit_dian", "点"),
    ]

    /// The pitch, in semitones from the voice's high level, over a syllable's course (0…1), said alone.
    public static func contour(_ tone: Tone) -> (Double) -> Double {
        switch tone {
        case .high: { t in -0.3 * t }
        case .rising: { t in -7 + 6 * t * t }
        case .low: { t in -5 - 5 * sin(.pi * t / 1.2) }
        case .falling: { t in 1 - 9 * t }
        }
    }

    /// A third tone said in full (2-1-4), as a speaker may say it alone: from 2.5 semitones under the high level
    /// down to 6 under, then rising to 0.5 over it — as a real voice's 九 read 237, 194 and 282 Hz against its
    /// 一's 274.
    public static func fullThird(_ t: Double) -> Double {
        t < 0.5 ? -2.5 - 7 * t : -6 + 13 * (t - 0.5)
    }

    /// The formants (centre and width, Hz) of an /a/ (八 三 万) and of an /i/ (一 七 亿): the first high and the
    /// second low, or the other way round.
    public static let vowelA: [(hz: Double, width: Double)] = [(700, 110), (1_220, 120), (2_600, 160)]
    public static let vowelI: [(hz: Double, width: Double)] = [(300, 60), (2_300, 100), (3_000, 120)]
    /// The formants of the back rounded u of 五 and of the end of 六 and 九 (both low, close together) and of 二's
    /// er (the third drawn down close to the second).
    public static let vowelU: [(hz: Double, width: Double)] = [(400, 80), (850, 100), (2_500, 160)]
    public static let vowelER: [(hz: Double, width: Double)] = [(520, 90), (1_350, 110), (1_650, 120)]

    /// A voiced syllable: harmonics of the contour's pitch over `highHz` (`pitch`, the tone's own `contour` unless
    /// given), shaped by a vowel's formants (an /a/'s unless given, scaled by `formantScale`), with a 20 ms attack
    /// and, unless `cutAt` ends it abruptly (a fraction of its length), an 80 ms decay.
    public static func syllable(
        _ tone: Tone, highHz: Double = 220, formantScale: Double = 1, seconds: Double = 0.35, rms: Double = 0.1,
        rate: Int = 44_100, cutAt: Double? = nil, pitch: ((Double) -> Double)? = nil,
        vowel: [(hz: Double, width: Double)] = vowelA
    ) -> [Float] {
        let pitch = pitch ?? contour(tone)
        let formants = vowel.map { (hz: $0.hz * formantScale, width: $0.width * formantScale) }
        func gain(_ hz: Double) -> Double {
            var sum = 0.02
            for formant in formants {
                sum += 1 / (1 + (hz - formant.hz) * (hz - formant.hz) / (formant.width * formant.width))
            }
            return sum
        }
        let frames = Int(seconds * Double(rate))
        let decay = Int(0.08 * Double(rate))
        var phase = 0.0
        var samples = [Float](repeating: 0, count: frames)
        for index in 0..<frames {
            let t = Double(index) / Double(frames)
            let f0 = highHz * pow(2, pitch(t) / 12)
            phase += 2 * .pi * f0 / Double(rate)
            var sample = 0.0
            for harmonic in 1...Int(5_000 / f0) {
                sample += gain(f0 * Double(harmonic)) * sin(Double(harmonic) * phase)
            }
            let envelope =
                min(1, Double(index) / (0.02 * Double(rate)))
                * (index >= frames - decay ? exp(-6 * Double(index - (frames - decay)) / Double(decay)) : 1)
            samples[index] = Float(sample * envelope)
        }
        if let cutAt { samples.removeLast(frames - Int(Double(frames) * cutAt)) }
        let level = (samples.map { Double($0) * Double($0) }.reduce(0, +) / Double(samples.count)).squareRoot()
        return samples.map { $0 * Float(rms / level) }
    }

    /// `syllable` with `lead` seconds of silence before and `trail` after, over a faint noise floor (72 dB under).
    public static func recording(_ syllable: [Float], lead: Double = 0.2, trail: Double = 0.3, rate: Int = 44_100)
        -> [Float]
    {
        let total = Int(lead * Double(rate)) + syllable.count + Int(trail * Double(rate))
        var samples = Signals.noise(rms: 0.1 * pow(10, -72 / 20), count: total, seed: UInt64(syllable.count))
        for (index, sample) in syllable.enumerated() { samples[Int(lead * Double(rate)) + index] += sample }
        return samples
    }
}

extension TestPack {
    /// Every default stem (`TonalVoice.stems`) recorded in its token's citation tone, `seconds` long: a voice of
    /// its own, whose splices measure away from the stand-ins'.
    public func recordTonalVoice(seconds: Double = 0.5) throws {
        for (stem, token) in TonalVoice.stems {
            let tone = Tone.citation(of: token)!  // each default stem is one syllable, with its tone
            try write(
                "\(stem).wav", channels: [TonalVoice.recording(TonalVoice.syllable(tone, seconds: seconds))],
                rate: 44_100, format: FileFormat(container: "wav", encoding: "pcm16"))
        }
    }
}
