import Foundation
import PackManifest
import SpeechText

/// One problem in `assets.json`: where, which key, what is wrong, what to do.
public struct SettingsIssue: Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let position: TextPosition?
    public let key: String
    public let message: String

    public var description: String {
        let place = position.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}

/// `assets.json` could not be used; every problem found is listed.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    public let issues: [SettingsIssue]
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

extension Settings {
    /// The settings schema this version reads.
    public static let schemaVersion = 1

    /// Reads `assets.json`; `name` is how messages name the file.
    public static func load(contentsOf url: URL, name: String) throws(SettingsError) -> Settings {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SettingsError(issues: [
                SettingsIssue(
                    file: name, position: nil, key: "", message: "cannot be read (\(error.localizedDescription))")
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SettingsError(issues: [
                SettingsIssue(file: name, position: nil, key: "", message: "is not UTF-8 text: save it as UTF-8")
            ])
        }
        return try parse(text, name: name)
    }

    /// Reads the text of an `assets.json`.
    public static func parse(_ text: String, name: String) throws(SettingsError) -> Settings {
        let root: JSONNode
        do {
            root = try JSONNode.parse(text)
        } catch {
            throw SettingsError(issues: [
                SettingsIssue(
                    file: name, position: error.position, key: "", message: "not valid JSON: \(error.message)")
            ])
        }
        var reader = SettingsReader(file: name)
        let settings = reader.read(root)
        if !reader.issues.isEmpty { throw SettingsError(issues: reader.issues) }
        return settings
    }
}

/// Walks the JSON of `assets.json` against the known keys, collecting every problem.
private struct SettingsReader {
    let file: String
    var issues: [SettingsIssue] = []

    init(file: String) { self.file = file }

    mutating func read(_ root: JSONNode) -> Settings {
        var settings = Settings()
        members(
            root, "",
            [
                "schemaVersion": { reader, node, key in
                    guard let version = reader.number(node, key) else { return }
                    if version != Double(Settings.schemaVersion) {
                        reader.issue(
                            node, key,
                            "this assets reads schema version \(Settings.schemaVersion), the file is version \(jsonValueText(node.value)): "
                                + (version > Double(Settings.schemaVersion)
                                    ? "update assets" : "set it to \(Settings.schemaVersion)"))
                    }
                },
                "raw": { reader, node, key in reader.path(node, key).map { settings.raw = $0 } },
                "out": { reader, node, key in reader.path(node, key).map { settings.out = $0 } },
                "manifest": { reader, node, key in reader.path(node, key).map { settings.manifest = $0 } },
                "format": { reader, node, key in settings.format = reader.format(node, key) },
                "resampler": { reader, node, key in
                    reader.choice(node, key, ResamplerQuality.self).map { settings.resampler = $0 }
                },
                "loudness": { reader, node, key in settings.loudness = reader.loudness(node, key) },
                "trim": { reader, node, key in settings.trim = reader.trim(node, key) },
                "limits": { reader, node, key in settings.limits = reader.limits(node, key) },
                "splice": { reader, node, key in settings.splice = reader.splice(node, key) },
                "consistency": { reader, node, key in settings.consistency = reader.consistency(node, key) },
                "styles": { reader, node, key in reader.names(node, key, ReadingStyle.self).map { settings.styles = $0 }
                },
                "forms": { reader, node, key in reader.names(node, key, AmountForm.self).map { settings.forms = $0 } },
                "maximumAmount": { reader, node, key in reader.amount(node, key).map { settings.maximumAmount = $0 } },
                "stems": { reader, node, key in
                    reader.stringMap(node, key).map { settings.stems = $0.mapValues { Token($0) } }
                },
                "phrases": { reader, node, key in reader.stringMap(node, key).map { settings.phrases = $0 } },
                "aliases": { reader, node, key in
                    reader.stringMap(node, key).map { map in
                        settings.aliases = Dictionary(
                            uniqueKeysWithValues: map.map { (Token($0.key), Token($0.value)) })
                    }
                },
                "templates": { reader, node, key in
                    reader.stringMap(node, key).map { map in
                        for (name, text) in map where !text.contains("{amount}") {
                            reader.issue(
                                node, "\(key).\(name)",
                                "'\(text)' has no {amount}: write where the amount goes, as in 微信收款{amount}")
                        }
                        settings.templates = map
                    }
                },
            ])
        if settings.limits.minimumFragmentMs >= settings.limits.maximumFragmentMs {
            issue(nil, "limits", "minimumFragmentMs must be under maximumFragmentMs")
        }
        return settings
    }

    mutating func format(_ node: JSONNode, _ key: String) -> AudioFormat {
        var format = AudioFormat()
        members(
            node, key,
            [
                "sampleRate": { r, n, k in
                    r.number(n, k, in: 8000...192_000, integer: true).map {
                        format.sampleRate = Int($0)
                    }
                },
                "sampleFormat": { r, n, k in
                    r.choice(n, k, SampleFormat.self).map { format.sampleFormat = $0 }
                },
                "container": { r, n, k in
                    r.choice(n, k, Container.self).map { format.container = $0 }
                },
            ])
        return format
    }

    mutating func loudness(_ node: JSONNode, _ key: String) -> Settings.Loudness {
        var loudness = Settings.Loudness()
        members(
            node, key,
            [
                "targetLUFS": { r, n, k in
                    r.number(n, k, in: -70...0).map { loudness.targetLUFS = $0 }
                },
                "fullScaleDBSPL": { r, n, k in
                    r.number(n, k, in: 60...130).map { loudness.fullScaleDBSPL = $0 }
                },
                "truePeakCeilingDBTP": { r, n, k in
                    r.number(n, k, in: -30...0).map { loudness.truePeakCeilingDBTP = $0 }
                },
                "maximumGainDB": { r, n, k in
                    r.number(n, k, in: 0...80).map { loudness.maximumGainDB = $0 }
                },
                "maximumLimitingDB": { r, n, k in
                    r.number(n, k, in: 0...40).map { loudness.maximumLimitingDB = $0 }
                },
                "toleranceLU": { r, n, k in
                    r.number(n, k, in: 0.05...10).map { loudness.toleranceLU = $0 }
                },
            ])
        return loudness
    }

    mutating func trim(_ node: JSONNode, _ key: String) -> Settings.Trim {
        var trim = Settings.Trim()
        members(
            node, key,
            [
                "thresholdDB": { r, n, k in
                    r.number(n, k, in: -90 ... -10).map { trim.thresholdDB = $0 }
                },
                "noiseMarginDB": { r, n, k in
                    r.number(n, k, in: 0...30).map { trim.noiseMarginDB = $0 }
                },
                "preRollMs": { r, n, k in r.number(n, k, in: 0...500).map { trim.preRollMs = $0 }
                },
                "postRollMs": { r, n, k in
                    r.number(n, k, in: 0...1000).map { trim.postRollMs = $0 }
                },
                "fadeInMs": { r, n, k in r.number(n, k, in: 0...100).map { trim.fadeInMs = $0 } },
                "fadeOutMs": { r, n, k in r.number(n, k, in: 0...200).map { trim.fadeOutMs = $0 }
                },
            ])
        return trim
    }

    mutating func limits(_ node: JSONNode, _ key: String) -> Settings.Limits {
        var limits = Settings.Limits()
        members(
            node, key,
            [
                "maximumSourceSeconds": { r, n, k in
                    r.number(n, k, in: 1...3600).map { limits.maximumSourceSeconds = $0 }
                },
                "minimumFragmentMs": { r, n, k in
                    r.number(n, k, in: 0...10_000).map { limits.minimumFragmentMs = $0 }
                },
                "maximumFragmentMs": { r, n, k in
                    r.number(n, k, in: 10...60_000).map { limits.maximumFragmentMs = $0 }
                },
                "utteranceWarningSeconds": { r, n, k in
                    r.number(n, k, in: 1...30).map { limits.utteranceWarningSeconds = $0 }
                },
            ])
        return limits
    }

    mutating func splice(_ node: JSONNode, _ key: String) -> Settings.Splice {
        var splice = Settings.Splice()
        members(
            node, key,
            [
                "gapMs": { r, n, k in r.number(n, k, in: 0...2000).map { splice.gapMs = $0 } },
                "crossfadeMs": { r, n, k in
                    r.number(n, k, in: 0...100).map { splice.crossfadeMs = $0 }
                },
                // Retired: a join's level step judged the better fragment (a tail faded far down) the worse.
                "maximumStepDB": { r, n, k in r.retired(n, k) },
                "stepSeverity": { r, n, k in r.retired(n, k) },
            ])
        return splice
    }

    typealias Field = (inout SettingsReader, JSONNode, String) -> Void

    mutating func consistency(_ node: JSONNode, _ key: String) -> Settings.Consistency {
        var consistency = Settings.Consistency()
        members(
            node, key,
            [
                "pitchSemitones": { r, n, k in r.number(n, k, in: 0.5...48).map { consistency.pitchSemitones = $0 } },
                "bandwidthOctaves": { r, n, k in
                    r.number(n, k, in: 0.1...10).map { consistency.bandwidthOctaves = $0 }
                },
                "noiseDB": { r, n, k in r.number(n, k, in: 1...120).map { consistency.noiseDB = $0 } },
                "paceRatio": { r, n, k in r.number(n, k, in: 1.1...20).map { consistency.paceRatio = $0 } },
                "severity": { r, n, k in r.choice(n, k, Settings.Severity.self).map { consistency.severity = $0 } },
                "reportUnmeasured": { r, n, k in r.bool(n, k).map { consistency.reportUnmeasured = $0 } },
                "accept": { r, n, k in r.paths(n, k).map { consistency.accept = $0 } },
            ])
        return consistency
    }

    /// A list of paths such as `["raw-audio/digit_3.wav"]`.
    mutating func paths(_ node: JSONNode, _ key: String) -> [String]? {
        guard case .array(let items) = node.value else {
            issue(node, key, "expected a list such as [\"raw-audio/digit_3.wav\"], found \(node.value.typeName)")
            return nil
        }
        return items.compactMap { path($0, key) }
    }

    mutating func members(_ node: JSONNode, _ path: String, _ fields: [String: Field]) {
        guard case .object(let members) = node.value else {
            issue(node, path, "expected an object, found \(node.value.typeName)")
            return
        }
        for member in members {
            let key = path.isEmpty ? member.key : "\(path).\(member.key)"
            guard let field = fields[member.key] else {
                var message = "unknown key"
                if let near = Suggestion.nearest(to: member.key, in: Array(fields.keys)) {
                    message += " (did you mean '\(near)'?)"
                } else {
                    message += "; known keys here: " + fields.keys.sorted().joined(separator: ", ")
                }
                issues.append(SettingsIssue(file: file, position: member.keyPosition, key: key, message: message))
                continue
            }
            field(&self, member.node, key)
        }
    }

    /// An amount as a number (`99999999.99`) or a string (`"99999999.99"`, `"¥1,000"`).
    mutating func amount(_ node: JSONNode, _ key: String) -> Amount? {
        let text: String
        switch node.value {
        case .number(let number), .string(let number): text = number
        default:
            issue(node, key, "expected an amount such as \"99999999.99\", found \(node.value.typeName)")
            return nil
        }
        do {
            return try Amount(parsing: text)
        } catch {
            issue(node, key, error.description)
            return nil
        }
    }

    mutating func retired(_ node: JSONNode, _ key: String) {
        issue(
            node, key,
            "no longer a setting: a join's level step is not what a listener hears; `check` now reports a recording whose voice is cut (category sound) instead: remove the key"
        )
    }

    mutating func bool(_ node: JSONNode, _ key: String) -> Bool? {
        guard case .bool(let flag) = node.value else {
            issue(node, key, "expected true or false, found \(node.value.typeName)")
            return nil
        }
        return flag
    }

    mutating func number(_ node: JSONNode, _ key: String, in range: ClosedRange<Double>? = nil, integer: Bool = false)
        -> Double?
    {
        guard case .number(let text) = node.value, let value = Double(text) else {
            issue(node, key, "expected a number, found \(node.value.typeName)")
            return nil
        }
        if let range, !range.contains(value) {
            issue(
                node, key,
                "\(text) is out of range: use \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
            return nil
        }
        if integer && value.rounded() != value {
            issue(node, key, "expected a whole number, found \(text)")
            return nil
        }
        return value
    }

    /// `key` is made only for a message: a map of thousands of phrases need not spell each one's path.
    mutating func string(_ node: JSONNode, _ key: @autoclosure () -> String) -> String? {
        guard case .string(let text) = node.value else {
            issue(node, key(), "expected a string, found \(node.value.typeName)")
            return nil
        }
        return text
    }

    mutating func path(_ node: JSONNode, _ key: String) -> String? {
        guard let text = string(node, key) else { return nil }
        if text.isEmpty { issue(node, key, "expected a path, found an empty string"); return nil }
        return text
    }

    mutating func choice<Value: RawRepresentable & CaseIterable>(_ node: JSONNode, _ key: String, _: Value.Type)
        -> Value?
    where Value.RawValue == String {
        guard let text = string(node, key) else { return nil }
        guard let value = Value(rawValue: text) else {
            issue(
                node, key,
                "unknown value '\(text)': use one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        return value
    }

    mutating func names<Value: RawRepresentable & CaseIterable>(_ node: JSONNode, _ key: String, _ type: Value.Type)
        -> [Value]?
    where Value.RawValue == String {
        guard case .array(let items) = node.value else {
            issue(node, key, "expected a list such as [\"spoken\"], found \(node.value.typeName)")
            return nil
        }
        var values: [Value] = []
        for item in items {
            guard let value = choice(item, key, type) else { continue }
            if values.contains(where: { $0.rawValue == value.rawValue }) {
                issue(item, key, "'\(value.rawValue)' is listed twice")
            } else {
                values.append(value)
            }
        }
        if items.isEmpty { issue(node, key, "the list is empty: name at least one, or leave the key out for all") }
        return values
    }

    mutating func stringMap(_ node: JSONNode, _ key: String) -> [String: String]? {
        guard case .object(let members) = node.value else {
            issue(node, key, "expected an object of strings, found \(node.value.typeName)")
            return nil
        }
        var map: [String: String] = [:]
        map.reserveCapacity(members.count)
        for member in members {
            guard let text = string(member.node, "\(key).\(member.key)") else { continue }
            if text.isEmpty { issue(member.node, "\(key).\(member.key)", "is empty"); continue }
            // A key twice, even spelt NFC once and NFD once, the parser refused already: Swift's strings compare
            // canonically, as its key table does.
            map[member.key] = text
        }
        return map
    }

    mutating func issue(_ node: JSONNode?, _ key: String, _ message: String) {
        issues.append(SettingsIssue(file: file, position: node?.position, key: key, message: message))
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

private func jsonValueText(_ value: JSONValue) -> String {
    if case .number(let text) = value { return text }
    return value.typeName
}
