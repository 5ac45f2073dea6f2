import Foundation
import VoicePack

/// What the last successful build left, by path, size and modification time: when nothing has moved since,
/// a build has nothing to do, and need not even read the manifest (`.assets/last-build.tsv`).
struct BuildRecord: Equatable {
    struct Entry: Equatable {
        var token: String
        var source: String
        var sourceSize: Int
        var sourceModified: Int64
        var output: String
        var outputSize: Int
        var outputModified: Int64
    }

    /// Everything in the settings and paths that a build's result depends on.
    var settings: String
    var manifestSize: Int
    var manifestModified: Int64
    /// Sorted by source path, as the scanner lists sources.
    var entries: [Entry]

    static func url(_ paths: PackPaths) -> URL { paths.state.appendingPathComponent("last-build.tsv") }

    static func fingerprint(_ settings: Settings, paths: PackPaths) -> String {
        struct Fingerprint: Encodable {
            let generator = Generator.version
            let processing: Manifest.Processing
            let format: AudioFormat
            let target: Double
            let ceiling: Double
            let maximumSourceSeconds: Double
            let styles: [String]
            let forms: [String]
            let aliases: [String: String]
            let templates: [String: String]
            let phrases: [String: String]
            let stems: [String: String]
            let raw: String
            let out: String
        }
        let value = Fingerprint(
            processing: Manifest.Processing(settings), format: settings.format, target: settings.loudness.targetLUFS,
            ceiling: settings.loudness.truePeakCeilingDBTP, maximumSourceSeconds: settings.limits.maximumSourceSeconds,
            styles: settings.styles.map(\.name), forms: settings.forms.map(\.name),
            aliases: Dictionary(uniqueKeysWithValues: settings.aliases.map { ($0.key.text, $0.value.text) }),
            templates: settings.templates, phrases: settings.phrases, stems: settings.stems.mapValues(\.text),
            raw: paths.manifestRelative(paths.raw), out: paths.manifestRelative(paths.out))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    static func load(_ paths: PackPaths) -> BuildRecord? {
        guard let text = try? String(contentsOf: url(paths), encoding: .utf8) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines.last == "" else { return nil }
        lines.removeLast()
        let header = lines[1].split(separator: "\t", omittingEmptySubsequences: false)
        guard header.count == 2, let size = Int(header[0]), let modified = Int64(header[1]) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count - 2)
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 7, let sourceSize = Int(fields[2]), let sourceModified = Int64(fields[3]),
                let outputSize = Int(fields[5]), let outputModified = Int64(fields[6])
            else { return nil }
            entries.append(
                Entry(
                    token: String(fields[0]), source: String(fields[1]), sourceSize: sourceSize,
                    sourceModified: sourceModified,
                    output: String(fields[4]), outputSize: outputSize, outputModified: outputModified))
        }
        return BuildRecord(settings: String(lines[0]), manifestSize: size, manifestModified: modified, entries: entries)
    }

    /// Writes the record; a path with a tab or a line break in it is not recorded (the next build takes
    /// the ordinary way).
    func save(_ paths: PackPaths) {
        let fields = entries.flatMap { [$0.token, $0.source, $0.output] } + [settings]
        guard !fields.contains(where: { $0.contains("\t") || $0.contains("\n") }) else {
            try? FileManager.default.removeItem(at: Self.url(paths))
            return
        }
        var text = settings + "\n\(manifestSize)\t\(manifestModified)\n"
        for entry in entries {
            text += "\(entry.token)\t\(entry.source)\t\(entry.sourceSize)\t\(entry.sourceModified)\t"
            text += "\(entry.output)\t\(entry.outputSize)\t\(entry.outputModified)\n"
        }
        try? PackTransaction.writeAtomically(Data(text.utf8), to: Self.url(paths))
    }

    /// True when the sources found now, the outputs and the manifest are all as this record left them.
    func matches(settings fingerprint: String, sources: [SourceFile], paths: PackPaths) -> Bool {
        guard fingerprint == settings, sources.count == entries.count,
            let manifest = FileStatus.of(paths.manifest.path), manifest.size == manifestSize,
            manifest.modified == manifestModified
        else { return false }
        let bySource = Dictionary(entries.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        for source in sources {
            guard let entry = bySource[source.path], entry.sourceSize == source.status.size,
                entry.sourceModified == source.status.modified,
                let output = FileStatus.of(paths.resolveManifestPath(entry.output).path),
                output.size == entry.outputSize, output.modified == entry.outputModified
            else { return false }
        }
        return true
    }
}
