import PackManifest
import SpeechText

/// One key `assets.json` knows: its dotted path, how its value is read into `Settings` (whose initial values
/// are the one home of every default), and how the README's settings table writes that default.
struct SettingKey: Sendable {
    typealias Read = @Sendable (inout SettingsReader, JSONNode, String, inout Settings) -> Void

    let path: String
    let read: Read
    /// The default as the README writes it (`−50`, `` `pcm16` ``); nil where the table says it in words.
    let shown: (@Sendable (Settings) -> String)?

    init(_ path: String, shown: (@Sendable (Settings) -> String)? = nil, _ read: @escaping Read) {
        self.path = path
        self.read = read
        self.shown = shown
    }

    static func number(
        _ path: String, _ value: WritableKeyPath<Settings, Double> & Sendable, in range: ClosedRange<Double>
    ) -> SettingKey {
        SettingKey(path, shown: { number($0[keyPath: value]) }) { reader, node, key, settings in
            reader.number(node, key, in: range).map { settings[keyPath: value] = $0 }
        }
    }

    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ path: String, _ value: WritableKeyPath<Settings, Value> & Sendable
    ) -> SettingKey where Value.RawValue == String {
        SettingKey(path, shown: { "`\($0[keyPath: value].rawValue)`" }) { reader, node, key, settings in
            reader.choice(node, key, Value.self).map { settings[keyPath: value] = $0 }
        }
    }

    static func path(_ path: String, _ value: WritableKeyPath<Settings, String> & Sendable) -> SettingKey {
        SettingKey(path, shown: { "`\($0[keyPath: value])`" }) { reader, node, key, settings in
            reader.path(node, key).map { settings[keyPath: value] = $0 }
        }
    }

    /// Kept so that a file still setting it is told what replaced it.
    static func retired(_ path: String) -> SettingKey {
        SettingKey(path) { reader, node, key, _ in reader.retired(node, key) }
    }

    /// `−50`, `44100`, `0.5`: as the README writes numbers.
    static func number(_ value: Double) -> String {
        let digits = value.rounded() == value ? String(Int(value.magnitude)) : String(value.magnitude)
        return (value < 0 ? "−" : "") + digits
    }
}

extension Settings {
    /// Every key `assets.json` knows. The reader walks it (a key's first parts name its section; a section's
    /// keys are the known keys of an unknown-key message), and tests hold the README's table to it.
    static let keys: [SettingKey] = [
        SettingKey("schemaVersion", shown: { _ in "\(Settings.schemaVersion)" }) { reader, node, key, _ in
            reader.schemaVersion(node, key)
        },
        .path("raw", \.raw), .path("out", \.out), .path("manifest", \.manifest),
        SettingKey("format.sampleRate", shown: { "\($0.format.sampleRate)" }) { reader, node, key, settings in
            reader.number(node, key, in: 8000...192_000, integer: true).map { settings.format.sampleRate = Int($0) }
        },
        .choice("format.sampleFormat", \.format.sampleFormat), .choice("format.container", \.format.container),
        .choice("resampler", \.resampler),
        .number("loudness.targetLUFS", \.loudness.targetLUFS, in: -70...0),
        .number("loudness.fullScaleDBSPL", \.loudness.fullScaleDBSPL, in: 60...130),
        .number("loudness.truePeakCeilingDBTP", \.loudness.truePeakCeilingDBTP, in: -30...0),
        .number("loudness.maximumGainDB", \.loudness.maximumGainDB, in: 0...80),
        .number("loudness.maximumLimitingDB", \.loudness.maximumLimitingDB, in: 0...40),
        .number("loudness.toleranceLU", \.loudness.toleranceLU, in: 0.05...10),
        .number("trim.thresholdDB", \.trim.thresholdDB, in: -90 ... -10),
        .number("trim.noiseMarginDB", \.trim.noiseMarginDB, in: 0...30),
        .number("trim.preRollMs", \.trim.preRollMs, in: 0...500),
        .number("trim.postRollMs", \.trim.postRollMs, in: 0...1000),
        .number("trim.fadeInMs", \.trim.fadeInMs, in: 0...100),
        .number("trim.fadeOutMs", \.trim.fadeOutMs, in: 0...200),
        .number("limits.maximumSourceSeconds", \.limits.maximumSourceSeconds, in: 1...3600),
        .number("limits.minimumFragmentMs", \.limits.minimumFragmentMs, in: 0...10_000),
        .number("limits.maximumFragmentMs", \.limits.maximumFragmentMs, in: 10...60_000),
        .number("limits.utteranceWarningSeconds", \.limits.utteranceWarningSeconds, in: 1...30),
        .number("splice.gapMs", \.splice.gapMs, in: 0...2000),
        .number("splice.crossfadeMs", \.splice.crossfadeMs, in: 0...100),
        // Retired: a join's level step judged the better fragment (a tail faded far down) the worse.
        .retired("splice.maximumStepDB"), .retired("splice.stepSeverity"),
        .number("consistency.pitchSemitones", \.consistency.pitchSemitones, in: 0.5...48),
        .number("consistency.bandwidthOctaves", \.consistency.bandwidthOctaves, in: 0.1...10),
        .number("consistency.noiseDB", \.consistency.noiseDB, in: 1...120),
        .number("consistency.paceRatio", \.consistency.paceRatio, in: 1.1...20),
        .choice("consistency.severity", \.consistency.severity),
        SettingKey("consistency.reportUnmeasured", shown: { "\($0.consistency.reportUnmeasured)" }) {
            reader, node, key, settings in
            reader.bool(node, key).map { settings.consistency.reportUnmeasured = $0 }
        },
        SettingKey("consistency.accept", shown: { "`\($0.consistency.accept)`" }) { reader, node, key, settings in
            reader.acceptances(node, key).map { settings.consistency.accept = $0 }
        },
        SettingKey("check.errors", shown: { "`\($0.check.errors.map(\.rawValue))`" }) { reader, node, key, settings in
            reader.names(node, key, Settings.WarningKind.self, mayBeEmpty: true).map { settings.check.errors = $0 }
        },
        SettingKey("styles") { reader, node, key, settings in
            reader.names(node, key, ReadingStyle.self).map { settings.styles = $0 }
        },
        SettingKey("forms") { reader, node, key, settings in
            reader.names(node, key, AmountForm.self).map { settings.forms = $0 }
        },
        SettingKey("maximumAmount") { reader, node, key, settings in
            reader.amount(node, key).map { settings.maximumAmount = $0 }
        },
        SettingKey("stems") { reader, node, key, settings in
            reader.stringMap(node, key).map { map in
                // A stem mapped to what the token is called (`"tts_1": "1"`, `"yuan"`), not to the token itself.
                for (stem, value) in map.sorted(by: { Token.inScalarOrder($0.key, $1.key) })
                where value.allSatisfy(\.isASCII) {
                    let said = AppStemReading.readings(ofStem: value).map { $0[0].text }
                    guard !said.isEmpty else { continue }
                    reader.issue(
                        node, "\(key).\(stem)",
                        "'\(value)' names the token, it is not one: map \(stem) to the character it says, \(said.map { "\"\($0)\"" }.joined(separator: " or "))"
                    )
                }
                settings.stems = map.mapValues { Token($0) }
            }
        },
        SettingKey("phrases") { reader, node, key, settings in
            reader.stringMap(node, key).map { settings.phrases = $0 }
        },
        SettingKey("aliases") { reader, node, key, settings in
            reader.stringMap(node, key).map { map in
                settings.aliases = Dictionary(uniqueKeysWithValues: map.map { (Token($0.key), Token($0.value)) })
            }
        },
        SettingKey("templates") { reader, node, key, settings in
            reader.stringMap(node, key).map { map in
                for (name, text) in map.sorted(by: { Token.inScalarOrder($0.key, $1.key) })
                where !text.contains("{amount}") {
                    reader.issue(
                        node, "\(key).\(name)",
                        "'\(text)' has no {amount}: write where the amount goes, as in 微信收款{amount}")
                }
                settings.templates = map
            }
        },
    ]

    /// Every key's path, as `assets.json` and the README write it.
    public static var keyPaths: [String] { keys.map(\.path) }

    /// The default of `path` as the README's settings table writes it, when the table writes it as a value.
    public static func shownDefault(of path: String) -> String? {
        keys.first { $0.path == path }?.shown?(Settings())
    }
}
