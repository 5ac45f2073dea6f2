import AudioPipeline
import VoicePack

/// The audio pipeline's stages take their own small settings, every value given; these map `assets.json`'s
/// onto them, so each default lives once, in the settings model.
extension FragmentPipeline {
    /// The pipeline with every setting that shapes the audio taken from `assets.json`.
    init(settings: Settings) {
        self.init(
            maximumSourceSeconds: settings.limits.maximumSourceSeconds,
            resample: Resample(to: settings.format.sampleRate, quality: settings.resampler),
            trim: Trim(settings.trim), normalize: Normalize(settings.loudness),
            encode: Encode(sampleFormat: settings.format.sampleFormat, container: settings.format.container))
    }
}

extension Trim {
    /// The trim `assets.json` sets.
    public init(_ settings: Settings.Trim) {
        self.init(
            thresholdDB: settings.thresholdDB, noiseMarginDB: settings.noiseMarginDB, preRollMs: settings.preRollMs,
            postRollMs: settings.postRollMs, fadeInMs: settings.fadeInMs, fadeOutMs: settings.fadeOutMs)
    }
}

extension Normalize {
    /// The loudness `assets.json` sets.
    public init(_ settings: Settings.Loudness) {
        self.init(
            targetPhon: settings.targetPhon, targetLUFS: settings.targetLUFS, fullScaleDBSPL: settings.fullScaleDBSPL,
            ceilingDBTP: settings.truePeakCeilingDBTP, maximumGainDB: settings.maximumGainDB,
            maximumLimitingDB: settings.maximumLimitingDB)
    }
}
