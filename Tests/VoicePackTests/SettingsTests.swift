import PackManifest
import SpeechText
import Testing
import VoicePack

@Suite struct SettingsTests {
    func issues(_ text: String) -> [String] {
        do {
            _ = try Settings.parse(text, name: "assets.json")
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test func noKeysMeansEveryDefault() throws {
        #expect(try Settings.parse("{}", name: "assets.json") == Settings())
        let defaults = Settings()
        #expect(defaults.format == AudioFormat(sampleRate: 44_100, channels: 1, sampleFormat: .pcm16, container: .wav))
        #expect(defaults.loudness.targetLUFS == -16 && defaults.loudness.truePeakCeilingDBTP == -1)
        #expect(defaults.styles == ReadingStyle.allCases && defaults.forms == AmountForm.allCases)
    }

    @Test func everySettingIsRead() throws {
        let settings = try Settings.parse(
            """
            {
              "schemaVersion": 1, "raw": "recordings", "out": "built", "manifest": "pack.json",
              "format": {"sampleRate": 48000, "sampleFormat": "pcm24", "container": "caf"},
              "resampler": "medium",
              "loudness": {"targetLUFS": -18, "truePeakCeilingDBTP": -2, "maximumGainDB": 30, "maximumLimitingDB": 6, "toleranceLU": 1},
              "trim": {"thresholdDB": -45, "noiseMarginDB": 8, "preRollMs": 20, "postRollMs": 60, "fadeInMs": 4, "fadeOutMs": 12},
              "limits": {"maximumSourceSeconds": 10, "minimumFragmentMs": 50, "maximumFragmentMs": 3000, "utteranceWarningSeconds": 15},
              "splice": {"gapMs": 30, "crossfadeMs": 8},
              "styles": ["spoken", "formatter"], "forms": ["yuan"],
              "stems": {"yuan_2": "元"}, "phrases": {"phrase_wechat": "微信收款"},
              "aliases": {"〇": "零"}, "templates": {"wechat": "微信收款{amount}"}
            }
            """, name: "assets.json")
        #expect(settings.raw == "recordings" && settings.out == "built" && settings.manifest == "pack.json")
        #expect(settings.format == AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .pcm24, container: .caf))
        #expect(settings.resampler == .medium)
        #expect(settings.loudness.targetLUFS == -18 && settings.loudness.toleranceLU == 1)
        #expect(settings.trim.thresholdDB == -45 && settings.trim.fadeOutMs == 12)
        #expect(settings.limits.maximumSourceSeconds == 10 && settings.limits.utteranceWarningSeconds == 15)
        #expect(settings.splice.gapMs == 30 && settings.splice.crossfadeMs == 8)
        #expect(settings.styles == [.spoken, .formatter] && settings.forms == [.yuan])
        #expect(settings.stems == ["yuan_2": "元"] && settings.phrases == ["phrase_wechat": "微信收款"])
        #expect(settings.aliases == ["〇": "零"] && settings.templates == ["wechat": "微信收款{amount}"])
    }

    @Test func unknownKeysNameTheNearestKnownOne() {
        #expect(issues(#"{"loudnes": {}}"#) == ["assets.json:1:2: loudnes: unknown key (did you mean 'loudness'?)"])
        #expect(
            issues("{\n  \"loudness\": {\"targetLufs\": -16}\n}") == [
                "assets.json:2:16: loudness.targetLufs: unknown key (did you mean 'targetLUFS'?)"
            ])
    }

    @Test func wrongTypesAndValuesNameTheKey() {
        #expect(
            issues(#"{"loudness": {"targetLUFS": "-16"}}"#) == [
                "assets.json:1:29: loudness.targetLUFS: expected a number, found a string"
            ])
        #expect(
            issues(#"{"format": {"sampleFormat": "pcm12"}}"#) == [
                "assets.json:1:29: format.sampleFormat: unknown value 'pcm12': use one of pcm16, pcm24, float32"
            ])
        #expect(
            issues(#"{"loudness": {"targetLUFS": 5}}"#) == [
                "assets.json:1:29: loudness.targetLUFS: 5 is out of range: use -70 to 0"
            ])
        #expect(
            issues(#"{"styles": "spoken"}"#) == [
                #"assets.json:1:12: styles: expected a list such as ["spoken"], found a string"#
            ])
        #expect(issues(#"{"templates": {"wechat": "微信收款"}}"#).first?.contains("has no {amount}") == true)
        // A map's member is named by its whole path, though the path is spelled only for a message.
        #expect(
            issues(#"{"phrases": {"phrase_ok": "到账", "phrase_wechat": 5}}"#) == [
                "assets.json:1:50: phrases.phrase_wechat: expected a string, found a number"
            ])
    }

    @Test func everyProblemIsListed() {
        let found = issues(#"{"loudnes": 1, "trim": {"preRollMs": -5}, "styles": ["spoken", "spoken"], "raw": 3}"#)
        #expect(found.count == 4, "\(found)")
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(
            issues("{\n  \"raw\": \"a\",\n  \"out\": \"b\",,\n}") == [
                "assets.json:3:14: not valid JSON: expected a key in double quotes"
            ])
        #expect(issues("{\"raw\": \"a\"") == ["assets.json:1:12: not valid JSON: the document ends inside an object"])
    }

    @Test func duplicateKeysAreErrors() {
        #expect(
            issues("{\"aliases\": {\"〇\": \"零\",\n \"〇\": \"一\"}}") == [
                "assets.json:2:2: not valid JSON: key '〇' appears twice in one object (first at 1:14)"
            ])
    }

    @Test func aFutureSchemaVersionIsRefused() {
        #expect(issues(#"{"schemaVersion": 2}"#).first?.contains("update assets") == true)
    }
}
