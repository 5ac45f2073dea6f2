import Foundation
import PackManifest
import PackTools
import VoicePack

/// The text and Markdown forms of the audit.
public enum AuditText {
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
            number(fragment.loudnessPhon, 2), number(source.loudnessLUFS, 1), number(fragment.loudnessLUFS, 2),
            signed(fragment.gainDB),
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

    static let voiceColumns = [
        "token", "recording", "pitch Hz", "register Hz", "vs its tone", "moves st", "voiced %", "voice after ms",
        "band kHz", "centroid Hz", "SNR dB", "ms/syllable", "odd",
    ]

    /// One row per fragment with its analysis, then the pack's typical values; `!` marks a figure check reports,
    /// and the last column says what sets the fragment apart, or that the designer accepted its recording.
    static func voiceRows(_ report: AuditReport) -> [[String]] {
        guard let voices = report.voices else { return [] }
        func value(_ number: Double?, _ decimals: Int, _ odd: Bool = false) -> String {
            guard let number else { return "—" }
            return (odd ? "! " : "") + AuditText.number(number, decimals)
        }
        var rows = report.fragments.compactMap { fragment -> [String]? in
            guard let analysis = fragment.analysis else { return nil }
            let kinds = Set((voices.findings[fragment.token] ?? []).map(\.kind))
            return [
                fragment.token, fragment.source.file, value(analysis.pitchMedianHz, 0),
                value(analysis.pitchRegisterHz, 0, kinds.contains(.voice)),
                value(voices.registerSemitones[fragment.token], 1, kinds.contains(.voice)),
                move(analysis, odd: kinds.contains(.tone)),
                value(analysis.voicedFraction * 100, 0),
                value(analysis.syllables == 1 ? analysis.voiceOnsetMs : nil, 0, kinds.contains(.onset)),
                value(analysis.bandwidthHz.map { $0 / 1000 }, 1, kinds.contains(.band)), value(analysis.centroidHz, 0),
                value(analysis.snrDB, 1, kinds.contains(.noise)),
                value(analysis.msPerSyllable, 0, kinds.contains(.pace)),
                voices.accepts(fragment)
                    ? "accepted"
                    : kinds.isEmpty
                        ? "—"
                        : VoiceConsistency.Kind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ", "),
            ]
        }
        let typical = voices.typical
        rows.append([
            "typical",
            typical.delivery.map { "median of the \($0.recordings) of \($0.total) delivered as \($0.way)" }
                ?? "median of the pack", "", value(typical.pitchRegisterHz, 0), "semitones", "start to end", "",
            value(typical.voiceOnsetMs, 0),
            value(typical.bandwidthHz.map { $0 / 1000 }, 1), "", value(typical.snrDB, 1),
            value(typical.syllableMs, 0)
                + (typical.phraseSyllableMs.map { " (phrases \(AuditText.number($0, 0)))" } ?? ""), "",
        ])
        return rows
    }

    /// How far a single syllable's pitch moves from its start to its end, in semitones (what the tone rule reads:
    /// a fourth tone falls, a second rises, a first holds level); `!` where `check` says it is in another tone.
    static func move(_ analysis: Manifest.Analysis, odd: Bool) -> String {
        guard analysis.syllables == 1, let move = ToneMove(analysis) else { return "—" }
        return (odd ? "! " : "") + signed(move.rise)
    }

    /// How many fragments stand apart from the pack's voice, and how many recordings were delivered apart from
    /// the rest (no mismatch by itself).
    static func voiceSummary(_ report: AuditReport) -> String {
        let voices = report.voices
        let tokens = voices.map { Array($0.findings.keys) } ?? []
        let odd = tokens.filter { voices?.standsApart($0) == true }.count
        let apart = tokens.filter { voices?.deliveredApart($0) == true }.count
        let unmeasured = tokens.filter { voices?.unmeasured($0) == true }.count
        return
            (odd == 0
            ? "every fragment matches the pack's voice"
            : "\(counted(odd, "fragment")) \(odd == 1 ? "does" : "do") not match the pack's voice")
            + (apart == 0 ? "" : ", \(counted(apart, "recording")) delivered apart from the rest")
            + (unmeasured == 0 ? "" : ", no pitch measured on \(counted(unmeasured, "fragment"))")
    }

    /// The target and how evenly the fragments are heard. The level fragments are heard at is the manifest's: the
    /// build sets it by measuring the pack's splices (`loudness.packGainDB`), which `assets.json` does not hold.
    static func loudnessSummary(_ report: AuditReport, settings: Settings) -> String {
        let loudness = report.manifest?.loudness
        let targetPhon = loudness?.measure.targetPhon ?? settings.loudness.targetPhon
        let gain = (loudness?.packGainDB).map { $0 == 0 ? "" : String(format: ", pack gain %+.1f dB", $0) } ?? ""
        var text =
            "spliced amounts at \(settings.loudness.targetLUFS) LUFS, fragments heard at \(number(targetPhon, 2)) phon (ISO 532-1 N5 at \(number(settings.loudness.fullScaleDBSPL, 0)) dB SPL full scale\(gain))"
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
    public static func table(_ report: AuditReport, settings: Settings, sounds: [Int: String]) -> String {
        var out = "Fragments (\(report.fragments.count)): \(loudnessSummary(report, settings: settings))\n\n"
        out += aligned([columns] + report.fragments.map(cells))
        out += "\nVoices (\(voiceSummary(report)))\n\n" + aligned([voiceColumns] + voiceRows(report))
        out += "\nCoverage\n\n" + aligned([coverageColumns] + report.coverage.map(coverageCells))
        out += "\nUtterances (\(utteranceSummary(report)))\n\n"
        out += aligned([utteranceColumns] + report.utterances.indices.map { utteranceCells(report, $0, sounds) })
        out += "\nLongest utterance: \(longest(report))\n"
        out += "\nFindings: \(CheckRendering.tally(report.check))\n"
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

    static let utteranceColumns = [
        "purpose", "amount", "style/form", "template", "text", "length", "LUFS", "clicks at joins", "file",
    ]

    static func utteranceCells(_ report: AuditReport, _ index: Int, _ sounds: [Int: String]) -> [String] {
        let utterance = report.utterances[index]
        let plan = utterance.plan
        var cells = [
            plan.purpose, plan.amount.plain, "\(plan.style.name)/\(plan.form.name)", plan.template ?? "—", plan.text,
        ]
        guard let spliced = utterance.spliced else {
            return cells + ["—", "—", "not playable: \(utterance.problem ?? "")", "—"]
        }
        let steps = spliced.joins.filter(\.click).map { join in "\(join.left.text)→\(join.right.text) click" }
        cells += [
            String(format: "%.2f s", spliced.durationMs / 1000), number(spliced.loudnessLUFS, 1),
            steps.isEmpty ? "—" : steps.joined(separator: ", "), sounds[index] ?? "—",
        ]
        return cells
    }

    /// How many amounts covered each style and form's alphabet, and how many utterances there are in all.
    static func utteranceSummary(_ report: AuditReport) -> String {
        var counts: [(String, Int)] = []
        for utterance in report.utterances where utterance.plan.purpose.hasPrefix("cover ") {
            let name = String(utterance.plan.purpose.dropFirst("cover ".count))
            if counts.last?.0 == name { counts[counts.count - 1].1 += 1 } else { counts.append((name, 1)) }
        }
        let playable = report.utterances.filter { $0.spliced != nil }.count
        return "\(report.utterances.count), \(playable) playable; amounts that say every token: "
            + counts.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    public static func markdown(_ report: AuditReport, settings: Settings, sounds: [Int: String]) -> String {
        let table = Markdown.table
        var out = "# Voice pack audit\n\n"
        out +=
            report.check.passed
            ? "**Check passes.** " : "**Check fails: \(counted(report.check.errors.count, "problem")).** "
        out += "\(report.fragments.count) fragments; \(loudnessSummary(report, settings: settings)).\n\n"
        out += "## Fragments\n\n" + table(columns, report.fragments.map(cells))
        out += "\n## Voices\n\n\(voiceSummary(report)).\n\n" + table(voiceColumns, voiceRows(report))
        out += "\n## Coverage\n\n" + table(coverageColumns, report.coverage.map(coverageCells))
        out += "\n## Utterances\n\n\(utteranceSummary(report)).\n\n"
        out += table(utteranceColumns, report.utterances.indices.map { utteranceCells(report, $0, sounds) })
        out += "\n## Longest utterance\n\n\(longest(report))\n"
        out += "\n## Findings\n\n"
        out +=
            report.check.findings.isEmpty
            ? "None.\n"
            : "\(CheckRendering.tally(report.check)).\n\n"
                + report.check.findings.map {
                    "- `\($0.subject.text)` \($0.severity.rawValue) [\($0.categoryAndKind)] \($0.message): \($0.fix)\n"
                }.joined()
        return out
    }
}

extension AuditText {
    public static func json(_ report: AuditReport, sounds: [Int: String]) -> String {
        CanonicalJSON.string(AuditJSON(report, sounds: sounds)) + "\n"
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

    struct Join: Encodable {
        let atMs: Double
        let stepDB: Double
        let click: Bool
    }

    struct Utterance: Encodable {
        let purpose: String
        let amount: String
        let style: String
        let form: String
        let template: String?
        let text: String
        let tokens: [String]
        /// Relative to the report; nil without `--output`, or when it cannot be played.
        let file: String?
        let playable: Bool
        let missing: [String]
        let durationMs: Double?
        let loudnessLUFS: Double?
        let joins: [Join]
    }

    struct Voices: Encodable {
        struct Odd: Encodable {
            let token: String
            let recording: String
            let kind: String
            let message: String
        }

        let typical: Typical
        let odd: [Odd]
    }

    struct Typical: Encodable {
        let pitchRegisterHz: Double?
        let bandwidthHz: Double?
        let snrDB: Double?
        let msPerSyllable: Double?
        let phraseMsPerSyllable: Double?
        /// How long after its sound a syllable that starts with its voice starts it.
        let voiceOnsetMs: Double?
        /// How more than half the recordings were delivered, over which the others are taken.
        let delivery: VoiceConsistency.Delivery?
    }

    let passed: Bool
    let heardLoudness: HeardLoudness?
    /// The pack's typical voice, and the fragments that stand apart from it (`fragments[].analysis` has each
    /// one's figures).
    let voices: Voices?
    let fragments: [Manifest.Fragment]
    let utterances: [Utterance]
    let coverage: [Coverage]
    let longestUtterance: CheckJSON.Longest?
    let findings: [Diagnostic]

    init(_ report: AuditReport, sounds: [Int: String]) {
        passed = report.check.passed
        utterances = report.utterances.enumerated().map { index, utterance in
            let plan = utterance.plan
            return Utterance(
                purpose: plan.purpose, amount: plan.amount.plain, style: plan.style.name, form: plan.form.name,
                template: plan.template, text: plan.text, tokens: plan.tokens.map(\.text), file: sounds[index],
                playable: utterance.spliced != nil, missing: plan.missing.map(\.text),
                durationMs: utterance.spliced?.durationMs,
                loudnessLUFS: utterance.spliced.flatMap { $0.loudnessLUFS.isFinite ? $0.loudnessLUFS : nil },
                joins: (utterance.spliced?.joins ?? []).map { Join(atMs: $0.atMs, stepDB: $0.stepDB, click: $0.click) })
        }
        heardLoudness = report.heardLoudness.map {
            HeardLoudness(medianPhon: Manifest.rounded($0.medianPhon), spreadPhon: Manifest.rounded($0.spreadPhon))
        }
        fragments = report.fragments
        voices = report.voices.map { voices in
            let typical = voices.typical
            return Voices(
                typical: Typical(
                    pitchRegisterHz: typical.pitchRegisterHz.map(Manifest.rounded),
                    bandwidthHz: typical.bandwidthHz.map(Manifest.rounded), snrDB: typical.snrDB.map(Manifest.rounded),
                    msPerSyllable: typical.syllableMs.map(Manifest.rounded),
                    phraseMsPerSyllable: typical.phraseSyllableMs.map(Manifest.rounded),
                    voiceOnsetMs: typical.voiceOnsetMs.map(Manifest.rounded), delivery: typical.delivery),
                odd: report.fragments.flatMap { fragment in
                    (voices.findings[fragment.token] ?? []).map {
                        Voices.Odd(
                            token: $0.token, recording: $0.recording, kind: $0.kind.rawValue, message: $0.message)
                    }
                })
        }
        coverage = report.coverage.map {
            Coverage(
                name: $0.name, tokens: $0.needed.map(\.text), aliased: $0.aliased.map(\.text),
                missing: $0.missing.map(\.text))
        }
        longestUtterance = CheckJSON(report.check).longestUtterance
        findings = report.check.findings
    }
}
