import Foundation

/// One recording in, one fragment out: the stages in the order they run.
///
///     decode (libsndfile, else FFmpeg) → remove DC → downmix → find the sound → resample what is kept → cut → normalize → encode
///
/// Each stage is a value with its settings; this type only runs them in order and collects what each
/// one measured and decided, in two halves: `prepare`, all that the level a fragment is built at does not
/// change, and `finish`, from normalizing on (a build whose pack gain moves runs `finish` again). Trimming is
/// split around resampling: the sound is found at the recording's own rate, and only the stretch the cut keeps
/// (with `resamplingMarginMs` either side, so the filter's edges fall outside it) is resampled. That is most of
/// a build's work saved — recordings arrive with far more silence than voice — and it changes nothing the cut
/// keeps.
public struct FragmentPipeline: Sendable {
    /// Longer sources are refused before they are decoded: a fragment is a word or a phrase.
    public var maximumSourceSeconds: Double
    /// Shorter sources cannot hold a syllable.
    public var minimumSourceMs = 20.0
    /// Extra recording resampled either side of the kept stretch.
    static let resamplingMarginMs = 5.0

    public var removeDC = RemoveDC()
    public var downmix = Downmix()
    public var resample: Resample
    public var trim: Trim
    public var normalize: Normalize
    public var encode: Encode

    /// PackTools makes one from `assets.json` (`FragmentPipeline(settings:)`).
    public init(maximumSourceSeconds: Double, resample: Resample, trim: Trim, normalize: Normalize, encode: Encode) {
        self.maximumSourceSeconds = maximumSourceSeconds
        self.resample = resample
        self.trim = trim
        self.normalize = normalize
        self.encode = encode
    }

    /// Reads `sourcePath` through the stages up to normalizing: decode, remove DC, downmix, find the sound,
    /// resample, cut, and the measures `Normalize` and `VoiceAnalysis` take of the result before any gain (the
    /// voice's pitch is read relative to its loudest moment, so what it finds does not depend on the level the
    /// pack is built at). `name` is how errors and reports name the source; `syllables`, how many it says.
    public func prepare(sourcePath: String, name: String, syllables: Int) throws(AudioError) -> PreparedRecording {
        let (info, channels) = try Decode.read(path: sourcePath, name: name, maximumSeconds: maximumSourceSeconds)
        let durationMs = Double(channels[0].count) * 1000 / Double(info.sampleRate)
        if durationMs < minimumSourceMs {
            throw AudioError(
                file: name, problem: "it lasts \(String(format: "%.2f", durationMs)) ms, too short to be a fragment",
                fix: "record or export the whole word")
        }

        let clipped = Self.clippedSamples(channels)
        let centred = removeDC.apply(channels, sampleRate: info.sampleRate)
        let (mono, decision) = downmix.apply(centred, sampleRate: info.sampleRate)
        // In the mono signal's frames: the downmix may read two alternating channels as one at twice the rate.
        let recorded = Trim.recordedFrames(channels) * mono.frames / max(1, channels[0].count)
        let bounds = try trim.findSound(mono, name: name, recordedFrames: recorded)
        let kept = trim.keptRange(bounds)
        let stretch = max(0, kept.lowerBound - Self.resamplingMarginMs)...(kept.upperBound + Self.resamplingMarginMs)
        let resampled = try resample.apply(mono.slice(ms: stretch))
        let (trimmed, trimReport) = trim.cut(resampled, around: bounds, offsetMs: stretch.lowerBound)
        let analysis = VoiceAnalysis.measure(
            fragment: trimmed, soundStartMs: bounds.wordStartMs - kept.lowerBound,
            spectra: SourceSpectra(mono, voiceMs: bounds.startMs...bounds.endMs), bounds: bounds, syllables: syllables)
        return PreparedRecording(
            source: info, clippedSamples: clipped, channelDecision: decision, trim: trimReport,
            measured: try normalize.measure(trimmed, name: name), analysis: analysis)
    }

    /// The stages from normalizing on: normalize, encode, write to `outputPath`. `ditherSeed` names the fragment
    /// so its dither is the same on every build; `fitStart`, where a search for this target ended, when one was
    /// made (the fit starts there).
    public func finish(
        _ prepared: PreparedRecording, name: String, outputPath: String, ditherSeed: String, fitStart: Double? = nil
    ) throws(AudioError) -> FragmentReport {
        let (normalized, loudnessReport) = try normalize.apply(prepared.measured, name: name, fitStart: fitStart)
        let quantized = encode.quantize(normalized, ditherSeed: DitherNoise.seed(for: ditherSeed))
        try encode.write(quantized, to: outputPath)
        return FragmentReport(
            source: prepared.source, sourceClippedSamples: prepared.clippedSamples,
            channelDecision: prepared.channelDecision, trim: prepared.trim, loudness: loudnessReport,
            frames: quantized.frames, durationMs: quantized.durationMs,
            loudnessLUFS: loudnessReport.outputLUFS, truePeakDBTP: loudnessReport.outputTruePeakDBTP,
            loudnessPhon: loudnessReport.outputPhon, edgeLevels: EdgeLevels(quantized), analysis: prepared.analysis)
    }
}

/// A recording taken through the stages that do not depend on the level it is built at (`prepare`): a build
/// whose pack gain moves keeps it, and only normalizes and encodes again.
public struct PreparedRecording: Sendable {
    let source: SoundFile.Info
    let clippedSamples: Int
    let channelDecision: ChannelDecision
    let trim: TrimReport
    public let measured: Normalize.Measured
    let analysis: VoiceAnalysis

    /// About how much memory it holds.
    public var approximateBytes: Int { measured.approximateBytes }
}

/// Everything the pipeline measured and decided for one fragment.
public struct FragmentReport: Equatable, Sendable {
    public let source: SoundFile.Info
    /// Samples of the recording in runs of three or more at full scale: it clipped when it was recorded, or when
    /// it was exported (a lossy file decoded over full scale and written as 16-bit WAV).
    public let sourceClippedSamples: Int
    public let channelDecision: ChannelDecision
    public let trim: TrimReport
    public let loudness: LoudnessReport
    public let frames: Int
    public let durationMs: Double
    /// Measured on the normalized samples; the encoder's rounding and dither change them by far less than the
    /// manifest's 0.01 dB.
    public let loudnessLUFS: Double
    public let truePeakDBTP: Double
    /// How loud the fragment is heard: ISO 532-1 N5 in phon.
    public let loudnessPhon: Double
    /// How loud it starts and ends, for the level step at a join.
    public let edgeLevels: EdgeLevels
    /// What its voice is like: pitch, band, noise, length.
    public let analysis: VoiceAnalysis

    public var sourceDurationMs: Double { Double(source.frames) * 1000 / Double(source.sampleRate) }
}

/// The level at each end of a fragment, where it meets its neighbours in a spliced amount: the loudest 50 ms
/// (RMS, every 10 ms) within its first and its last 150 ms. Not the last 50 ms alone, which hold the
/// post-roll and the decay of every syllable, 30–60 dB down: the word's own start and end as heard.
public struct EdgeLevels: Equatable, Sendable {
    public let headDBFS: Double
    public let tailDBFS: Double

    static let windowMs = 50.0
    static let spanMs = 150.0

    init(_ signal: Signal) {
        let span = min(signal.frames, signal.frames(ms: Self.spanMs))
        headDBFS = Self.loudestWindow(signal.samples[0..<span], signal)
        tailDBFS = Self.loudestWindow(signal.samples[(signal.frames - span)...], signal)
    }

    static func loudestWindow(_ samples: ArraySlice<Float>, _ signal: Signal) -> Double {
        let window = max(1, min(samples.count, signal.frames(ms: windowMs)))
        let hop = max(1, signal.frames(ms: 10))
        var loudest = 0.0
        var start = samples.startIndex
        while start + window <= samples.endIndex {
            let power = samples[start..<(start + window)].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(window)
            loudest = max(loudest, power)
            start += hop
        }
        return loudest > 0 ? 10 * log10(loudest) : -200
    }
}

extension FragmentPipeline {
    /// Samples in flat runs of three or more — the same value, at (or within 0.01 dB under) full scale — in any
    /// channel. A smooth crest that reaches full scale is no clipping, though at 48 kHz a voice's crest normalized
    /// to 0 dBFS holds several samples within 0.01 dB of it; a clipped one is cut flat. Samples over full scale
    /// are not counted: no recording holds them, only a lossy decoder's output where its encoder rang over a peak
    /// (a 64 kb/s AAC of a recording peaking at 0.79 decodes to 1.09), which is no clipping of the recording.
    static func clippedSamples(_ channels: [[Float]]) -> Int {
        var count = 0
        for samples in channels {
            var run = 0
            var previous: Float = 0
            for sample in samples {
                defer { previous = sample }
                if (0.9988...1).contains(abs(sample)) {
                    run = sample == previous ? run + 1 : 1
                    if run == 3 { count += 3 } else if run > 3 { count += 1 }
                } else {
                    run = 0
                }
            }
        }
        return count
    }
}
