import Checksum
import Foundation
import SpeechText
import VoicePack

/// What the last successful build left, by path, size and modification time: when nothing has moved since,
/// a build has nothing to do, and need not even read the manifest (`.assets/last-build.tsv`).
struct BuildRecord: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var token: String
        var source: String
        var sourceSize: Int
        var sourceModified: Int64
        var output: String
        var outputSize: Int
        var outputModified: Int64
    }

    /// The digest of everything in the settings and paths that a build's result depends on (`fingerprint`).
    let settings: String
    let manifestSize: Int
    let manifestModified: Int64
    /// In the manifest's order.
    let entries: [Entry]
    /// The entries by source path: how a build finds what the record says of each recording it scanned.
    let bySource: [String: Entry]

    init(settings: String, manifestSize: Int, manifestModified: Int64, entries: [Entry]) {
        self.settings = settings
        self.manifestSize = manifestSize
        self.manifestModified = manifestModified
        self.entries = entries
        bySource = Dictionary(entries.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func url(_ paths: PackPaths) -> URL { paths.state.appendingPathComponent("last-build.tsv") }

    /// The SHA-256 of everything in the settings and paths that a build's result depends on: the fixed
    /// part as JSON, then the phrases, stems, aliases and templates as length-prefixed pairs in key order.
    /// The maps hold one entry per phrase, thousands in a large pack; encoding them with sorted keys by
    /// JSONEncoder cost more than the rest of a no-op build.
    static func fingerprint(_ settings: Settings, paths: PackPaths) -> String {
        struct Fixed: Encodable {
            let generator = Generator.version
            let processing: Manifest.Processing
            let format: AudioFormat
            let target: Double
            let ceiling: Double
            let maximumSourceSeconds: Double
            let styles: [String]
            let forms: [String]
            let raw: String
            let out: String
        }
        let fixed = Fixed(
            processing: Manifest.Processing(settings), format: settings.format, target: settings.loudness.targetLUFS,
            ceiling: settings.loudness.truePeakCeilingDBTP, maximumSourceSeconds: settings.limits.maximumSourceSeconds,
            styles: settings.styles.map(\.name), forms: settings.forms.map(\.name),
            raw: paths.manifestRelative(paths.raw), out: paths.manifestRelative(paths.out))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var bytes = [UInt8](try! encoder.encode(fixed))
        func append(_ text: String) {
            bytes += String(text.utf8.count).utf8
            bytes.append(UInt8(ascii: ":"))
            bytes += text.utf8
        }
        func append(_ name: String, _ map: [String: String]) {
            append(name)
            append(String(map.count))
            for (key, value) in map.sorted(inScalarOrderOf: \.key) {
                append(key)
                append(value)
            }
        }
        append("phrases", settings.phrases)
        append("stems", settings.stems.mapValues(\.text))
        append("aliases", Dictionary(uniqueKeysWithValues: settings.aliases.map { ($0.key.text, $0.value.text) }))
        append("templates", settings.templates)
        return SHA256.hex(of: Data(bytes))
    }

    static func load(_ paths: PackPaths) -> BuildRecord? {
        guard let data = try? Data(contentsOf: url(paths)) else { return nil }
        return data.withUnsafeBytes { parse($0.bindMemory(to: UInt8.self)) }
    }

    /// The record in `bytes`, read field by field: numbers from their digits, and only the three names
    /// become strings. Nil unless every line is whole, with its fields each ended by a tab or, the last, by
    /// a line break.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> BuildRecord? {
        typealias Field = Slice<UnsafeBufferPointer<UInt8>>
        var position = 0
        /// The next field when it ends the line (or does not) as asked; nil otherwise or at the end.
        func field(endingLine: Bool) -> Field? {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
                    return (byte == UInt8(ascii: "\n")) == endingLine ? bytes[start..<position - 1] : nil
                }
            }
            return nil
        }
        func number(endingLine: Bool) -> Int64? { field(endingLine: endingLine).flatMap { decimal($0) } }
        func text(_ field: Field) -> String { String(decoding: field, as: UTF8.self) }
        guard let settings = field(endingLine: true), let size = number(endingLine: false),
            let modified = number(endingLine: true)
        else { return nil }
        var entries: [Entry] = []
        while position < bytes.count {
            guard let token = field(endingLine: false), let source = field(endingLine: false),
                let sourceSize = number(endingLine: false), let sourceModified = number(endingLine: false),
                let output = field(endingLine: false), let outputSize = number(endingLine: false),
                let outputModified = number(endingLine: true)
            else { return nil }
            entries.append(
                Entry(
                    token: text(token), source: text(source), sourceSize: Int(sourceSize),
                    sourceModified: sourceModified, output: text(output), outputSize: Int(outputSize),
                    outputModified: outputModified))
        }
        return BuildRecord(
            settings: text(settings), manifestSize: Int(size), manifestModified: modified, entries: entries)
    }

    /// Writes the record; a path with a tab or a line break in it is not recorded (the next build takes
    /// the ordinary way).
    func save(_ paths: PackPaths) {
        let tab = UInt8(ascii: "\t")
        let newline = UInt8(ascii: "\n")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 * (entries.count + 1) + settings.utf8.count)
        var written = true
        func text(_ field: String) {
            let start = bytes.count
            var field = field
            field.withUTF8 { bytes.append(contentsOf: $0) }
            if bytes[start...].contains(where: { $0 == tab || $0 == newline }) { written = false }
        }
        // Digits written straight into the bytes: `String(value)` costs more than the rest of a line.
        func number(_ value: Int64) {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var rest = value.magnitude
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while rest > 0
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
            }
        }
        text(settings)
        bytes.append(newline)
        number(Int64(manifestSize))
        bytes.append(tab)
        number(manifestModified)
        bytes.append(newline)
        for entry in entries where written {
            text(entry.token)
            bytes.append(tab)
            text(entry.source)
            bytes.append(tab)
            number(Int64(entry.sourceSize))
            bytes.append(tab)
            number(entry.sourceModified)
            bytes.append(tab)
            text(entry.output)
            bytes.append(tab)
            number(Int64(entry.outputSize))
            bytes.append(tab)
            number(entry.outputModified)
            bytes.append(newline)
        }
        guard written else {
            try? FileManager.default.removeItem(at: Self.url(paths))
            return
        }
        try? PackTransaction.writeAtomically(Data(bytes), to: Self.url(paths), durable: false)
    }

    /// True when the sources found now, the outputs and the manifest are all as this record left them.
    func matches(settings fingerprint: String, sources: [SourceFile], paths: PackPaths) -> Bool {
        guard fingerprint == settings, sources.count == entries.count,
            let manifest = FileStatus.of(paths.manifest.path), manifest.size == manifestSize,
            manifest.modified == manifestModified
        else { return false }
        let manifestFolder = OpenFolder(paths.manifest.deletingLastPathComponent().path)
        for source in sources {
            guard let entry = bySource[source.path], entry.sourceSize == source.status.size,
                entry.sourceModified == source.status.modified,
                let output = manifestFolder.status(entry.output),
                output.size == entry.outputSize, output.modified == entry.outputModified
            else { return false }
        }
        return true
    }
}

/// A whole number in decimal, an optional minus sign and digits only, read from its bytes.
func decimal<Digits: Collection<UInt8>>(_ field: Digits) -> Int64? {
    var digits = field[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty else { return nil }
    var value: Int64 = 0
    for byte in digits {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, carry) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
        guard !overflow, !carry else { return nil }
        value = sum
    }
    return negative ? -value : value
}
