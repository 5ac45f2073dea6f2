import AudioPipeline
import Foundation
import SpeechText
import Splicer
import VoicePack

/// What a sound designer reads after refreshing recordings: each fragment, the coverage of every style,
/// form and template, the longest utterance, and every finding of `check`.
public struct AuditReport: Sendable {
    /// How well one style × form (or one template) is covered.
    public struct CoverageRow: Equatable, Sendable {
        public let name: String
        public let needed: [Token]
        /// Served by an alias rather than a fragment of their own.
        public let aliased: [Token]
        public let missing: [Token]
    }

    public let paths: PackPaths
    public let manifest: Manifest?
    public let coverage: [CoverageRow]
    public let check: CheckReport

    public var fragments: [Manifest.Fragment] { manifest?.fragments ?? [] }
    public var longestUtterance: Utterance? { check.longestUtterance }

    /// How loud the fragments are heard (ISO 532-1 N5, phon): the pack's median and its spread (max − min).
    public var heardLoudness: (medianPhon: Double, spreadPhon: Double)? {
        let values = fragments.map(\.loudnessPhon)
        guard let middle = median(values), let low = values.min(), let high = values.max() else { return nil }
        return (middle, high - low)
    }
}

public enum PackAuditor {
    public static func audit(paths: PackPaths, settings: Settings) -> AuditReport {
        let check = PackChecker.check(paths: paths, settings: settings)
        let manifest = check.manifest
        let available = Set((manifest?.fragments ?? []).map { Token($0.token) })
        let coverage = Coverage(settings: settings)
        func row(_ name: String, _ needed: Set<Token>) -> AuditReport.CoverageRow {
            let sorted = needed.sorted()
            return AuditReport.CoverageRow(
                name: name, needed: sorted,
                aliased: sorted.filter {
                    !available.contains($0) && coverage.resolve($0).map(available.contains) == true
                },
                missing: sorted.filter { coverage.resolve($0).map { !available.contains($0) } ?? true })
        }
        var rows: [AuditReport.CoverageRow] = []
        for style in settings.styles {
            for form in settings.forms {
                rows.append(row("\(style.name)/\(form.name)", SpeechConverter(style: style, form: form).alphabet))
            }
        }
        for (name, text) in settings.templates.sorted(by: { $0.key < $1.key }) {
            rows.append(
                row("template \(name)", Set(Template(name: name, text: text).ownTokens(phrases: coverage.phrases))))
        }
        return AuditReport(paths: paths, manifest: manifest, coverage: rows, check: check)
    }

    /// The recording's waveform for a picture: the lowest and highest sample in each of `columns` slices
    /// (channels averaged). Nil when the recording cannot be read.
    public static func waveform(of fragment: Manifest.Fragment, paths: PackPaths, columns: Int) -> [(Float, Float)]? {
        let url = paths.resolveManifestPath(fragment.source.file)
        guard let file = try? SoundFile.open(reading: url.path, name: fragment.source.file),
            let channels = try? file.readChannels(name: fragment.source.file, maxFrames: 100_000_000),
            let frames = channels.first?.count, frames > 0
        else { return nil }
        let scale = 1 / Float(channels.count)
        return (0..<columns).map { column in
            let start = frames * column / columns
            let end = max(start + 1, frames * (column + 1) / columns)
            var low: Float = 0
            var high: Float = 0
            for frame in start..<min(end, frames) {
                var sum: Float = 0
                for channel in channels { sum += channel[frame] }
                low = min(low, sum * scale)
                high = max(high, sum * scale)
            }
            return (low, high)
        }
    }
}
