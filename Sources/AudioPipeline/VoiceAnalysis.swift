import CAubio
import Foundation

/// What a recording's voice is like, so that `check` can tell the one that does not match the rest: another
/// voice or register, a narrower band, more noise, another pace.
///
/// Pitch comes from aubio's YIN (its FFT variant) on the cut recording before its gain; the band and the
/// spectral centroid from aubio's FFT on the recording at its own rate, before resampling, so a 16 kHz delivery
/// or a telephone line shows as the narrow source it is. The levels come from `Trim`, which measured them already.
public struct VoiceAnalysis: Equatable, Sendable {
    /// Over the voiced frames; nil when fewer than `minimumVoicedFrames` carried a pitch.
    public var pitchMedianHz: Double?
    /// The 90th percentile over the voiced frames: the top of the voice's register. A Mandarin syllable's
    /// tone moves its median (三 high and level, 五 low and dipping) far more than this.
    public var pitchRegisterHz: Double?
    /// Where the pitch starts and ends, which tells whether a syllable's tone rises or falls: the median of the
    /// first and of the last fifth of the voiced frames, in time (`Course`). Nil where neither window read it.
    public var pitchStartHz: Double?
    public var pitchEndHz: Double?
    /// Of the frames inside the voice.
    public var voicedFraction: Double
    /// How many frames carried a pitch: the figures above rest on them.
    public var pitchFrames: Int
    /// From where the word's sound starts (a stray sound before it left out) to where its voice does
    /// (`PitchTrack.Voiced.voiceStartSeconds`): the consonant before the vowel, q and sh the longest. Nil where no
    /// voice was found.
    public var voiceOnsetMs: Double?
    /// Of the sound before the voice, where it lasts `minimumOnsetMs` or more: its level over 3 kHz against its
    /// whole level, in dB. Near 0 for a hiss (the j of 九, an s, a q); far under where the voice starts at once,
    /// and a w before a u carries almost nothing over 3 kHz (a real 五's start: −27 dB and under).
    public var onsetHighBandDB: Double?
    /// The band the recording carries: the highest frequency where the voice stands `clearOverNoiseDB` over the
    /// recording's own noise (and within `deepestBandDB` of its strongest band), or, higher, where that noise
    /// stands within `noiseShowsBandWithinDB` of the voice's strongest band; nil when no band does.
    public var bandwidthHz: Double?
    /// Energy-weighted over the voice's frames.
    public var centroidHz: Double
    /// The voice (loudest 10 ms) over the noise floor (`Trim`'s: the quietest 5 % of 10 ms windows outside
    /// the sound), in dB; 120 where there is no noise to read (digital silence, or a recording cut tight).
    public var snrDB: Double
    /// The sound's length, pre-roll and post-roll left out; a single syllable's without a stray sound apart from
    /// it and its pause (`SoundBounds.stray`; `check` warns of it in its own words): a click 400 ms before a word
    /// made it "another pace", twice the pack's, with a fix to re-record it at the pack's. A phrase pauses between
    /// its words (a real pack's 收款成功 said twice, 256 ms apart, would read 3 times as fast).
    public var voiceMs: Double
    /// A single syllable's vowel (`VowelEnvelope`); nil for a phrase.
    public var vowelEnvelope: [Double]?

    /// Fewer voiced frames than this (58 ms at 44.1 kHz) give no pitch: too short or too noisy. Few frames may
    /// still read a tone only in part (`FragmentRecord.keepsPitch` says which are kept).
    public static let minimumVoicedFrames = 5
    /// A frame is voiced when aubio is at least this confident of its pitch, and the pitch is a voice's.
    static let minimumConfidence: Float = 0.8
    static let voiceRangeHz = 50.0...800.0
    /// Hops more than this under the fragment's loudest hop are not judged: its silences and the last of its
    /// decays. Relative, and read before the gain and the limiter, so that a pack built louder or softer reads
    /// the same pitches (the built fragment under −40 dBFS, as this was, let a rising tone's top — 元's last
    /// frames, 25–35 dB down — come and go with the pack's level: 354 Hz at −12 LUFS, 287 at −20). 30 dB is
    /// where −40 dBFS sat under a fragment built at −16 LUFS (its loudest hop at −10 dBFS, the median over
    /// twenty packs).
    static let judgedWithinDB: Float = 30
    static let clearOverNoiseDB = 10.0
    static let deepestBandDB = 70.0
    /// Noise this loud shows the band the recording's chain carried: a voice sinking under it — a back vowel's
    /// weak highs in a noisy room (五 in a pack over noise 45 dB under full scale: its voice 10 dB over the noise
    /// to 1.4 kHz, the others' to 9 kHz) — ends where the noise hides it, not where the chain cut it. A chain
    /// that cuts the band (a telephone line, a low rate, a lossy export) cuts its noise with it. A stand-in's
    /// noise floor 72 dB under full scale lies 65–72 dB under its voice's strongest band, a room's noise 45 dB
    /// under full scale 40–47.
    static let noiseShowsBandWithinDB = 55.0

    /// Analyses `fragment` (the cut recording at the fragment's rate, before any gain, its word starting
    /// `soundStartMs` in) and `source` (the recording, mono, at its own rate) where `bounds` found the voice in it;
    /// `syllables` is how many the recording says.
    public static func measure(
        fragment: Signal, soundStartMs: Double, source: Signal, bounds: SoundBounds, syllables: Int
    ) -> VoiceAnalysis {
        measure(
            fragment: fragment, soundStartMs: soundStartMs,
            spectra: SourceSpectra(source, voiceMs: bounds.startMs...bounds.endMs), bounds: bounds,
            syllables: syllables)
    }

    /// The same, with the recording's spectra measured already (they do not change with the fragment's level).
    static func measure(
        fragment: Signal, soundStartMs: Double, spectra: SourceSpectra, bounds: SoundBounds, syllables: Int
    ) -> VoiceAnalysis {
        let window = AubioFrames.window(for: fragment.sampleRate)
        let frames = PitchTrack.voicedFrames(fragment, window: window)
        let inTime = frames.pitches.count >= minimumVoicedFrames ? pitchesInTime(frames, syllables: syllables) : []
        let voiced = inTime.sorted()
        let course =
            frames.pitches.count >= Course.minimumFrames
            ? Course(inTime)
            : Course(fragment, window: window / 2, syllables: syllables)
        return VoiceAnalysis(
            pitchMedianHz: voiced.isEmpty ? nil : percentile(voiced, 0.5),
            pitchRegisterHz: voiced.isEmpty ? nil : percentile(voiced, 0.9),
            pitchStartHz: course?.startHz, pitchEndHz: course?.endHz,
            voicedFraction: frames.judged == 0 ? 0 : Double(frames.pitches.count) / Double(frames.judged),
            pitchFrames: frames.pitches.count,
            voiceOnsetMs: frames.voiceStartSeconds.map { max(0, $0 * 1000 - soundStartMs) },
            onsetHighBandDB: frames.voiceStartSeconds.flatMap {
                highBandShare(fragment, fromMs: soundStartMs, toMs: $0 * 1000)
            },
            bandwidthHz: spectra.bandwidthHz(
                clearOverNoiseDB: clearOverNoiseDB, deepestBandDB: deepestBandDB,
                noiseShowsBandWithinDB: noiseShowsBandWithinDB),
            centroidHz: spectra.centroidHz,
            snrDB: min(120, bounds.peakDBFS - bounds.noiseFloorDBFS),
            voiceMs: syllables == 1 ? bounds.wordEndMs - bounds.wordStartMs : bounds.endMs - bounds.startMs,
            vowelEnvelope: syllables == 1 ? VowelEnvelope.measure(fragment) : nil)
    }

    /// The shortest sound before a voice that `onsetHighBandDB` is read on.
    static let minimumOnsetMs = 10.0

    /// The level of `fragment` over 3 kHz (`Fricatives.highPass`) from `fromMs` to `toMs`, against its whole
    /// level there, in dB; nil for a stretch under `minimumOnsetMs` or a silent one. The filter runs from the
    /// fragment's start, so that it has settled where the stretch begins.
    static func highBandShare(_ fragment: Signal, fromMs: Double, toMs: Double) -> Double? {
        let rate = Double(fragment.sampleRate)
        let first = max(0, Int(fromMs * rate / 1000))
        let last = min(fragment.samples.count, Int(toMs * rate / 1000))
        guard Double(last - first) >= minimumOnsetMs * rate / 1000 else { return nil }
        var highPass = Fricatives.highPass(sampleRate: fragment.sampleRate)
        var (high, whole) = (0.0, 0.0)
        for index in 0..<last {
            let sample = Double(fragment.samples[index])
            let filtered = highPass(sample)
            guard index >= first else { continue }
            (high, whole) = (high + filtered * filtered, whole + sample * sample)
        }
        guard high > 0, whole > 0 else { return nil }
        return 10 * log10(high / whole)
    }

    /// The voiced frames' pitches in time, an octave's misreading moved back and a formant's left out.
    static func pitchesInTime(_ frames: PitchTrack.Voiced, syllables: Int) -> [Double] {
        let leeway =
            syllables == 1 ? syllableLeeway(hopsBetween: frames.hopsBetween, hopSeconds: frames.hopSeconds) : nil
        return droppingMisreads(foldingOctaveJumps(frames.pitches, leeway: leeway))
    }

    /// Where a pitch starts and ends: the median of the first and of the last fifth of its frames in time.
    ///
    /// Read on `minimumFrames` of the analysis' frames (116 ms at 44.1 kHz), or, where it is sure of fewer, on
    /// as many frames of a window half as long (23 ms, 58 ms of frames). A real fourth tone falls so fast, breathy
    /// or creaky on its way down, that YIN over 46 ms is sure of little but its start (houyinyu's 二, 222 to
    /// 133 Hz in 170 ms: 6 of 26 frames, read 222 to 209 Hz); over 23 ms it follows the fall (20 frames, 8.9
    /// semitones). Three of twenty-one packs real apps shipped had one or two of their fourth tones' courses read
    /// with the long window alone, and their tone rule was off; with the short one, every single syllable's
    /// course but two third tones' was read. The long window is kept where it is sure: the short one holds two
    /// periods of a voice at 86 Hz only, and reads a lower voice at about 86 Hz (a fall from 110 to 60 Hz reads 3
    /// semitones, from 140 to 75 Hz 7, rather than 7.4 and 7.8): a low voice's fall is read shallower, never the
    /// other way.
    struct Course: Equatable {
        let startHz: Double
        let endHz: Double

        static let minimumFrames = 10

        /// From frames read with at least `minimumFrames` sure.
        init?(_ inTime: [Double]) {
            guard !inTime.isEmpty else { return nil }
            let fifth = max(1, inTime.count / 5)
            startHz = percentile(inTime.prefix(fifth).sorted(), 0.5)
            endHz = percentile(inTime.suffix(fifth).sorted(), 0.5)
        }

        init?(_ signal: Signal, window: Int, syllables: Int) {
            let frames = PitchTrack.voicedFrames(signal, window: window)
            guard frames.pitches.count >= Self.minimumFrames else { return nil }
            self.init(pitchesInTime(frames, syllables: syllables))
        }
    }

    /// A tracker reads a voice at twice (or half) its pitch for a few frames now and then: a run that jumps a whole
    /// octave (within `octaveJumpSemitones`, a falling tone moving on meanwhile; a jump wider than an octave also
    /// within `leeway`'s figure for the frame, when given) from the voiced frame before. The voiced frames are cut
    /// into runs at such jumps, and a run is moved to its neighbours' octave when it is a detour (the runs on both
    /// sides share an octave, one of them longer than it) or a blip of at most `misreadFrames` at either end (its
    /// one neighbour longer), detours before blips and the shortest first, and then again on what is left. Anything
    /// else is left as it is: a phrase falls 13 semitones from one syllable to the next (kelin's
    /// 收款成功: 收 at 366 Hz for 9 frames, 款 at 139), and a tone is no misreading. Moving every frame more than 8
    /// semitones from the syllable's median, as this did before, made a real third tone's register (houyinyu's
    /// 五, 193 Hz gliding to 94, its middle unvoiced) flip an octave with one voiced frame more or less: with 0.5 dB
    /// of level.
    static func foldingOctaveJumps(_ pitches: [Double], leeway: [Double]? = nil) -> [Double] {
        guard pitches.count > 1 else { return pitches }
        var read = [0]
        for index in pitches.indices.dropFirst() {
            let semitones = 12 * log2(pitches[index] / pitches[index - 1])
            let allowed = abs(semitones) > 12 ? leeway?[index] ?? octaveJumpSemitones : octaveJumpSemitones
            let jump = abs(abs(semitones) - 12) <= allowed ? (semitones > 0 ? 1 : -1) : 0
            read.append(read.last! + jump)
        }
        // One misreading at a time: moving it joins runs, and what is left is judged again.
        var octaves = read
        while let (run, octave) = nextMisreading(octaves) {
            for index in run { octaves[index] = octave }
        }
        return pitches.indices.map { pitches[$0] * pow(2, Double(octaves[$0] - read[$0])) }
    }

    /// The run of frames in one octave to move first, and its neighbours' octave: the shortest detour, or where
    /// there is none the shortest blip at an end. A detour has the voice's octave on both sides; a blip has one
    /// neighbour, which may itself be a detour. yangjing's 一, level at 360 Hz (Praat), was read 3 frames at 362,
    /// 4 at 182, then 10 at 361: the shortest run taken first, its first 3 frames went down to the detour's octave
    /// and made 7 frames no blip could undo, and its start read an octave under its end (a fourth tone read so
    /// would rise, and be called another token's).
    private static func nextMisreading(_ octaves: [Int]) -> (Range<Int>, Int)? {
        var runs: [Range<Int>] = []
        var start = 0
        for index in 1...octaves.count where index == octaves.count || octaves[index] != octaves[index - 1] {
            runs.append(start..<index)
            start = index
        }
        let misreadings = runs.indices.compactMap { position -> (run: Range<Int>, octave: Int, blip: Bool)? in
            let run = runs[position]
            let before = position > 0 ? runs[position - 1] : nil
            let after = position < runs.count - 1 ? runs[position + 1] : nil
            switch (before, after) {
            case (let before?, let after?):
                let detour = octaves[before.lowerBound] == octaves[after.lowerBound]
                return detour && run.count < max(before.count, after.count)
                    ? (run, octaves[before.lowerBound], false) : nil
            case (let neighbour?, nil), (nil, let neighbour?):
                let blip = run.count <= misreadFrames && run.count < neighbour.count
                return blip ? (run, octaves[neighbour.lowerBound], true) : nil
            case (nil, nil):
                return nil
            }
        }
        let first = misreadings.min { ($0.blip ? 1 : 0, $0.run.count) < ($1.blip ? 1 : 0, $1.run.count) }
        return first.map { ($0.run, $0.octave) }
    }

    /// How far from a whole octave a jump from one voiced frame to the next may be and still be one.
    static let octaveJumpSemitones = 2.0

    /// Within one syllable no tone leaps more than an octave, so such a jump over frames that carried no pitch is
    /// an octave's misreading and the glide meanwhile: it may stray from an octave by `octaveJumpSemitones` and
    /// what the voice glides over the hops skipped (`glideSemitonesPerSecond`), frame by frame.
    /// woicon/xiaojingling-wechat's 点 dips from 212 Hz to 147 and rises to 231; aubio read two frames of the
    /// fall at 401 and 395 Hz, and the next voiced frame, six hops on, at 147: 17 semitones under, an octave and
    /// the fall between. Taken for no octave jump, those two frames made the register 395 Hz. A narrower jump
    /// keeps the 2 semitones: a tone does fall that far (houyinyu's 亿, 6.5 semitones over five hops unvoiced),
    /// and taking it for an octave's cut off the tone's start as a misread blip. Over a phrase the next
    /// syllable may start anywhere (kelin's 收款成功 falls 17 semitones from 收 to 款): no leeway there.
    static func syllableLeeway(hopsBetween: [Int], hopSeconds: Double) -> [Double] {
        hopsBetween.map { octaveJumpSemitones + glideSemitonesPerSecond * Double(max(0, $0 - 1)) * hopSeconds }
    }

    /// About the fastest a voice glides over an octave: 78 semitones a second rising and 83 falling, for a
    /// 12-semitone excursion (Xu and Sun, "Maximum speed of pitch change and how it may relate to speech",
    /// J. Acoust. Soc. Am. 111, 2002).
    static let glideSemitonesPerSecond = 80.0

    /// The longest run at either end of the voiced frames taken for a misreading (about 46 ms at 44.1 kHz).
    static let misreadFrames = 4

    /// Frames read further than `misreadSemitones` from the syllable's median are no pitch of its voice but a
    /// formant or a hiss the tracker took for one (espeak-ng's 支付宝到账 has runs at 5–7 times its 97 Hz): left out.
    static func droppingMisreads(_ pitches: [Double]) -> [Double] {
        guard !pitches.isEmpty else { return [] }
        let median = percentile(pitches.sorted(), 0.5)
        return pitches.filter { abs(12 * log2($0 / median)) <= misreadSemitones }
    }

    /// Further than a tone moves a voice (a third tone dips about 10 semitones), nearer than a formant's misread.
    static let misreadSemitones = 18.0

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

/// aubio's pitch trackers over a signal, hop by hop.
///
/// Two of them: YIN (`yinfast`) says whether a frame is voiced — its confidence is what aubio offers for that —
/// and the spectral YIN (`yinfft`) says at what pitch, since on band-limited recordings (an 8 kHz delivery)
/// YIN jumps an octave up for whole syllables (a voice at 320 Hz read as 650 Hz) where `yinfft` holds; `yinfft`
/// reports no confidence of its own in aubio 0.4.
enum PitchTrack {
    /// The frames aubio is confident of, in order.
    struct Voiced {
        var pitches: [Double] = []
        /// How many hops each comes after the voiced frame before (1 for the first).
        var hopsBetween: [Int] = []
        let hopSeconds: Double
        /// How many frames were loud enough to judge.
        var judged = 0
        /// Where the voice starts, in seconds into the signal: the middle of the window of the first of
        /// `voiceStartHops` hops in a row that the plain YIN reads at a voice's pitch, at least
        /// `voiceStartConfidence` sure and within `voiceStartSemitones` of the hop before. Less sure than the
        /// frames whose pitch is read: a voice's first hops, a breathy or creaky start, or a voice over a room's
        /// noise leave YIN unsure (60–80 %) of a pitch it reads right, and the hiss of a fricative is read, as
        /// sure, at 2–7 kHz or jumping from hop to hop.
        var voiceStartSeconds: Double?
    }

    static let voiceStartHops = 3
    static let voiceStartConfidence: Float = 0.5
    static let voiceStartSemitones = 2.0

    /// The pitch of every frame aubio is confident of, and how many frames loud enough to judge there were.
    static func voicedFrames(_ signal: Signal, window: Int) -> Voiced {
        let hop = window / 4
        var voiced = Voiced(hopSeconds: Double(hop) / Double(signal.sampleRate))
        var loudestDB = -Float.infinity
        AubioFrames.hops(of: signal.samples, hop: hop) { loudestDB = max(loudestDB, aubio_db_spl($0)) }
        let silence = loudestDB - VoiceAnalysis.judgedWithinDB
        guard loudestDB.isFinite,
            let voicing = tracker("yinfast", window: window, hop: hop, rate: signal.sampleRate, silence: silence)
        else { return voiced }
        defer { del_aubio_pitch(voicing) }
        guard let pitch = tracker("yinfft", window: window, hop: hop, rate: signal.sampleRate, silence: silence)
        else { return voiced }
        defer { del_aubio_pitch(pitch) }
        let output = new_fvec(1)!
        defer { del_fvec(output) }
        var hopsSinceVoiced = 1
        var hops = 0
        var startRun: [Double] = []  // the readings of the hops in a row that may start the voice
        AubioFrames.hops(of: signal.samples, hop: hop) { input in
            defer { hopsSinceVoiced += 1 }
            hops += 1
            aubio_pitch_do(voicing, input, output)
            let fast = Double(output.pointee.data[0])
            let loud = fast > 0  // aubio's answer for a frame under the silence level is 0
            let sureness = aubio_pitch_get_confidence(voicing)
            let confident = sureness >= VoiceAnalysis.minimumConfidence
            if voiced.voiceStartSeconds == nil {
                let voice = loud && sureness >= voiceStartConfidence && VoiceAnalysis.voiceRangeHz.contains(fast)
                let steady = startRun.last.map { abs(12 * log2(fast / $0)) <= voiceStartSemitones } ?? true
                startRun = voice ? (steady ? startRun : []) + [fast] : []
                if startRun.count == voiceStartHops {
                    // The window of the run's first hop ends with that hop.
                    let end = Double((hops - voiceStartHops + 1) * hop)
                    voiced.voiceStartSeconds = (end - Double(window) / 2) / Double(signal.sampleRate)
                }
            }
            aubio_pitch_do(pitch, input, output)
            guard loud else { return }
            voiced.judged += 1
            if confident, let hz = reading(spectral: Double(output.pointee.data[0]), temporal: fast) {
                voiced.hopsBetween.append(voiced.pitches.isEmpty ? 1 : hopsSinceVoiced)
                voiced.pitches.append(hz)
                hopsSinceVoiced = 0
            }
        }
        return voiced
    }

    /// A frame's pitch from the two trackers' readings: the spectral YIN's (`yinfft`), unless it lies outside a
    /// voice's range — where it took a formant for the pitch (3.3 kHz for a low voice's 七 at 129 Hz) — or an
    /// octave or more over the plain YIN's (`yinfast`): an octave in a low voice's creaky third tone (163 Hz for
    /// 81), a harmonic under a strong first formant further up (545 Hz for 87); then the plain YIN's. Where the
    /// plain YIN reads an octave over (an 8 kHz 八), the spectral one is kept.
    static func reading(spectral: Double, temporal: Double) -> Double? {
        let range = VoiceAnalysis.voiceRangeHz
        guard range.contains(spectral) else { return range.contains(temporal) ? temporal : nil }
        let octaves = log2(spectral / temporal)
        return range.contains(temporal) && octaves > 1 - octaveLeeway ? temporal : spectral
    }

    /// How far (in octaves) under an octave apart two readings may be and count as an octave.
    static let octaveLeeway = 2.0 / 12

    /// `silence`: the level (dB) under which aubio judges no frame.
    private static func tracker(_ method: String, window: Int, hop: Int, rate: Int, silence: Float) -> OpaquePointer? {
        guard let tracker = new_aubio_pitch(method, UInt32(window), UInt32(hop), UInt32(rate)) else { return nil }
        aubio_pitch_set_unit(tracker, "Hz")
        aubio_pitch_set_silence(tracker, silence)
        return tracker
    }
}

/// The recording's average spectrum over its voice and over its silence, in third-octave bands, from
/// aubio's FFT; and the voice's spectral centroid, from aubio's spectral descriptor.
struct SourceSpectra {
    /// Power per band: the voice's at its strongest (`voicePercentile` over its frames: a fricative's hiss
    /// fills the top bands in a few frames only), the noise's median over the frames wholly outside the voice.
    var voice: [Double]
    var noise: [Double]?
    var bandEdgesHz: [(lower: Double, upper: Double)]
    var centroidHz: Double

    static let voicePercentile = 0.95

    init(_ source: Signal, voiceMs: ClosedRange<Double>) {
        let window = AubioFrames.window(for: source.sampleRate)
        let binHz = Double(source.sampleRate) / Double(window)
        let edges = Self.thirdOctaves(upTo: Double(source.sampleRate) / 2)
        bandEdgesHz = edges
        let frames = Self.frames(of: source, window: window, edges: edges, voiceMs: voiceMs)
        let voiceFrames = frames.filter(\.inVoice)
        let silentFrames = frames.filter(\.inSilence)
        voice = Self.bandLevels(voiceFrames.map(\.bands), count: edges.count, percentile: Self.voicePercentile)
        noise =
            silentFrames.count >= 3
            ? Self.bandLevels(silentFrames.map(\.bands), count: edges.count, percentile: 0.5) : nil
        let totalEnergy = voiceFrames.reduce(0) { $0 + $1.energy }
        centroidHz =
            totalEnergy > 0 ? voiceFrames.reduce(0) { $0 + $1.centroidBin * $1.energy } / totalEnergy * binHz : 0
    }

    /// One frame of the spectrum: its power in each band, its whole power, its centroid (in bins), and whether
    /// it stands in the voice or wholly outside it.
    struct Frame {
        let bands: [Double]
        let energy: Double
        let centroidBin: Double
        let inVoice: Bool
        let inSilence: Bool
    }

    /// Half-overlapping frames see every moment of the recording; a band's level needs no finer steps.
    ///
    /// Framed and windowed as aubio's phase vocoder does it (a Hann window, the first frame ending one hop
    /// in), but magnitudes only: the vocoder would also work out every bin's phase, which nothing here reads
    /// and which cost a third of this analysis (the halves it swaps first move the phases alone).
    static func frames(
        of source: Signal, window: Int, edges: [(lower: Double, upper: Double)], voiceMs: ClosedRange<Double>
    ) -> [Frame] {
        let rate = Double(source.sampleRate)
        let hop = window / 2
        let bins = window / 2 + 1
        let binHz = rate / Double(window)
        let bandOfBin = (0..<bins).map { bin in
            edges.firstIndex { Double(bin) * binHz >= $0.lower && Double(bin) * binHz < $0.upper }
        }
        var hann = Array("hanningz".utf8CString)
        let taper = new_aubio_window(&hann, UInt32(window))!
        let fft = new_aubio_fft(UInt32(window))!
        let frame = new_fvec(UInt32(window))!
        let complex = new_fvec(UInt32(window))!
        let descriptor = new_aubio_specdesc("centroid", UInt32(window))!
        let grain = new_cvec(UInt32(window))!
        let centroid = new_fvec(1)!
        defer {
            del_fvec(taper)
            del_aubio_fft(fft)
            del_fvec(frame)
            del_fvec(complex)
            del_aubio_specdesc(descriptor)
            del_cvec(grain)
            del_fvec(centroid)
        }
        var frames: [Frame] = []
        let samples = source.samples
        for end in stride(from: hop, through: samples.count, by: hop) {
            for index in 0..<window {
                let sample = end - window + index
                frame.pointee.data[index] = sample >= 0 ? samples[sample] : 0
            }
            fvec_weight(frame, taper)
            aubio_fft_do_complex(fft, frame, complex)
            aubio_fft_get_norm(complex, grain)
            aubio_specdesc_do(descriptor, grain, centroid)
            var bands = [Double](repeating: 0, count: edges.count)
            var energy = 0.0
            for bin in 0..<bins {
                let power = Double(grain.pointee.norm[bin]) * Double(grain.pointee.norm[bin])
                energy += power
                if let band = bandOfBin[bin] { bands[band] += power }
            }
            let startMs = Double(end - window) * 1000 / rate
            let endMs = Double(end) * 1000 / rate
            frames.append(
                Frame(
                    bands: bands, energy: energy, centroidBin: Double(centroid.pointee.data[0]),
                    inVoice: voiceMs.contains((startMs + endMs) / 2),
                    inSilence: endMs < voiceMs.lowerBound || startMs > voiceMs.upperBound))
        }
        return frames
    }

    /// The upper edge of the highest band where the voice stands `clearOverNoiseDB` over the noise and within
    /// `deepestBandDB` of its own strongest band, or where the noise stands within `noiseShowsBandWithinDB` of
    /// the voice's strongest band.
    func bandwidthHz(clearOverNoiseDB: Double, deepestBandDB: Double, noiseShowsBandWithinDB: Double) -> Double? {
        guard let strongest = voice.max(), strongest > 0 else { return nil }
        let floor = strongest * pow(10, -deepestBandDB / 10)
        let clear = voice.indices.last { band in
            voice[band] > floor && voice[band] > (noise?[band] ?? 0) * pow(10, clearOverNoiseDB / 10)
        }
        let shown = noise.flatMap { noise in
            noise.indices.last { noise[$0] > strongest * pow(10, -noiseShowsBandWithinDB / 10) }
        }
        return [clear, shown].compactMap { $0 }.max().map { bandEdgesHz[$0].upper }
    }

    /// Third-octave bands centred on 1 kHz × 2^(n/3), from 100 Hz up to the last that fits under `nyquist`.
    static func thirdOctaves(upTo nyquist: Double) -> [(lower: Double, upper: Double)] {
        (-10...30).compactMap { n in
            let centre = 1000 * pow(2, Double(n) / 3)
            let edges = (lower: centre * pow(2, -1.0 / 6), upper: centre * pow(2, 1.0 / 6))
            return edges.upper <= nyquist ? edges : nil
        }
    }

    static func bandLevels(_ frames: [[Double]], count: Int, percentile: Double) -> [Double] {
        guard !frames.isEmpty else { return [Double](repeating: 0, count: count) }
        return (0..<count).map { band in
            VoiceAnalysis.percentile(frames.map { $0[band] }.sorted(), percentile)
        }
    }
}

/// Feeding aubio: its frame size for a rate, and the signal hop by hop in an aubio vector.
enum AubioFrames {
    /// The power of two nearest 46 ms, on a log scale (2,048 samples at 44.1 and 48 kHz): two periods of an
    /// 80 Hz voice.
    static func window(for sampleRate: Int) -> Int {
        let exponent = log2(Double(sampleRate) * 0.046).rounded()
        return 1 << max(8, Int(exponent))
    }

    /// Calls `body` with each whole hop of `samples` in turn, in one reused aubio vector.
    static func hops(of samples: [Float], hop: Int, _ body: (UnsafeMutablePointer<fvec_t>) -> Void) {
        let input = new_fvec(UInt32(hop))!
        defer { del_fvec(input) }
        var start = 0
        while start + hop <= samples.count {
            for index in 0..<hop { input.pointee.data[index] = samples[start + index] }
            body(input)
            start += hop
        }
    }
}
