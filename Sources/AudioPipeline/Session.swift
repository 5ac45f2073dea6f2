import Foundation

/// A recording session — a voice talent reading the whole list in one take — read in blocks: its level every
/// 5 ms (10 ms windows, the channels averaged), which is all that finding the utterances needs. An hour at
/// 48 kHz is 690 MB of samples but 5.8 MB of levels.
public struct SessionLevels: Sendable {
    public let info: SoundFile.Info
    /// Mean square of each window, window `i` starting at frame `i × hopFrames`.
    public let energies: [Double]
    /// The same over 3 kHz, where a fricative is looked for (`Fricatives`).
    public let highEnergies: [Double]
    public let windowFrames: Int
    public let hopFrames: Int

    public var durationMs: Double { Double(info.frames) * 1000 / Double(info.sampleRate) }

    /// Reads the session at `path`; `progress` hears the fraction read now and then.
    public static func read(path: String, name: String, progress: (Double) -> Void = { _ in }) throws(AudioError)
        -> SessionLevels
    {
        let file = try SoundFile.open(reading: path, name: name)
        let info = file.info
        let window = max(1, Int((Double(info.sampleRate) * Trim.windowMs / 1000).rounded()))
        let hop = max(1, Int((Double(info.sampleRate) * Trim.hopMs / 1000).rounded()))
        var (energies, highEnergies): ([Double], [Double]) = ([], [])
        energies.reserveCapacity(info.frames / hop + 1)
        highEnergies.reserveCapacity(info.frames / hop + 1)
        var highPass = Fricatives.highPass(sampleRate: info.sampleRate)
        // Mono samples (and their part over 3 kHz) not yet covered by a whole window, and where the next window
        // starts among them.
        var (pending, pendingHigh): ([Float], [Float]) = ([], [])
        var next = 0
        var read = 0
        var reported = 0.0
        while true {
            let block = try file.readInterleaved(frames: 65_536)
            if block.isEmpty { break }
            let frames = block.count / info.channels
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<info.channels { sum += block[frame * info.channels + channel] }
                pending.append(sum / Float(info.channels))
                pendingHigh.append(Float(highPass(Double(pending[pending.count - 1]))))
            }
            while next + window <= pending.count {
                energies.append(Downmix.energy(pending[next..<(next + window)]))
                highEnergies.append(Downmix.energy(pendingHigh[next..<(next + window)]))
                next += hop
            }
            pending.removeFirst(next)
            pendingHigh.removeFirst(next)
            next = 0
            read += frames
            if info.frames > 0, Double(read) / Double(info.frames) >= reported + 0.1 {
                reported = Double(read) / Double(info.frames)
                progress(reported)
            }
        }
        try file.close()
        guard !energies.isEmpty else {
            throw AudioError(file: name, problem: "it holds less than 10 ms of audio", fix: "export the session again")
        }
        return SessionLevels(
            info: info, energies: energies, highEnergies: highEnergies, windowFrames: window, hopFrames: hop)
    }
}

/// Finds the utterances of a session with the noise-aware rule `Trim` uses: sound is a 10 ms window over the
/// threshold (6 dB over the noise floor, within 50–40 dB under the loudest window), in runs of 15 ms; an
/// utterance ends at a pause of at least `minimumPauseMs`. A stretch of sound more than `quieterThanVoicesDB`
/// under the voice (the upper quartile of the stretches an utterance long) is no utterance and ends no pause —
/// a breath, or a room's noise rising over the threshold for a few windows, as a rumble does — unless it comes
/// within `attachedMs` of the voice (a fricative before its vowel); nor is one standing less than
/// `Trim.standsOutDB` over the threshold, or a short stretch (a click).
/// Where the noise raised the threshold, an utterance starts at a fricative heard over 3 kHz, as in `Trim`.
public struct UtteranceDetector: Sendable {
    public var minimumPauseMs: Double
    public var minimumUtteranceMs = 80.0
    public var quieterThanVoicesDB = Trim.quieterThanVoiceDB
    public var attachedMs = Trim.attachedMs
    /// What sound is: the pack's trim, so a session's utterances are found as `build` finds a recording's sound.
    public var trim: Trim

    public init(minimumPauseMs: Double, trim: Trim) {
        self.minimumPauseMs = minimumPauseMs
        self.trim = trim
    }

    /// Each utterance's frames, from its first sound to its last, in order.
    public func utterances(in levels: SessionLevels) -> [Range<Int>] {
        let energies = levels.energies
        guard let loudest = energies.max(), loudest > 1e-12 else { return [] }
        let hopMs = Double(levels.hopFrames) * 1000 / Double(levels.info.sampleRate)
        let (threshold, _, peakDB) = trim.soundThreshold(energies)
        let stretches = Trim.stretches(
            energies, threshold: threshold, run: max(1, Int((trim.minimumSoundMs / hopMs).rounded(.up))))
        let long = stretches.filter { Double($0.last - $0.first + 1) * hopMs >= minimumUtteranceMs }
        let sorted = (long.isEmpty ? stretches : long).map(\.loudest).sorted()
        guard !sorted.isEmpty else { return [] }
        // The upper quartile: a session has a breath, at most, for every utterance.
        let voice = Trim.voiceLevel(
            loudest: sorted[sorted.count * 3 / 4], threshold: threshold, quieterDB: quieterThanVoicesDB)
        let kept = Trim.nearVoice(stretches, voice: voice, attached: Int((attachedMs / hopMs).rounded()))
        // Joined across gaps shorter than a pause.
        let pause = max(1, Int((minimumPauseMs / hopMs).rounded()))
        var joined: [Trim.Stretch] = []
        for stretch in kept {
            if let previous = joined.last, stretch.first - previous.last - 1 < pause {
                joined[joined.count - 1] = Trim.Stretch(
                    first: previous.first, last: stretch.last, loudest: max(previous.loudest, stretch.loudest))
            } else {
                joined.append(stretch)
            }
        }
        let frames = levels.info.frames
        let fricative =
            trim.noiseRaised(threshold, peakDB: peakDB)
            ? Fricatives.threshold(levels.highEnergies, isSound: { energies[$0] > threshold }) : nil
        return joined.indices.compactMap { index in
            let stretch = joined[index]
            let lastFrame = min(frames, stretch.last * levels.hopFrames + levels.windowFrames)
            let ms = Double(lastFrame - stretch.first * levels.hopFrames) * 1000 / Double(levels.info.sampleRate)
            guard ms >= minimumUtteranceMs, stretch.loudest >= voice else { return nil }
            let first =
                fricative.map {
                    Fricatives.start(
                        before: stretch.first, high: levels.highEnergies, threshold: $0,
                        earliest: index > 0 ? joined[index - 1].last + 1 : 0, hopMs: hopMs)
                } ?? stretch.first
            return (first * levels.hopFrames)..<lastFrame
        }
    }
}
