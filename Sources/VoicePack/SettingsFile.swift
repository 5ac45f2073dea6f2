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
    /// Read as a stream, so that a pipe or `/dev/null` (no settings) reads as its contents.
    public static func load(contentsOf url: URL, name: String) throws(SettingsError) -> Settings {
        func refused(_ message: String) -> SettingsError {
            SettingsError(issues: [SettingsIssue(file: name, position: nil, key: "", message: message)])
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw refused("is a folder: name the settings file itself (its assets.json)")
        }
        let data: Data
        do {
            let file = try FileHandle(forReadingFrom: url)
            defer { try? file.close() }
            data = try file.readToEnd() ?? Data()
        } catch {
            let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError ?? error as NSError)
            throw refused("cannot be read (\(reason.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw refused("is not UTF-8 text: save it as UTF-8")
        }
        return try parse(text, name: name)
    }

    /// Reads the text of an `assets.json`.
    public static func parse(_ text: String, name: String) throws(SettingsError) -> Settings {
        let root: JSONNode
        do {
            root = try JSONNode.parse(text)
        } catch {
            // Every setting has a default: an empty file means none was meant.
            let message =
                error.message == JSONSyntaxError.empty
                ? "\(error.message): write {} or remove it" : "not valid JSON: \(error.message)"
            throw SettingsError(issues: [SettingsIssue(file: name, position: error.position, key: "", message: message)]
            )
        }
        var reader = SettingsReader(file: name)
        let settings = reader.read(root)
        if !reader.issues.isEmpty { throw SettingsError(issues: reader.issues) }
        return settings
    }
}

/// Walks the JSON of `assets.json` against the known keys (`Settings.keys`), collecting every problem.
struct SettingsReader {
    let file: String
    var issues: [SettingsIssue] = []

    init(file: String) { self.file = file }

    mutating func read(_ root: JSONNode) -> Settings {
        var settings = Settings()
        read(root, section: "", into: &settings)
        if settings.limits.minimumFragmentMs >= settings.limits.maximumFragmentMs {
            issue(nil, "limits", "minimumFragmentMs must be under maximumFragmentMs")
        }
        return settings
    }

    /// The members of the object at `section` (`""` for the top, `trim` for `"trim": {…}`): each a known
    /// key read into `settings`, a section walked in turn, or an unknown key named with the nearest known one.
    mutating func read(_ node: JSONNode, section: String, into settings: inout Settings) {
        guard case .object(let members) = node.value else {
            issue(node, section, "expected an object, found \(node.value.typeName)")
            return
        }
        let prefix = section.isEmpty ? "" : section + "."
        let names = Settings.keys.compactMap { key -> String? in
            guard key.path.hasPrefix(prefix) else { return nil }
            return String(key.path.dropFirst(prefix.count).prefix { $0 != "." })
        }
        for member in members {
            let path = prefix + member.key
            if let key = Settings.keys.first(where: { $0.path == path }) {
                key.read(&self, member.node, path, &settings)
            } else if names.contains(member.key) {
                read(member.node, section: path, into: &settings)
            } else {
                var message = "unknown key"
                let known = Set(names).sorted()
                if let near = Suggestion.nearest(to: member.key, in: known) {
                    message += " (did you mean '\(near)'?)"
                } else {
                    message += "; known keys here: " + known.joined(separator: ", ")
                }
                issues.append(SettingsIssue(file: file, position: member.keyPosition, key: path, message: message))
            }
        }
    }

    mutating func schemaVersion(_ node: JSONNode, _ key: String) {
        guard let version = number(node, key) else { return }
        if version != Double(Settings.schemaVersion) {
            issue(
                node, key,
                "this assets reads schema version \(Settings.schemaVersion), the file is version \(jsonValueText(node.value)): "
                    + (version > Double(Settings.schemaVersion)
                        ? "update assets" : "set it to \(Settings.schemaVersion)"))
        }
    }

    /// `consistency.accept`: each entry a recording's path (any take under it), or an object pinning one take,
    /// `{"recording": "raw-audio/digit_3.wav", "sha256": "3f2a9c1b04d2"}` (the first hex digits of its SHA-256).
    mutating func acceptances(_ node: JSONNode, _ key: String) -> [Settings.Acceptance]? {
        guard case .array(let items) = node.value else {
            issue(node, key, "expected a list such as [\"raw-audio/digit_3.wav\"], found \(node.value.typeName)")
            return nil
        }
        return items.compactMap { item in
            guard case .object(let members) = item.value else { return path(item, key).map(Settings.Acceptance.init) }
            var recording: String?
            var take: String?
            for member in members {
                switch member.key {
                case "recording": recording = path(member.node, "\(key).recording")
                case "sha256": take = pin(member.node, "\(key).sha256")
                default:
                    issues.append(
                        SettingsIssue(
                            file: file, position: member.keyPosition, key: "\(key).\(member.key)",
                            message:
                                "unknown key: an entry is a path, or {\"recording\": path, \"sha256\": its first hex digits}"
                        ))
                }
            }
            guard let recording, let take else {
                let missing = recording == nil ? "recording" : "sha256"
                if !members.contains(where: { $0.key == missing }) {
                    issue(
                        item, key,
                        "the entry has no \"\(missing)\": write {\"recording\": path, \"sha256\": its first hex digits}, or the path alone for any take"
                    )
                }
                return nil
            }
            return Settings.Acceptance(recording: recording, take: take)
        }
    }

    /// The first hex digits of a take's SHA-256, as the manifest's `source.sha256` and `check` write it.
    mutating func pin(_ node: JSONNode, _ key: String) -> String? {
        guard let text = string(node, key) else { return nil }
        let shortest = Settings.Acceptance.shortestPin
        guard (shortest...64).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            issue(
                node, key,
                "'\(text)' is not the start of a SHA-256: write \(shortest) to 64 hex digits of the take's source.sha256 in manifest.json"
            )
            return nil
        }
        return text
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
            let names = Value.allCases.map(\.rawValue)
            let near = Suggestion.nearest(to: text, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            issue(node, key, "unknown value '\(text)'\(near): use one of " + names.joined(separator: ", "))
            return nil
        }
        return value
    }

    mutating func names<Value: RawRepresentable & CaseIterable>(
        _ node: JSONNode, _ key: String, _ type: Value.Type, mayBeEmpty: Bool = false
    ) -> [Value]? where Value.RawValue == String {
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
        if items.isEmpty && !mayBeEmpty {
            issue(node, key, "the list is empty: name at least one, or leave the key out for all")
        }
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
