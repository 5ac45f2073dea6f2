import Checksum
import Foundation
import PackManifest
import SpeechText
import VoicePack

/// What the last successful build left, by path, size, modification time and digest (and, for a recording, its
/// inode and change time: `FileStatus`) (`.assets/last-build.tsv`, the pack's one state file beside its lock and
/// journal): when nothing has moved since, a build has nothing to do, and need not even read the manifest; when
/// something has, a file as recorded is not read again for its digest, as make and git do.
struct BuildRecord: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var token: String
        var source: String
        var sourceSize: Int
        var sourceModified: Int64
        var sourceInode: UInt64
        var sourceChanged: Int64
        var sourceSHA256: String
        var output: String
        var outputSize: Int
        var outputModified: Int64
        var outputSHA256: String

        /// Whether its recording's status is `status`: the same size, time, inode and change time.
        func records(_ status: FileStatus) -> Bool {
            sourceSize == status.size && sourceModified == status.modified && sourceInode == status.inode
                && sourceChanged == status.changed
        }
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
        // The pack gain is the build's own measurement, read from the manifest it vouches for, not a setting.
        var settings = settings
        settings.loudness.packGainDB = 0
        let fixed = Fixed(
            header: Manifest.header(settings), maximumSourceSeconds: settings.limits.maximumSourceSeconds,
            raw: paths.manifestRelative(paths.raw), out: paths.manifestRelative(paths.out))
        var bytes = [UInt8](CanonicalJSON.data(fixed))
        func append(_ text: String) { bytes += Array("\(text.utf8.count):\(text)".utf8) }
        func append(_ name: String, _ map: [String: String]) {
            append(name)
            append(String(map.count))
            for (key, value) in map.sorted(by: { Token.inScalarOrder($0.key, $1.key) }) {
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
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// The record in `text`: the settings' digest, the manifest's size and time, then a line per fragment of
    /// eleven tab-separated fields. Nil unless every line is whole (a record written before the inode and change
    /// time were, with nine, is none: the next build reads every recording's digest once).
    static func parse(_ text: String) -> BuildRecord? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines.removeLast().isEmpty else { return nil }
        let manifest = lines[1].split(separator: "\t", omittingEmptySubsequences: false)
        guard manifest.count == 2, let size = Int(manifest[0]), let modified = Int64(manifest[1]) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count - 2)
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 11, let sourceSize = Int(fields[2]), let sourceModified = Int64(fields[3]),
                let sourceInode = UInt64(fields[4]), let sourceChanged = Int64(fields[5]),
                let outputSize = Int(fields[8]), let outputModified = Int64(fields[9])
            else { return nil }
            entries.append(
                Entry(
                    token: fields[0], source: fields[1], sourceSize: sourceSize, sourceModified: sourceModified,
                    sourceInode: sourceInode, sourceChanged: sourceChanged, sourceSHA256: fields[6], output: fields[7],
                    outputSize: outputSize, outputModified: outputModified, outputSHA256: fields[10]))
        }
        return BuildRecord(
            settings: String(lines[0]), manifestSize: size, manifestModified: modified, entries: entries)
    }

    /// Writes the record from its parts: the first two lines, then `lines` as `lines(for:)` made them. Nil
    /// `lines` removes the record.
    static func save(settings: String, manifestSize: Int, manifestModified: Int64, lines: String?, to paths: PackPaths)
    {
        guard let lines else {
            try? FileManager.default.removeItem(at: url(paths))
            return
        }
        let text = "\(settings)\n\(manifestSize)\t\(manifestModified)\n" + lines
        try? PackTransaction.writeAtomically(Data(text.utf8), to: url(paths), durable: false)
    }

    /// The lines that record `entries`, one per entry; nil when a name has a tab or a line break in it.
    static func lines(for entries: [Entry]) -> String? {
        var text = ""
        text.reserveCapacity(256 * entries.count)
        for entry in entries {
            let names = [entry.token, entry.source, entry.output]
            if names.contains(where: { $0.contains("\t") || $0.contains("\n") || $0.contains("\r") }) { return nil }
            let fields = [
                entry.token, entry.source, String(entry.sourceSize), String(entry.sourceModified),
                String(entry.sourceInode), String(entry.sourceChanged), entry.sourceSHA256, entry.output,
                String(entry.outputSize), String(entry.outputModified), entry.outputSHA256,
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }
}

/// The record of the last build beside what `stat` says now of each output it lists, so that telling an
/// unchanged fragment is lookups alone.
struct RecordedBuild: Sendable {
    let record: BuildRecord
    /// In the record's order; nil where the output cannot be stat'ed.
    let outputs: [FileStatus?]

    /// `manifestFolder` is the folder the record's output paths are relative to.
    init(_ record: BuildRecord, manifestFolder: String) {
        self.record = record
        outputs = record.entries.map { FileStatus.of(PackPaths.join(manifestFolder, $0.output)) }
    }

    /// The recorded digest of `source`, when its status is as recorded.
    func digest(of source: SourceFile) -> String? {
        guard let index = record.indexBySource[source.path] else { return nil }
        let entry = record.entries[index]
        return entry.records(source.status) ? entry.sourceSHA256 : nil
    }

    /// The recorded digest of the output built from `source`, when it is at `path` (relative to the manifest's
    /// folder) with the recorded size and time.
    func digest(ofOutput path: String, builtFrom source: SourceFile, status: FileStatus) -> String? {
        guard let index = record.indexBySource[source.path] else { return nil }
        let entry = record.entries[index]
        return entry.output == path && entry.outputSize == status.size && entry.outputModified == status.modified
            ? entry.outputSHA256 : nil
    }

    /// What the record says of `source`, when the recording and its output are both as the record left
    /// them; with the output's status now.
    func unmoved(_ source: SourceFile) -> (entry: BuildRecord.Entry, output: FileStatus)? {
        guard let index = record.indexBySource[source.path] else { return nil }
        let entry = record.entries[index]
        guard entry.records(source.status), let output = outputs[index], output.size == entry.outputSize,
            output.modified == entry.outputModified
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
