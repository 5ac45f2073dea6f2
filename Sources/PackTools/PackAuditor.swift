import AudioPipeline
import Checksum
import Foundation
import PackManifest
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

    /// A planned utterance, spliced when every token has a fragment.
    public struct AuditedUtterance: Sendable {
        public let plan: PlannedUtterance
        public let spliced: SplicedUtterance?
        /// Why it could not be spliced, when it could not.
        public let problem: String?
    }

    public let paths: PackPaths
    public let manifest: Manifest?
    public let coverage: [CoverageRow]
    public let check: CheckReport
    public let utterances: [AuditedUtterance]
    /// Each fragment's recording, whole, as a picture's columns (by token): made when asked for, since it
    /// decodes every recording; absent for one that cannot be read.
    public var recordingWaveforms: [String: Waveform] = [:]

    /// The fragments in reading order (零 一 … 九, units, money words, phrases), as every audit lists them.
    public var fragments: [Manifest.Fragment] { manifest?.fragmentsInReadingOrder ?? [] }
    public var longestUtterance: Utterance? { check.longestUtterance }
    /// Each fragment's voice against the pack's typical one, as `check` compared them; nil without a manifest.
    public var voices: VoiceConsistency? { check.voices }

    /// How loud the fragments are heard (ISO 532-1 N5, phon): the pack's median and its spread (max − min).
    public var heardLoudness: (medianPhon: Double, spreadPhon: Double)? {
        let values = fragments.map(\.loudnessPhon)
        guard let middle = median(values), let low = values.min(), let high = values.max() else { return nil }
        return (middle, high - low)
    }
}

public enum PackAuditor {
    /// The columns of a recording's picture in the HTML audit.
    public static let recordingColumns = 480

    /// `pictures`: decode every recording for its waveform (the HTML audit's).
    public static func audit(paths: PackPaths, settings: Settings, pictures: Bool = false) -> AuditReport {
        let check = PackChecker.check(paths: paths, settings: settings)
        let manifest = check.manifest
        let available = Set((manifest?.fragments ?? []).map { Token($0.token) })
        let coverage = Coverage(settings: settings)
        func row(_ name: String, _ needed: Set<Token>) -> AuditReport.CoverageRow {
            let sorted = SpeechConverter.inReadingOrder(needed)
            return AuditReport.CoverageRow(
                name: name, needed: sorted,
                aliased: sorted.filter {
                    !available.contains($0) && coverage.aliases.player(of: $0, hasFragment: available.contains) != nil
                },
                missing: sorted.filter { coverage.aliases.player(of: $0, hasFragment: available.contains) == nil })
        }
        var rows: [AuditReport.CoverageRow] = []
        for style in settings.styles {
            for form in settings.forms {
                rows.append(
                    row(
                        "\(style.name)/\(form.name)",
                        SpeechConverter(style: style, form: form).alphabet(upTo: settings.amountBound)))
            }
        }
        for (name, text) in settings.templates.sorted(by: { $0.key < $1.key }) {
            rows.append(
                row("template \(name)", Set(Template(name: name, text: text).ownTokens(phrases: coverage.phrases))))
        }
        var report = AuditReport(
            paths: paths, manifest: manifest, coverage: rows, check: check,
            utterances: utterances(paths: paths, settings: settings, longest: check.longestUtterance))
        if pictures {
            for fragment in report.fragments {
                guard let columns = waveform(of: fragment, paths: paths, columns: recordingColumns) else { continue }
                report.recordingWaveforms[fragment.token] = Waveform(low: columns.map(\.0), high: columns.map(\.1))
            }
        }
        return report
    }

    /// The planned utterances, each spliced by the `Splicer` module with the pack's splice settings.
    static func utterances(paths: PackPaths, settings: Settings, longest: Utterance?) -> [AuditReport.AuditedUtterance]
    {
        let pack = try? SoundPack(manifestAt: paths.manifest, digest: { SHA256.hex(of: $0) })
        let splicer = pack.map {
            Splicer(pack: $0, gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs)
        }
        return UtterancePlan.plan(settings: settings, pack: pack, longest: longest).map { plan in
            guard plan.missing.isEmpty, let splicer else {
                let problem =
                    plan.missing.isEmpty
                    ? "there is no readable manifest"
                    : "no fragment for \(plan.missing.map(\.text).joined(separator: " "))"
                return AuditReport.AuditedUtterance(plan: plan, spliced: nil, problem: problem)
            }
            do {
                return AuditReport.AuditedUtterance(
                    plan: plan, spliced: try SplicedUtterance.splice(plan.tokens, with: splicer), problem: nil)
            } catch {
                return AuditReport.AuditedUtterance(plan: plan, spliced: nil, problem: "\(error)")
            }
        }
    }

    /// The recording's waveform for a picture: the lowest and highest sample in each of `columns` slices
    /// (channels averaged). Nil when the recording cannot be read.
    public static func waveform(of fragment: Manifest.Fragment, paths: PackPaths, columns: Int) -> [(Float, Float)]? {
        let url = paths.resolveManifestPath(fragment.source.file)
        guard let (_, channels) = try? Decode.read(path: url.path, name: fragment.source.file, maximumSeconds: 3600),
            let frames = channels.first?.count, frames > 0
        else { return nil }
        let scale = 1 / Float(channels.count)
        let mono = (0..<frames).map { frame in channels.reduce(0) { $0 + $1[frame] } * scale }
        return waveform(of: mono, columns: columns)
    }

    /// The lowest and highest sample in each of `columns` slices of `samples`.
    public static func waveform(of samples: [Float], columns: Int) -> [(Float, Float)] {
        let frames = samples.count
        return (0..<columns).map { column in
            let start = frames * column / columns
            let end = min(frames, max(start + 1, frames * (column + 1) / columns))
            var low: Float = 0
            var high: Float = 0
            for frame in start..<end {
                low = min(low, samples[frame])
                high = max(high, samples[frame])
            }
            return (low, high)
        }
    }
}
