import Foundation
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

    /// A value other than its default for every key `assets.json` knows.
    static let everyKey: [String: String] = [
        "raw": #""recordings""#, "out": #""built""#, "manifest": #""pack.json""#,
        "format.sampleRate": "48000", "format.sampleFormat": #""pcm24""#, "format.container": #""caf""#,
        "resampler": #""best""#,
        "loudness.targetLUFS": "-18", "loudness.fullScaleDBSPL": "84", "loudness.truePeakCeilingDBTP": "-2",
        "loudness.maximumGainDB": "30", "loudness.maximumLimitingDB": "6", "loudness.toleranceLU": "2",
        "trim.thresholdDB": "-45", "trim.noiseMarginDB": "8", "trim.preRollMs": "20", "trim.postRollMs": "60",
        "trim.fadeInMs": "4", "trim.fadeOutMs": "12",
        "limits.maximumSourceSeconds": "10", "limits.minimumFragmentMs": "50", "limits.maximumFragmentMs": "3000",
        "limits.utteranceWarningSeconds": "15",
        "splice.gapMs": "30", "splice.crossfadeMs": "8",
        "consistency.pitchSemitones": "6", "consistency.bandwidthOctaves": "2", "consistency.noiseDB": "20",
        "consistency.paceRatio": "3", "consistency.severity": #""warning""#, "consistency.reportUnmeasured": "true",
        "consistency.accept": #"["raw-audio/digit_3.wav", {"recording": "a.wav", "sha256": "3f2a9c1b"}]"#,
        "check.errors": #"["sound/cut", "consistency/delivery"]"#,
        "styles": #"["spoken", "formatter"]"#, "forms": #"["yuan"]"#, "maximumAmount": #""99999999.99""#,
        "stems": #"{"yuan_2": "元"}"#, "phrases": #"{"phrase_wechat": "微信收款"}"#, "aliases": #"{"〇": "零"}"#,
        "templates": #"{"wechat": "微信收款{amount}"}"#,
    ]

    /// Every key the reader knows: its key table.
    func knownKeys() -> Set<String> { Set(Settings.keyPaths).subtracting(["schemaVersion"]) }

    /// Each key of the reader's table is in this test, and each one set alone moves the settings from their
    /// defaults: a key read into nothing, or a new key without a check here, fails.
    @Test func everySettingIsRead() throws {
        let known = knownKeys()
        #expect(known.count > 30, "the key table is short: \(known)")
        // Retired keys are known so that a file still setting them is told what replaced them.
        let retired: Set = ["splice.maximumStepDB", "splice.stepSeverity"]
        #expect(
            known == Set(Self.everyKey.keys).union(retired),
            "keys without a check: \(known.subtracting(Self.everyKey.keys).subtracting(retired))")
        for key in retired {
            let parts = key.split(separator: ".")
            #expect(issues("{\"\(parts[0])\": {\"\(parts[1])\": 1}}").first?.contains("no longer a setting") == true)
        }
        for (key, value) in Self.everyKey.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ".")
            let document =
                parts.count == 1 ? "{\"\(key)\": \(value)}" : "{\"\(parts[0])\": {\"\(parts[1])\": \(value)}}"
            let settings = try Settings.parse(document, name: "assets.json")
            #expect(settings != Settings(), "\(key): \(value) changed nothing")
        }
        let settings = try Settings.parse(
            "{"
                + Self.everyKey.filter { !$0.key.contains(".") }.map { "\"\($0.key)\": \($0.value)" }.joined(
                    separator: ", ") + "}", name: "assets.json")
        #expect(settings.raw == "recordings" && settings.out == "built" && settings.manifest == "pack.json")
        let bound = try Amount(parsing: "99999999.99")
        #expect(settings.resampler == .best && settings.maximumAmount == bound)
        #expect(settings.styles == [.spoken, .formatter] && settings.forms == [.yuan])
        #expect(settings.stems == ["yuan_2": "元"] && settings.phrases == ["phrase_wechat": "微信收款"])
        #expect(settings.aliases == ["〇": "零"] && settings.templates == ["wechat": "微信收款{amount}"])
    }

    /// The README's settings table names every key the reader knows, and no other.
    @Test func theReadmeTableNamesEveryKey() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let table =
            try #require(text.components(separatedBy: "### Settings (`assets.json`)").last)
            .components(separatedBy: "\n### ").first ?? ""
        var named: Set<String> = []
        for row in table.split(separator: "\n") where row.hasPrefix("| `") {
            let cell = row.dropFirst(2).prefix { $0 != "|" }
            named.formUnion(
                cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                    .map { String($0.element) })
        }
        #expect(
            named == knownKeys().subtracting(["splice.maximumStepDB", "splice.stepSeverity"]).union(["schemaVersion"]))
        // Each default the table writes as a value is the settings' own.
        var compared = 0
        for row in table.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let keys = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map { String($0.element) }
            let defaults = cells[2].components(separatedBy: ", ")
            guard defaults.count == keys.count else { continue }
            for (key, shown) in zip(keys, defaults) {
                guard let value = Settings.shownDefault(of: key) else { continue }
                #expect(shown == value, "README's default of \(key)")
                compared += 1
            }
        }
        #expect(compared >= 30, "only \(compared) defaults compared")
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
                "assets.json:1:29: format.sampleFormat: unknown value 'pcm12' (did you mean 'pcm16'?): use one of pcm16, pcm24, float32"
            ])
        // A kind of warning that `check.errors` names: a typo gets the nearest; an empty list is none.
        #expect(
            issues(#"{"check": {"errors": ["sound/cutt"]}}"#).first?.hasPrefix(
                "assets.json:1:23: check.errors: unknown value 'sound/cutt' (did you mean 'sound/cut'?): use one of "
            ) == true, "\(issues(#"{"check": {"errors": ["sound/cutt"]}}"#))")
        #expect(issues(#"{"check": {"errors": []}}"#) == [])
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

    /// `consistency.accept` takes a path (any take under it) or a path pinned to one take by its SHA-256's start.
    @Test func anAcceptanceIsANameOrATake() throws {
        let settings = try Settings.parse(
            #"{"consistency": {"accept": ["raw-audio/一.wav", {"recording": "raw-audio/digit_3.wav", "sha256": "3F2A9C1B04D2"}]}}"#,
            name: "assets.json")
        #expect(
            settings.consistency.accept == [
                "raw-audio/一.wav", Settings.Acceptance(recording: "raw-audio/digit_3.wav", take: "3f2a9c1b04d2"),
            ])
        let pinned = settings.consistency.accept[1]
        #expect(pinned.accepts("raw-audio/digit_3.wav", sha256: "3f2a9c1b04d2" + String(repeating: "0", count: 52)))
        #expect(!pinned.accepts("raw-audio/digit_3.wav", sha256: String(repeating: "0", count: 64)))
        #expect(settings.consistency.accept[0].accepts("raw-audio/一.wav", sha256: String(repeating: "0", count: 64)))
        #expect(
            "\(pinned)" == #"{"recording": "raw-audio/digit_3.wav", "sha256": "3f2a9c1b04d2"}"#
                && "\(settings.consistency.accept[0])" == #""raw-audio/一.wav""#)
        #expect(
            issues(#"{"consistency": {"accept": [{"recording": "a.wav", "sha256": "3f2a"}]}}"#) == [
                "assets.json:1:62: consistency.accept.sha256: '3f2a' is not the start of a SHA-256: write 8 to 64 hex digits of the take's source.sha256 in manifest.json"
            ])
        #expect(
            issues(#"{"consistency": {"accept": [{"sha256": "3f2a9c1b"}]}}"#) == [
                #"assets.json:1:29: consistency.accept: the entry has no "recording": write {"recording": path, "sha256": its first hex digits}, or the path alone for any take"#
            ])
        #expect(
            issues(#"{"consistency": {"accept": [{"recording": "a.wav", "take": "3f2a9c1b"}]}}"#).first?.hasPrefix(
                "assets.json:1:52: consistency.accept.take: unknown key") == true)
    }

    @Test func everyProblemIsListed() {
        let found = issues(#"{"loudnes": 1, "trim": {"preRollMs": -5}, "styles": ["spoken", "spoken"], "raw": 3}"#)
        #expect(found.count == 4, "\(found)")
    }

    /// A stem mapped to what its token is called in an app's file names rather than to the token: said, with
    /// the character; a mapping to a character, or to something no app name reads as, is taken.
    @Test func aStemMappedToTheTokensNameIsAnError() {
        #expect(
            issues(#"{"stems": {"tts_1": "1", "tts_yuan": "yuan", "tts_2": "二", "x": "OK", "y": "yi"}}"#) == [
                #"assets.json:1:11: stems.tts_1: '1' names the token, it is not one: map tts_1 to the character it says, "一""#,
                #"assets.json:1:11: stems.tts_yuan: 'yuan' names the token, it is not one: map tts_yuan to the character it says, "元""#,
                #"assets.json:1:11: stems.y: 'yi' names the token, it is not one: map y to the character it says, "一" or "亿""#,
            ])
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(
            issues("{\n  \"raw\": \"a\",\n  \"out\": \"b\",,\n}") == [
                "assets.json:3:14: not valid JSON: expected a key in double quotes, not ','"
            ])
        #expect(issues("{\"raw\": \"a\"") == ["assets.json:1:12: not valid JSON: the document ends inside an object"])
        #expect(issues("\n") == ["assets.json:2:1: the file is empty: write {} or remove it"])
    }

    /// `--config` given a folder or a device: the message says what it is, not that permission was denied.
    @Test func aFolderOrADeviceIsSaidForWhatItIs() {
        func loaded(_ path: String) -> String {
            do {
                _ = try Settings.load(contentsOf: URL(fileURLWithPath: path), name: path)
                return "read"
            } catch { return error.description }
        }
        let folder = FileManager.default.temporaryDirectory.path
        #expect(loaded(folder) == "\(folder): is a folder: name the settings file itself (its assets.json)")
        #expect(loaded("/dev/null") == "/dev/null:1:1: the file is empty: write {} or remove it")
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
