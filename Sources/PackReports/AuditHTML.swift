import Foundation
import PackManifest
import PackTools
import SpeechText
import Splicer
import VoicePack

/// `audit --format html`: one self-contained page — no network, no script libraries — with a waveform of
/// each recording showing where it was cut, a player for each fragment, and the coverage table.
public enum AuditHTML {
    static let waveformWidth = PackAuditor.recordingColumns
    static let waveformHeight = 64

    /// `link` turns a manifest path into a link relative to where the page is written.
    public static func render(
        _ report: AuditReport, settings: Settings, sounds: [Int: String], link: (String) -> String
    ) -> String {
        let check = report.check
        var html = """
            <!DOCTYPE html>
            <html lang="zh-Hans">
            <head>
            <meta charset="utf-8">
            <title>Voice pack audit</title>
            <style>
            body { font: 14px/1.4 -apple-system, "Segoe UI", "Noto Sans CJK SC", sans-serif; margin: 24px; color: #1d1d1f; }
            h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
            .verdict { padding: 10px 14px; border-radius: 6px; display: inline-block; font-weight: 600; }
            .pass { background: #e3f5e1; color: #1b5e20; } .fail { background: #fde4e1; color: #a4161a; }
            table { border-collapse: collapse; margin-top: 8px; }
            th, td { border-bottom: 1px solid #e0e0e0; padding: 4px 8px; text-align: left; vertical-align: middle; }
            th { background: #f5f5f7; position: sticky; top: 0; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            .token { font-size: 22px; }
            .missing { background: #fde4e1; color: #a4161a; font-weight: 600; }
            .covered { color: #1b5e20; }
            .warn { color: #8a5300; }
            svg.wave { background: #fafafa; border: 1px solid #e0e0e0; }
            .legend span { display: inline-block; margin-right: 16px; }
            </style>
            </head>
            <body>
            <h1>Voice pack audit</h1>

            """
        html += "<p class=\"verdict \(check.passed ? "pass" : "fail")\">"
        html +=
            check.passed
            ? "Check passes" : "Check fails: \(counted(check.errors.count, "problem"))"
        html += "</p>\n<p>\(report.fragments.count) fragments, \(settings.format.sampleRate) Hz mono "
        html += "\(settings.format.sampleFormat.rawValue) \(settings.format.container.rawValue); "
        html += "\(escape(AuditText.loudnessSummary(report, settings: settings))). "
        html += "\(counted(check.warnings.count, "warning")).</p>\n"
        html += "<p>Longest utterance: \(escape(AuditText.longest(report)))</p>\n"

        html += coverageTable(report)
        html += fragmentTable(report, link: link)
        html += voices(report)
        html += utterances(report, sounds: sounds)
        html += "<h2>Findings</h2>\n"
        if check.findings.isEmpty {
            html += "<p>None.</p>\n"
        } else {
            html += "<p>\(escape(CheckRendering.tally(check))).</p>\n<ul id=\"findings\">\n"
            for finding in check.findings {
                html +=
                    "<li class=\"\(finding.severity == .error ? "missing" : "warn")\"><code>\(escape(finding.subject.text))</code> "
                html +=
                    "\(finding.severity.rawValue) [\(finding.categoryAndKind)] \(escape(finding.message)): \(escape(finding.fix))</li>\n"
            }
            html += "</ul>\n"
        }
        return html + "</body>\n</html>\n"
    }

    /// Each style × form and template: how many tokens it needs, which are missing, which an alias serves.
    static func coverageTable(_ report: AuditReport) -> String {
        var html = ""
        html +=
            "<h2>Coverage</h2>\n<table id=\"coverage\">\n<tr><th>style/form</th><th>tokens</th><th>missing</th><th>by alias</th><th>needed</th></tr>\n"
        for row in report.coverage {
            let missing = Set(row.missing)
            html +=
                "<tr><td>\(escape(row.name))</td><td class=\"num\">\(row.needed.count - row.missing.count)/\(row.needed.count)</td>"
            html +=
                row.missing.isEmpty
                ? "<td class=\"covered\">none</td>"
                : "<td class=\"missing\">\(escape(row.missing.map(\.text).joined(separator: " ")))</td>"
            html += "<td>\(escape(row.aliased.map(\.text).joined(separator: " ")))</td><td>"
            html += row.needed.map {
                missing.contains($0) ? "<span class=\"missing\">\(escape($0.text))</span>" : escape($0.text)
            }.joined(separator: " ")
            html += "</td></tr>\n"
        }
        html += "</table>\n"

        return html
    }

    /// Each fragment: its recording's waveform with the cuts, a player, and what the build measured and did.
    static func fragmentTable(_ report: AuditReport, link: (String) -> String) -> String {
        var html = ""
        html += """
            <h2>Fragments</h2>
            <p class="legend"><span>■ <span style="color:#1f6feb">kept</span></span><span>■ <span style="color:#b0b0b0">trimmed</span></span>
            Each picture is the whole recording; red lines mark the cuts.</p>
            <table id="fragments">
            <tr><th>token</th><th>recording (as delivered)</th><th>fragment</th><th>source</th><th>ms before → after</th>
            <th>cut head / tail ms</th><th>heard phon</th><th>LUFS before → after</th><th>gain dB</th><th>peak dBTP</th><th>limit dB</th><th>channels</th><th>warnings</th></tr>

            """
        for fragment in report.fragments {
            let source = fragment.source
            html += "<tr class=\"fragment\"><td class=\"token\">\(escape(fragment.token))</td>"
            html += "<td>\(waveform(fragment, report.recordingWaveforms[fragment.token]))</td>"
            html +=
                "<td><audio controls preload=\"metadata\" src=\"\(escape(link(fragment.file)))\" onloadedmetadata=\"this.dataset.duration = this.duration\"></audio><br>\(escape(fragment.file))</td>"
            html +=
                "<td>\(escape(source.file))<br>\(escape(source.delivery))</td>"
            html +=
                "<td class=\"num\">\(AuditText.number(source.durationMs, 0)) → \(AuditText.number(fragment.durationMs, 0))</td>"
            html +=
                "<td class=\"num\">\(AuditText.number(fragment.trimmedHeadMs, 0)) / \(AuditText.number(fragment.trimmedTailMs, 0))</td>"
            html += "<td class=\"num\">\(AuditText.number(fragment.loudnessPhon, 2))</td>"
            html +=
                "<td class=\"num\">\(AuditText.number(source.loudnessLUFS, 1)) → \(AuditText.number(fragment.loudnessLUFS, 2))</td>"
            html +=
                "<td class=\"num\">\(AuditText.signed(fragment.gainDB))</td><td class=\"num\">\(AuditText.number(fragment.truePeakDBTP, 2))</td>"
            html +=
                "<td class=\"num\">\(AuditText.number(fragment.limiterReductionDB, 1))</td><td>\(escape(source.channelDecision))</td>"
            html += "<td class=\"warn\">\(fragment.warnings.map(escape).joined(separator: "<br>"))</td></tr>\n"
        }
        html += "</table>\n"
        return html
    }

    /// An inline SVG of the recording: the kept stretch in blue, the trimmed head and tail in grey.
    static func waveform(_ fragment: Manifest.Fragment, _ picture: Waveform?) -> String {
        let width = waveformWidth
        let height = waveformHeight
        guard let picture else {
            return
                "<svg class=\"wave\" width=\"\(width)\" height=\"\(height)\"><text x=\"8\" y=\"36\">recording unreadable</text></svg>"
        }
        let duration = max(fragment.source.durationMs, 1)
        let head = Int((fragment.trimmedHeadMs / duration * Double(width)).rounded())
        let tail = width - Int((fragment.trimmedTailMs / duration * Double(width)).rounded())
        let columns = Array(zip(picture.low, picture.high))
        let peak = max(columns.map { max(-$0.0, $0.1) }.max() ?? 1, 1e-6)
        let middle = Double(height) / 2
        var kept = ""
        var trimmed = ""
        for (x, (low, high)) in columns.enumerated() {
            let top = middle - Double(high / peak) * (middle - 2)
            let bottom = middle - Double(low / peak) * (middle - 2)
            let segment = String(format: "M%d.5 %.1fV%.1f", x, top, max(bottom, top + 1))
            if x < head || x >= tail { trimmed += segment } else { kept += segment }
        }
        return """
            <svg class="wave" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" role="img" aria-label="waveform of \(escape(fragment.source.file))">\
            <path d="\(trimmed)" stroke="#b0b0b0" stroke-width="1"/><path d="\(kept)" stroke="#1f6feb" stroke-width="1"/>\
            <line x1="\(head)" y1="0" x2="\(head)" y2="\(height)" stroke="#d1242f"/><line x1="\(tail)" y1="0" x2="\(tail)" y2="\(height)" stroke="#d1242f"/></svg>
            """
    }

    /// Each utterance the pack will make: a player when it was written, and its waveform with every join
    /// marked (red at a click) and the token under each piece.
    static func utterances(_ report: AuditReport, sounds: [Int: String]) -> String {
        var html = "<h2>Utterances</h2>\n<p>\(escape(AuditText.utteranceSummary(report))).</p>\n"
        html += "<table id=\"utterances\">\n<tr><th>purpose</th><th>amount</th><th>style/form</th><th>text</th>"
        html += "<th>sound</th><th>length</th><th>LUFS</th></tr>\n"
        for (index, utterance) in report.utterances.enumerated() {
            let plan = utterance.plan
            let template = plan.template.map { ", template \($0)" } ?? ""
            html +=
                "<tr class=\"utterance\"><td>\(escape(plan.purpose))</td><td class=\"num\">\(escape(plan.amount.plain))</td>"
            html +=
                "<td>\(escape("\(plan.style.name)/\(plan.form.name)\(template)"))</td><td class=\"text\">\(escape(plan.text))</td>"
            guard let spliced = utterance.spliced else {
                html +=
                    "<td class=\"missing\" colspan=\"3\">not playable: \(escape(utterance.problem ?? ""))</td></tr>\n"
                continue
            }
            html += "<td>"
            if let file = sounds[index] {
                html +=
                    "<audio controls preload=\"metadata\" src=\"\(escape(file))\" onloadedmetadata=\"this.dataset.duration = this.duration\"></audio><br>"
            }
            html += "\(waveform(spliced, tokens: plan.tokens))</td>"
            html += "<td class=\"num\">\(String(format: "%.2f s", spliced.durationMs / 1000))</td>"
            html += "<td class=\"num\">\(AuditText.number(spliced.loudnessLUFS, 1))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func waveform(_ spliced: SplicedUtterance, tokens: [Token]) -> String {
        let width = 720
        let height = 80
        let wave = 62
        let columns = PackAuditor.waveform(of: spliced.audio.samples, columns: width)
        let path = WaveformPicture.path(low: columns.map(\.0), high: columns.map(\.1), width: width, height: wave)
        func x(_ ms: Double) -> Int { Int((ms / max(spliced.durationMs, 1) * Double(width)).rounded()) }
        let edges = [0.0] + spliced.joins.map(\.atMs) + [spliced.durationMs]
        var marks = ""
        for join in spliced.joins {
            let flagged = join.click
            marks +=
                "<line class=\"join\(flagged ? " flagged" : "")\" x1=\"\(x(join.atMs))\" y1=\"0\" x2=\"\(x(join.atMs))\" y2=\"\(wave)\" stroke=\"\(flagged ? "#d1242f" : "#8c959f")\"><title>\(escape("\(join.left)→\(join.right): \(join.stepDB) dB\(join.click ? ", click" : "")"))</title></line>"
        }
        for (index, token) in tokens.enumerated() where index + 1 < edges.count {
            let centre = (x(edges[index]) + x(edges[index + 1])) / 2
            marks +=
                "<text x=\"\(centre)\" y=\"\(height - 4)\" text-anchor=\"middle\" font-size=\"12\">\(escape(token.text))</text>"
        }
        return """
            <svg class="wave utterance-wave" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" role="img" aria-label="waveform of the spliced sound">\
            <path d="\(path)" stroke="#1f6feb" stroke-width="1"/>\(marks)</svg>
            """
    }

    static func escape(_ text: String) -> String { Markup.escape(text) }
}
