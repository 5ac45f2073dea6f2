import Checksum
import Foundation
import PackManifest
import SpeechText
import VoicePack

/// What the last successful build left, by path, size, modification time and digest
/// (`.assets/last-build.tsv`, the pack's one state file beside its lock and journal): when nothing has moved
/// since, a build has nothing to do, and need not even read the manifest; when something has, a file whose
/// size and time are as recorded is not read again for its digest, as make and git do.
struct BuildRecord: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var token: String
        var source: String
        var sourceSize: Int
        var sourceModified: Int64
        var sourceSHA256: String
        var output: String
        var outputSize: Int
        var outputModified: Int64
        var outputSHA256: String
    }

    /// The digest of everything in the settings and paths that a build's result depends on (`fingerprint`).
    let settings: String
    let manifestSize: Int
    let manifestModified: Int64
    /// In the manifest's order.
    let entries: [Entry]
    /// Each entry's place by its source path (the first, should two share one): how a build finds what the
    /// record says of each recording it scanned.
    let indexBySource: [String: Int]

    init(settings: String, manifestSize: Int, manifestModified: Int64, entries: [Entry]) {
        self.settings = settings
        self.manifestSize = manifestSize
        self.manifestModified = manifestModified
        self.entries = entries
        var indexBySource: [String: Int] = [:]
        indexBySource.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where indexBySource[entry.source] == nil {
            indexBySource[entry.source] = index
        }
        self.indexBySource = indexBySource
    }

    static func url(_ paths: PackPaths) -> URL { paths.state.appendingPathComponent("last-build.tsv") }

    /// The SHA-256 of everything in the settings and paths that a build's result depends on: the manifest's
    /// header (`Manifest.header`), the limits and paths as JSON, then the phrases and stems as
    /// length-prefixed pairs in key order. Those maps hold one entry per phrase, thousands in a large pack;
    /// encoding them with sorted keys by JSONEncoder cost more than the rest of a no-op build.
    static func fingerprint(_ settings: Settings, paths: PackPaths) -> String {
        struct Fixed: Encodable {
            let generator = Generator.version
            let header: Manifest
            let maximumSourceSeconds: Double
            let raw: String
            let out: String
        }
        let fixed = Fixed(
            header: Manifest.header(settings), maximumSourceSeconds: settings.limits.maximumSourceSeconds,
            raw: paths.manifestRelative(paths.raw), out: paths.manifestRelative(paths.out))
        var bytes = [UInt8](CanonicalJSON.data(fixed))
        func append(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                appendDigits(Int64(utf8.count), to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: utf8)
            }
        }
        func append(_ name: String, _ map: [String: String]) {
            append(name)
            append(String(map.count))
            for (key, value) in map.sorted(inScalarOrderOf: \.key) {
                append(key)
                append(value)
            }
        }
        bytes.reserveCapacity(bytes.count + 64 * settings.phrases.count)
        append("phrases", settings.phrases)
        append("stems", settings.stems.mapValues(\.text))
        return SHA256.hex(of: Data(bytes))
    }

    static func load(_ paths: PackPaths) -> BuildRecord? {
        guard let data = try? Data(contentsOf: url(paths)) else { return nil }
        return data.withUnsafeBytes { parse($0.bindMemory(to: UInt8.self)) }
    }

    /// The record in `bytes`, read field by field: numbers from their digits, names and digests as strings. Nil unless every line is whole, with its fields each ended by a tab or, the last, by
    /// a line break.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> BuildRecord? {
        var reader = FieldReader(bytes: bytes)
        func number(endingLine: Bool) -> Int64? { reader.field(endingLine: endingLine).flatMap { decimal($0) } }
        func text(_ field: FieldReader.Field) -> String { String(decoding: field, as: UTF8.self) }
        guard let settings = reader.field(endingLine: true), let size = number(endingLine: false),
            let modified = number(endingLine: true)
        else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(bytes.count / 96)
        while !reader.atEnd {
            guard let token = reader.field(endingLine: false), let source = reader.field(endingLine: false),
                let sourceSize = number(endingLine: false), let sourceModified = number(endingLine: false),
                let sourceSHA256 = reader.field(endingLine: false),
                let output = reader.field(endingLine: false), let outputSize = number(endingLine: false),
                let outputModified = number(endingLine: false), let outputSHA256 = reader.field(endingLine: true)
            else { return nil }
            entries.append(
                Entry(
                    token: text(token), source: text(source), sourceSize: Int(sourceSize),
                    sourceModified: sourceModified, sourceSHA256: text(sourceSHA256), output: text(output),
                    outputSize: Int(outputSize), outputModified: outputModified, outputSHA256: text(outputSHA256)))
        }
        return BuildRecord(
            settings: text(settings), manifestSize: Int(size), manifestModified: modified, entries: entries)
    }

    /// The fields of a record in order, each ended by a tab or, the last of a line, by a line break.
    private struct FieldReader {
        typealias Field = Slice<UnsafeBufferPointer<UInt8>>
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position >= bytes.count }

        /// The next field when it ends the line (or does not) as asked; nil otherwise or at the end.
        mutating func field(endingLine: Bool) -> Field? {
            let start = position
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                // A tab (9) or a line break (10), told apart only then.
                if byte &- 9 < 2 {
                    position = index + 1
                    return (byte == 10) == endingLine ? bytes[start..<index] : nil
                }
                index += 1
            }
            position = index
            return nil
        }
    }

    /// Writes the record; a path with a tab or a line break in it is not recorded (the next build takes
    /// the ordinary way).
    func save(_ paths: PackPaths) {
        Self.save(
            settings: settings, manifestSize: manifestSize, manifestModified: manifestModified,
            lines: Self.lines(for: entries), to: paths)
    }

    /// Writes the record from its parts: the first line, then `lines` as `lines(for:)` made them (a build
    /// makes those while its commit writes the manifest, whose size and time the first line holds). Nil
    /// `lines` removes the record.
    static func save(settings: String, manifestSize: Int, manifestModified: Int64, lines: [UInt8]?, to paths: PackPaths)
    {
        guard let lines else {
            try? FileManager.default.removeItem(at: url(paths))
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(settings.utf8.count + 42 + lines.count)
        bytes += settings.utf8
        bytes.append(UInt8(ascii: "\n"))
        appendDigits(Int64(manifestSize), to: &bytes)
        bytes.append(UInt8(ascii: "\t"))
        appendDigits(manifestModified, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        bytes += lines
        try? PackTransaction.writeAtomically(Data(bytes), to: url(paths), durable: false)
    }

    /// The lines that record `entries`, one per entry; nil when a path has a tab or a line break in it.
    static func lines(for entries: [Entry]) -> [UInt8]? {
        let tab = UInt8(ascii: "\t")
        let newline = UInt8(ascii: "\n")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 * entries.count)
        var recordable = true
        func text(_ field: String) {
            let start = bytes.count
            var field = field
            field.withUTF8 { bytes.append(contentsOf: $0) }
            if bytes[start...].contains(where: { $0 == tab || $0 == newline }) { recordable = false }
        }
        for entry in entries {
            text(entry.token)
            bytes.append(tab)
            text(entry.source)
            bytes.append(tab)
            appendDigits(Int64(entry.sourceSize), to: &bytes)
            bytes.append(tab)
            appendDigits(entry.sourceModified, to: &bytes)
            bytes.append(tab)
            text(entry.sourceSHA256)
            bytes.append(tab)
            text(entry.output)
            bytes.append(tab)
            appendDigits(Int64(entry.outputSize), to: &bytes)
            bytes.append(tab)
            appendDigits(entry.outputModified, to: &bytes)
            bytes.append(tab)
            text(entry.outputSHA256)
            bytes.append(newline)
            if !recordable { return nil }
        }
        return bytes
    }

    /// `value` in decimal, written straight into `bytes`: `String(value)` costs more than the rest of a line.
    static func appendDigits(_ value: Int64, to bytes: inout [UInt8]) {
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
}

/// The record of the last build beside what `stat` says now of each output it lists, so that telling an
/// unchanged fragment is lookups alone.
struct RecordedBuild: Sendable {
    let record: BuildRecord
    /// In the record's order; nil where the output cannot be stat'ed.
    let outputs: [FileStatus?]
    private let indexByOutput: [String: Int]

    init(_ record: BuildRecord, manifestFolder: OpenFolder) {
        self.record = record
        outputs = record.entries.map { manifestFolder.status($0.output) }
        indexByOutput = Dictionary(record.entries.indices.map { (record.entries[$0].output, $0) }) { first, _ in first }
    }

    /// The recorded digest of `source`, when its size and time are as recorded.
    func digest(of source: SourceFile) -> String? {
        guard let index = record.indexBySource[source.path] else { return nil }
        let entry = record.entries[index]
        return entry.sourceSize == source.status.size && entry.sourceModified == source.status.modified
            ? entry.sourceSHA256 : nil
    }

    /// The recorded digest of the output at `path` (relative to the manifest's folder), when its size and time
    /// are as recorded.
    func digest(ofOutput path: String, status: FileStatus) -> String? {
        guard let index = indexByOutput[path] else { return nil }
        let entry = record.entries[index]
        return entry.outputSize == status.size && entry.outputModified == status.modified ? entry.outputSHA256 : nil
    }

    /// What the record says of `source`, when the recording and its output are both as the record left
    /// them; with the output's status now.
    func unmoved(_ source: SourceFile) -> (entry: BuildRecord.Entry, output: FileStatus)? {
        guard let index = record.indexBySource[source.path] else { return nil }
        let entry = record.entries[index]
        guard entry.sourceSize == source.status.size, entry.sourceModified == source.status.modified,
            let output = outputs[index], output.size == entry.outputSize, output.modified == entry.outputModified
        else { return nil }
        return (entry, output)
    }

    /// The sources found now that the record does not vouch for: new ones, changed ones, and ones whose
    /// output moved.
    func moved(_ sources: [SourceFile]) -> [SourceFile] { sources.filter { unmoved($0) == nil } }

    /// True when the settings and the manifest are as the record left them and it lists `sourceCount`
    /// sources: with no source `moved`, nothing has changed since.
    func matches(settings fingerprint: String, sourceCount: Int, paths: PackPaths) -> Bool {
        guard fingerprint == record.settings, sourceCount == record.entries.count,
            let manifest = FileStatus.of(paths.manifest.path)
        else { return false }
        return manifest.size == record.manifestSize && manifest.modified == record.manifestModified
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
