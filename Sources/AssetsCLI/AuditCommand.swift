import Foundation
import PackTools
import SpeechText
import VoicePack

/// `assets audit`: the report a sound designer reads after a build.
public struct AuditOptions: Equatable, Sendable {
    public var pack = PackOptions()
    public var format: OutputFormat = .text
    public var output: String?

    static let help = """
        usage: assets audit [--raw DIR] [--out DIR] [--manifest FILE] [--config FILE]
                            [--format text|json|markdown|html] [--output FILE]

        Reports, for each fragment, its recording and format, its length before and after trimming, what
        was trimmed, its loudness before and after, the gain, the true peak, the limiting, the channel
        decision and warnings; the coverage of every style, form and template; the longest utterance; and
        every finding of `assets check`. Exits 1 when check finds a problem.

        \(PackOptions.help)
          --format F       text (default: aligned tables), markdown, json, or html (one self-contained page
                           with a waveform of each recording showing the cuts and a player for each fragment)
          --output FILE    write the report to FILE instead of stdout (the html's players link relative to it)
        """

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> AuditOptions {
        var options = AuditOptions()
        while let item = try reader.next() {
            switch item {
            case .option("--format"):
                options.format = try OutputFormat.parse(
                    try reader.value(of: "--format"), allowed: [.text, .json, .markdown, .html], command: .audit)
            case .option("--output"), .option("-o"):
                options.output = try reader.value(of: "--output")
            case .option(let name):
                if try options.pack.take(name, from: &reader) { continue }
                throw reader.unknown(name, known: PackOptions.known + ["--format", "--output"])
            case .positional(let text):
                throw UsageError(.audit, "unexpected argument '\(text)'")
            }
        }
        return options
    }
}

enum AuditCommand {
    static func run(_ options: AuditOptions, console: Console, currentFolder: URL) -> ExitStatus {
        let settings: Settings
        let paths: PackPaths
        do {
            (settings, paths) = try options.pack.load(command: .audit, currentFolder: currentFolder)
        } catch {
            console.printError(error.description)
            return .usageError
        }
        let report = PackAuditor.audit(paths: paths, settings: settings)
        let outputURL = options.output.map { PackPaths.resolve($0, against: currentFolder) }
        let text: String
        switch options.format {
        case .json: text = CanonicalJSON.string(AuditJSON(report)) + "\n"
        case .markdown: text = AuditText.markdown(report, settings: settings)
        case .html:
            let base = (outputURL?.deletingLastPathComponent() ?? currentFolder).standardizedFileURL
            text = AuditHTML.render(report, settings: settings) { file in
                PackPaths.relative(paths.resolveManifestPath(file).path, to: base.path)
            }
        default: text = AuditText.table(report, settings: settings)
        }
        if let outputURL {
            do {
                try Data(text.utf8).write(to: outputURL, options: .atomic)
            } catch {
                console.printError(
                    "assets audit: \(options.output!): cannot be written (\(error.localizedDescription))")
                return .problemsFound
            }
            console.printError("assets audit: wrote \(options.output!)")
        } else {
            console.writeOut(text)
        }
        return report.check.passed ? .success : .problemsFound
    }
}

/// The text and Markdown forms of the audit.
enum AuditText {
    static let columns = [
        "token", "recording", "format", "rate/ch", "ms before", "ms after", "cut head", "cut tail", "heard phon",
        "LUFS before", "LUFS after", "gain dB", "peak dBTP", "limit dB", "channels", "warnings",
    ]

    static func cells(_ fragment: Manifest.Fragment) -> [String] {
        let source = fragment.source
        return [
            fragment.token, source.file, source.format, "\(source.sampleRate)/\(source.channels)",
            number(source.durationMs, 0),
            number(fragment.durationMs, 0), number(fragment.trimmedHeadMs, 0), number(fragment.trimmedTailMs, 0),
            number(fragment.loudnessPhon, 2), number(source.loudnessLUFS, 1), number(fragment.loudnessLUFS, 2), signed(fragment.gainDB),
            number(fragment.truePeakDBTP, 2), number(fragment.limiterReductionDB, 1), source.channelDecision,
            fragment.warnings.joined(separator: "; "),
        ]
    }

    static func number(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
    static func signed(_ value: Double) -> String { String(format: "%+.1f", value) }

    static func coverageCells(_ row: AuditReport.CoverageRow) -> [String] {
        [
            row.name, "\(row.needed.count)", "\(row.needed.count - row.missing.count)",
            row.aliased.map(\.text).joined(separator: " "),
            row.missing.isEmpty ? "—" : row.missing.map(\.text).joined(separator: " "),
        ]
    }

    static let coverageColumns = ["style/form", "tokens", "covered", "by alias", "missing"]

    /// The target and how evenly the fragments are heard.
    static func loudnessSummary(_ report: AuditReport, settings: Settings) -> String {
        var text =
            "spliced amounts at \(settings.loudness.targetLUFS) LUFS, fragments heard at \(number(settings.loudness.targetPhon, 1)) phon (ISO 532-1 N5 at \(number(settings.loudness.fullScaleDBSPL, 0)) dB SPL full scale)"
        if let heard = report.heardLoudness {
            text += ", spread \(number(heard.spreadPhon, 2)) phon around \(number(heard.medianPhon, 2))"
        }
        return text + ", ceiling \(settings.loudness.truePeakCeilingDBTP) dBTP"
    }

    static func longest(_ report: AuditReport) -> String {
        guard let longest = report.longestUtterance else { return "no utterance could be measured" }
        let template = longest.template.map { ", template \($0)" } ?? ""
        return String(format: "%.1f s: ", longest.durationMs / 1000)
            + "\(longest.text) (\(longest.amount.plain), \(longest.style.name)/\(longest.form.name)\(template))"
    }

    /// Aligned columns, for a terminal.
    static func table(_ report: AuditReport, settings: Settings) -> String {
        var out = "Fragments (\(report.fragments.count)): \(loudnessSummary(report, settings: settings))\n\n"
        out += aligned([columns] + report.fragments.map(cells))
        out += "\nCoverage\n\n" + aligned([coverageColumns] + report.coverage.map(coverageCells))
        out += "\nLongest utterance: \(longest(report))\n"
        out += "\nFindings: \(report.check.errors.count) problems, \(report.check.warnings.count) warnings\n"
        for finding in report.check.findings { out += finding.description + "\n" }
        return out
    }

    static func aligned(_ rows: [[String]]) -> String {
        var widths = [Int](repeating: 0, count: rows.map(\.count).max() ?? 0)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], displayWidth(cell)) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - displayWidth(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// Columns a terminal gives the text: two for CJK and other wide characters.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let wide =
                (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
                || (0xFE30...0xFE4F).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
                || (0xFFE0...0xFFE6).contains(scalar.value)
            return width + (wide ? 2 : 1)
        }
    }

    static func markdown(_ report: AuditReport, settings: Settings) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> String {
            func line(_ cells: [String]) -> String {
                "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
            return line(header) + line(header.map { _ in "---" }) + rows.map(line).joined()
        }
        var out = "# Voice pack audit\n\n"
        out += report.check.passed ? "**Check passes.** " : "**Check fails: \(report.check.errors.count) problems.** "
        out += "\(report.fragments.count) fragments; \(loudnessSummary(report, settings: settings)).\n\n"
        out += "## Fragments\n\n" + table(columns, report.fragments.map(cells))
        out += "\n## Coverage\n\n" + table(coverageColumns, report.coverage.map(coverageCells))
        out += "\n## Longest utterance\n\n\(longest(report))\n"
        out += "\n## Findings\n\n"
        out +=
            report.check.findings.isEmpty
            ? "None.\n"
            : report.check.findings.map {
                "- `\($0.subject)` \($0.severity.rawValue) [\($0.category)] \($0.message): \($0.fix)\n"
            }.joined()
        return out
    }
}

/// `audit --format json`.
struct AuditJSON: Encodable {
    struct Coverage: Encodable {
        let name: String
        let tokens: [String]
        let aliased: [String]
        let missing: [String]
    }

    struct HeardLoudness: Encodable {
        let medianPhon: Double
        let spreadPhon: Double
    }

    let passed: Bool
    let heardLoudness: HeardLoudness?
    let fragments: [Manifest.Fragment]
    let coverage: [Coverage]
    let longestUtterance: CheckJSON.Longest?
    let findings: [Diagnostic]

    init(_ report: AuditReport) {
        passed = report.check.passed
        heardLoudness = report.heardLoudness.map {
            HeardLoudness(medianPhon: Manifest.rounded($0.medianPhon), spreadPhon: Manifest.rounded($0.spreadPhon))
        }
        fragments = report.fragments
        coverage = report.coverage.map {
            Coverage(
                name: $0.name, tokens: $0.needed.map(\.text), aliased: $0.aliased.map(\.text),
                missing: $0.missing.map(\.text))
        }
        longestUtterance = CheckJSON(report.check).longestUtterance
        findings = report.check.findings
    }
}
