import Foundation

/// Cuts leading and trailing silence, keeping a short pre-roll and post-roll with a fade at each cut.
///
/// The level is read in 10 ms windows every 5 ms. The threshold sits `noiseMarginDB` over the noise floor
/// (the quietest 5 % of windows), but never lower than `thresholdDB` under the loudest window — so a
/// decaying tail is kept down to there — and never higher than 10 dB above that, so a fricative 30–40 dB
/// under its vowel (三 四 十 七 千 分 角) is kept. Only when the noise itself comes within 40 dB of the voice
/// does the threshold rise to 3 dB over the floor. Sound starts at the first run of `minimumSoundMs` over
/// the threshold and ends at the last, leaving out runs apart from the voice that are `quieterThanVoiceDB` under
/// the loudest window or stand less than `standsOutDB` over the threshold (the room's noise swinging over it, a
/// breath) — and starts earlier, where the noise raised the threshold over `thresholdDB` under the loudest, at a
/// fricative heard over 3 kHz (`Fricatives`).
public struct Trim: Equatable, Sendable {
    public var thresholdDB: Double
    public var noiseMarginDB: Double
    public var preRollMs: Double
    public var postRollMs: Double
    public var fadeInMs: Double
    public var fadeOutMs: Double
    public var minimumSoundMs = 15.0

    static let windowMs = 10.0
    static let hopMs = 5.0

    /// Every value given: the defaults live in the settings (`Settings.Trim`), which PackTools maps here.
    public init(
        thresholdDB: Double, noiseMarginDB: Double, preRollMs: Double, postRollMs: Double, fadeInMs: Double,
        fadeOutMs: Double
    ) {
        self.thresholdDB = thresholdDB
        self.noiseMarginDB = noiseMarginDB
        self.preRollMs = preRollMs
        self.postRollMs = postRollMs
        self.fadeInMs = fadeInMs
        self.fadeOutMs = fadeOutMs
    }

    /// Finds the sound and cuts around it, at the signal's own rate.
    public func apply(_ signal: Signal, name: String) throws(AudioError) -> (Signal, TrimReport) {
        cut(signal, around: try findSound(signal, name: name))
    }

    /// Where the sound starts and ends in `signal`, and the levels that decided it. `recordedFrames`: where the
    /// recording as delivered ends before the digital silence it was padded with (`Trim.recordedFrames`), when
    /// `signal` was filtered since (a high-pass filter's decay fills the padding).
    public func findSound(_ signal: Signal, name: String, recordedFrames: Int? = nil) throws(AudioError)
        -> SoundBounds
    {
        let window = max(1, signal.frames(ms: Self.windowMs))
        let hop = max(1, signal.frames(ms: Self.hopMs))
        let energies = Self.windowEnergies(signal.samples, window: window, hop: hop)
        guard let loudest = energies.max(), loudest > 1e-12 else {
            throw AudioError(
                file: name, problem: "it is silent", fix: "export the recording again, with the voice in it")
        }
        let (threshold, floorDB, peakDB) = soundThreshold(energies)
        let thresholdDB = Decibels.power(threshold)

        let run = max(1, Int((minimumSoundMs / Self.hopMs).rounded(.up)))
        let loud = energies.map { $0 > threshold }
        // Steady noise and nothing else: no window stands 3 dB over the quietest.
        guard let anyFirst = loud.firstIndex(of: true), let anyLast = loud.lastIndex(of: true) else {
            throw AudioError(
                file: name,
                problem: String(
                    format: "no voice stands out of the noise (the loudest 10 ms is %.1f dB over the noise floor)",
                    peakDB - floorDB),
                fix: "check that the recording holds the word, and record it again closer to the microphone")
        }
        let word = Self.word(energies, threshold: threshold, run: run, attached: Int(Self.attachedMs / Self.hopMs))
        let (voiceFirst, last) = (word?.lowerBound ?? anyFirst, word?.upperBound ?? anyLast)
        let rate = Double(signal.sampleRate)
        // Where the room's noise raised the threshold, a fricative before the vowel may lie under it.
        var first = voiceFirst
        if noiseRaised(threshold, peakDB: peakDB) {
            let high = Fricatives.energies(signal.samples, sampleRate: signal.sampleRate, window: window, hop: hop)
            if let fricative = Fricatives.threshold(high, isSound: { energies[$0] > threshold }) {
                first = Fricatives.start(
                    before: voiceFirst, high: high, threshold: fricative, hopMs: Double(hop) * 1000 / rate)
            }
        }
        // Its last window before the padding, if any (the last of all where there is none).
        let recorded = recordedFrames ?? Self.recordedFrames([signal.samples])
        let ending = min(energies.count - 1, max(0, (recorded - window) / hop))
        return SoundBounds(
            startMs: Double(first * hop) * 1000 / rate,
            endMs: Double(min(signal.frames, last * hop + window)) * 1000 / rate,
            durationMs: signal.durationMs, thresholdDBFS: thresholdDB,
            noiseFloorDBFS: Self.noiseFloorDB(energies, outside: first...max(first, last), hop: hop, rate: rate),
            peakDBFS: peakDB,
            startLevelDB: Decibels.power(energies[0]) - peakDB,
            endLevelDB: Decibels.power(energies[ending]) - peakDB,
            stray: StraySound.find(
                energies: energies, loud: loud, sound: voiceFirst...max(voiceFirst, last),
                hopMs: Double(hop) * 1000 / rate,
                peakDB: peakDB))
    }

    /// A stretch of sound (a run of windows over the threshold) more than this under the recording's loudest
    /// window, and further than `attachedMs` from one that is not, is not the word's: the room's noise rising
    /// over the threshold for a few windows, as a rumble does, or a breath. `UtteranceDetector` judges a
    /// session's stretches by the same rule against its voice.
    public static let quieterThanVoiceDB = 20.0
    /// Near enough to the voice to be the word's, however soft: a fricative before its vowel, a decay.
    public static let attachedMs = 50.0
    /// … and apart from it, a stretch must stand this far over the threshold as well: where the voice is less
    /// than 20 dB over a room's noise, the noise's swings are within 20 dB of it, but rise only 1–2 dB over the
    /// threshold (on eighteen real packs laid over pink noise, 99 % of 272 such swings 3 dB or less), where a
    /// word stands 15 dB or more over it. Matters only where the noise is within about 26 dB of the voice.
    public static let standsOutDB = 3.0

    /// The level (a mean square) a stretch apart from the voice must reach to be the word's: within `quieterDB`
    /// of `loudest` and `standsOutDB` over `threshold`.
    static func voiceLevel(loudest: Double, threshold: Double, quieterDB: Double = quieterThanVoiceDB) -> Double {
        max(loudest * pow(10, -quieterDB / 10), threshold * pow(10, standsOutDB / 10))
    }

    /// A run of windows over the threshold, and its loudest.
    struct Stretch {
        var first: Int
        var last: Int
        var loudest: Double
    }

    /// The runs of `run` windows or more over `threshold`.
    static func stretches(_ energies: [Double], threshold: Double, run: Int) -> [Stretch] {
        var stretches: [Stretch] = []
        var start: Int?
        for index in 0...energies.count {
            let loud = index < energies.count && energies[index] > threshold
            if loud, start == nil { start = index }
            guard !loud, let first = start else { continue }
            start = nil
            if index - first >= run {
                stretches.append(Stretch(first: first, last: index - 1, loudest: energies[first..<index].max()!))
            }
        }
        return stretches
    }

    /// The stretches that are the voice (their loudest at `voice` or over) and those within `attached` windows of
    /// one.
    static func nearVoice(_ stretches: [Stretch], voice: Double, attached: Int) -> [Stretch] {
        func isVoice(_ index: Int) -> Bool { stretches.indices.contains(index) && stretches[index].loudest >= voice }
        return stretches.indices.filter { index in
            isVoice(index)
                || (isVoice(index - 1) && stretches[index].first - stretches[index - 1].last <= attached)
                || (isVoice(index + 1) && stretches[index + 1].first - stretches[index].last <= attached)
        }.map { stretches[$0] }
    }

    /// The windows of the word: from its first stretch of `run` windows over `threshold` to its last, stretches
    /// apart from the voice left out when they are `quieterThanVoiceDB` under the loudest window or stand less
    /// than `standsOutDB` over the threshold; nil when no stretch is `run` windows long.
    static func word(_ energies: [Double], threshold: Double, run: Int, attached: Int) -> ClosedRange<Int>? {
        let stretches = Self.stretches(energies, threshold: threshold, run: run)
        let voice = voiceLevel(loudest: stretches.map(\.loudest).max() ?? 0, threshold: threshold)
        let kept = nearVoice(stretches, voice: voice, attached: attached)
        guard let first = kept.first, let last = kept.last else { return nil }
        return first.first...last.last
    }

    /// Windows quieter than this hold no recording at all: an editor's digital silence, padding.
    static let digitalSilence = 1e-12
    /// How many of the recording's frames come before the digital silence an editor may pad an export with (all
    /// of them when there is none): its end level is read from the last 10 ms window before it, so a voice cut
    /// off and then padded still ends where it was cut (38 of the 39 cut ends of five real packs padded with half
    /// a second of silence as WAVs, where none was seen before; the 39th sits at the threshold). Its start is read
    /// where the file starts: read past the padding, 7 of 380 recordings of twenty-one real packs rise from it to
    /// within 19–30 dB of their peak in their first 10 ms, a quick onset more than a cut, while no end but a cut
    /// one stays that loud. An MP3 of a padded cut spreads its coder's noise 30–45 ms past the cut (55–80 dB under
    /// the voice), so there the cut is not seen.
    public static func recordedFrames(_ channels: [[Float]]) -> Int {
        channels.map { samples in
            (samples.lastIndex { Double($0) * Double($0) > digitalSilence } ?? -1) + 1
        }.max() ?? 0
    }

    /// The least of the recording outside its sound (not digital silence) that a noise floor is read from.
    static let noiseMinimumMs = 50.0

    /// The recording's noise (dBFS): the quietest 5 % of its windows outside the sound, digital silence left out;
    /// −∞ when under `noiseMinimumMs` of them are left. A recording cut tight to its voice, or padded with
    /// digital silence, has no noise to be heard where the voice is not, and its quietest windows are the
    /// voice's own onset and decay: read as noise, they made a clean 伍 cut tight at 16 kHz "noise 24.8 dB under
    /// the voice", and the same noisy recording padded with silence had no noise at all.
    static func noiseFloorDB(_ energies: [Double], outside sound: ClosedRange<Int>, hop: Int, rate: Double) -> Double {
        let quiet = energies.indices.filter { !sound.contains($0) && energies[$0] > digitalSilence }.map {
            energies[$0]
        }
        guard Double(quiet.count * hop) * 1000 / rate >= noiseMinimumMs else { return -.infinity }
        return Decibels.power(Self.quietest(quiet, fraction: 0.05))
    }

    /// The mean square over which a window is sound, and the noise floor and peak (dBFS) it was set from.
    /// `UtteranceDetector` finds a session's utterances by the same rule.
    func soundThreshold(_ energies: [Double]) -> (threshold: Double, floorDB: Double, peakDB: Double) {
        let peakDB = Decibels.power(energies.max() ?? 0)
        let floorDB = Decibels.power(Self.quietest(energies, fraction: 0.05))
        let lowest = peakDB + thresholdDB
        // Never under the noise itself: in a noisy recording (noise within 40 dB of the voice) the
        // threshold rides 3 dB over the floor, and the run length keeps noise from counting as sound.
        let thresholdDB = max(min(max(floorDB + noiseMarginDB, lowest), lowest + 10), floorDB + 3)
        return (pow(10, thresholdDB / 10), floorDB, peakDB)
    }

    /// Whether the noise raised `threshold` (a mean square) over `thresholdDB` under the loudest window.
    func noiseRaised(_ threshold: Double, peakDB: Double) -> Bool {
        Decibels.power(threshold) > peakDB + thresholdDB + 0.01
    }

    /// The stretch of the recording that the cut keeps (pre-roll and post-roll included), in ms.
    public func keptRange(_ bounds: SoundBounds) -> ClosedRange<Double> {
        max(0, bounds.startMs - preRollMs)...min(bounds.durationMs, bounds.endMs + postRollMs)
    }

    /// Cuts `signal` — the recording, or a stretch of it starting `offsetMs` in (and resampled, perhaps) —
    /// to the kept range, with a fade at each end.
    public func cut(_ signal: Signal, around bounds: SoundBounds, offsetMs: Double = 0) -> (Signal, TrimReport) {
        let kept = keptRange(bounds)
        let head = min(signal.frames, max(0, signal.frames(ms: kept.lowerBound - offsetMs)))
        let tail = max(head, min(signal.frames, signal.frames(ms: kept.upperBound - offsetMs)))
        var samples = Array(signal.samples[head..<tail])
        Self.fade(&samples, inFrames: signal.frames(ms: fadeInMs), outFrames: signal.frames(ms: fadeOutMs))
        let rate = Double(signal.sampleRate)
        let report = TrimReport(
            headMs: offsetMs + Double(head) * 1000 / rate,
            tailMs: max(0, bounds.durationMs - offsetMs - Double(tail) * 1000 / rate),
            thresholdDBFS: bounds.thresholdDBFS, noiseFloorDBFS: bounds.noiseFloorDBFS, peakDBFS: bounds.peakDBFS,
            startLevelDB: bounds.startLevelDB, endLevelDB: bounds.endLevelDB, stray: bounds.stray)
        return (Signal(samples: samples, sampleRate: signal.sampleRate), report)
    }

    static func windowEnergies(_ samples: [Float], window: Int, hop: Int) -> [Double] {
        if samples.count <= window { return [Downmix.energy(samples)] }
        var energies: [Double] = []
        energies.reserveCapacity((samples.count - window) / hop + 1)
        var start = 0
        while start + window <= samples.count {
            energies.append(Downmix.energy(samples[start..<(start + window)]))
            start += hop
        }
        return energies
    }

    static func quietest(_ energies: [Double], fraction: Double) -> Double {
        let sorted = energies.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// Raised-cosine fades, so a cut makes no click.
    static func fade(_ samples: inout [Float], inFrames: Int, outFrames: Int) {
        let fadeIn = min(inFrames, samples.count / 2)
        for index in 0..<fadeIn {
            samples[index] *= Float(0.5 - 0.5 * cos(Double.pi * Double(index) / Double(fadeIn)))
        }
        let fadeOut = min(outFrames, samples.count / 2)
        for index in 0..<fadeOut {
            samples[samples.count - 1 - index] *= Float(0.5 - 0.5 * cos(Double.pi * Double(index) / Double(fadeOut)))
        }
    }
}

/// Where `Trim` found the sound, in ms from the start of the recording, and the levels that decided it.
public struct SoundBounds: Equatable, Sendable {
    public let startMs: Double
    public let endMs: Double
    public let durationMs: Double
    public let thresholdDBFS: Double
    /// The noise outside the sound (`Trim.noiseFloorDB`); −∞ where there is none to read.
    public let noiseFloorDBFS: Double
    public let peakDBFS: Double
    /// The recording's first and last 10 ms against its loudest, in dB: near 0 where the voice is cut off.
    public let startLevelDB: Double
    public let endLevelDB: Double
    /// A sound kept apart from the rest by a pause, when there is one.
    public let stray: StraySound?

    /// Where the word starts: `startMs`, or after a stray sound before it (a click, a breath) and its pause.
    public var wordStartMs: Double {
        guard let stray, stray.edge == .start else { return startMs }
        return startMs + stray.lengthMs + stray.pauseMs
    }

    /// Where the word ends: `endMs`, or before a stray sound after it (a breath, a second take) and its pause.
    public var wordEndMs: Double {
        guard let stray, stray.edge == .end else { return endMs }
        return endMs - stray.lengthMs - stray.pauseMs
    }
}

/// A sound that `Trim` kept though a pause parts it from the voice: a breath, a click or a second take before or
/// after the word. It is what lies beyond the longest pause (quiet windows) inside the sound, if that pause lasts
/// `minimumPauseMs`, on the side that holds less energy. Kept, it plays in every amount, the pause with it.
public struct StraySound: Equatable, Sendable {
    public enum Edge: String, Sendable { case start, end }
    public let edge: Edge
    public let pauseMs: Double
    public let lengthMs: Double
    /// Its loudest 10 ms against the recording's loudest, in dB.
    public let levelDB: Double

    /// Longer than any pause inside one syllable said alone: the longest in 289 single syllables of real and
    /// stand-in packs is 115 ms, after 15 ms of noise 46 dB under the voice (an 8 kHz 四); the next, 40 ms.
    public static let minimumPauseMs = 100.0

    /// The stray sound in `sound` (the windows from the first run of sound to the last), if any.
    static func find(
        energies: [Double], loud: [Bool], sound: ClosedRange<Int>, hopMs: Double, peakDB: Double
    ) -> StraySound? {
        var pause: Range<Int>?
        var index = sound.lowerBound
        while index <= sound.upperBound {
            guard !loud[index] else {
                index += 1
                continue
            }
            let start = index
            while index <= sound.upperBound && !loud[index] { index += 1 }
            if index - start > (pause?.count ?? 0) { pause = start..<index }
        }
        guard let pause, Double(pause.count) * hopMs >= minimumPauseMs else { return nil }
        let before = sound.lowerBound..<pause.lowerBound
        let after = pause.upperBound..<(sound.upperBound + 1)
        let energy = { (range: Range<Int>) in energies[range].reduce(0, +) }
        let (edge, part) = energy(before) < energy(after) ? (Edge.start, before) : (Edge.end, after)
        return StraySound(
            edge: edge, pauseMs: Double(pause.count) * hopMs, lengthMs: Double(part.count) * hopMs,
            levelDB: Decibels.power(energies[part].max() ?? 0) - peakDB)
    }
}

/// What `Trim` cut and why.
public struct TrimReport: Equatable, Sendable {
    public let headMs: Double
    public let tailMs: Double
    /// The level that counted as sound, in dBFS (mean square over 10 ms).
    public let thresholdDBFS: Double
    public let noiseFloorDBFS: Double
    public let peakDBFS: Double
    public let startLevelDB: Double
    public let endLevelDB: Double
    public let stray: StraySound?
}
