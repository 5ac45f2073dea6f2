import AudioPipeline
import Testing
import VoicePack

@testable import PackTools

/// The audio pipeline's stages take every value; `assets.json`'s are mapped onto them (the defaults live once,
/// in the settings).
@Suite struct PipelineSettingsTests {
    @Test func everySettingReachesItsStage() {
        var settings = Settings()
        settings.trim = Settings.Trim()
        settings.trim.thresholdDB = -60
        settings.trim.noiseMarginDB = 9
        settings.trim.preRollMs = 20
        settings.trim.postRollMs = 80
        settings.trim.fadeInMs = 2
        settings.trim.fadeOutMs = 30
        settings.loudness.targetLUFS = -20
        settings.loudness.fullScaleDBSPL = 84
        settings.loudness.truePeakCeilingDBTP = -2
        settings.loudness.maximumGainDB = 30
        settings.loudness.maximumLimitingDB = 6
        settings.resampler = .best
        settings.format.sampleRate = 48_000
        settings.limits.maximumSourceSeconds = 12
        let pipeline = FragmentPipeline(settings: settings)
        #expect(
            pipeline.trim
                == Trim(
                    thresholdDB: -60, noiseMarginDB: 9, preRollMs: 20, postRollMs: 80, fadeInMs: 2, fadeOutMs: 30))
        #expect(
            pipeline.normalize
                == Normalize(
                    targetPhon: -20 + 84 + 15.75, targetLUFS: -20, fullScaleDBSPL: 84, ceilingDBTP: -2,
                    maximumGainDB: 30, maximumLimitingDB: 6))
        #expect(pipeline.resample == Resample(to: 48_000, quality: .best))
        #expect(pipeline.maximumSourceSeconds == 12)
    }
}
