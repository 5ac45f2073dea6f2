import Foundation
import PackManifest
import PackTools

/// `diff --format html`: one self-contained page for a reviewer — each changed fragment's figures with a
/// player and a waveform before and after, side by side; each added or removed fragment; the settings that
/// changed; and every affected amount spliced from both packs.
extension DiffReport {
    public static func html(_ diff: PackDiff, sounds: DiffSounds) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="zh-Hans">
            <head>
            <meta charset="utf-8">
            <title>Voice pack changes against \(escape(diff.base))</title>
            <style>
            body { font: 14px/1.4 -apple-system, "Segoe UI", "Noto Sans CJK SC", sans-serif; margin: 24px; color: #1d1d1f; }
            h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
            table { border-collapse: collapse; margin-top: 8px; }
            th, td { border-bottom: 1px solid #e0e0e0; padding: 4px 8px; text-align: left; vertical-align: top; }
            th { background: #f5f5f7; }
            .token { font-size: 22px; }
            .before { color: #6e7781; } .moved { font-weight: 600; }
            svg.wave { background: #fafafa; border: 1px solid #e0e0e0; display: block; }
            </style>
            </head>
            <body>
            <h1>Voice pack changes against <code>\(escape(diff.base))</code></h1>
            <p id="headline">\(escape(headline(diff)))</p>

            """
        if let gain = gainLine(diff) { html += "<p id=\"gain\">\(escape(gain))</p>\n" }
        if let unfetched = unfetchedLine(diff) {
            html += "<p id=\"unfetched\">\(escape(capitalized(unfetched)))</p>\n"
        }
        html += "<p id=\"check\">\(escape(capitalized(checkLine(diff))))</p>\n"
        html += findingsSection(diff)
        if diff.isEmpty { html += "<p>No fragment or setting changed.</p>\n" }
        html += changedSection(diff, sounds: sounds)
        html += entrySection("Added", diff.added, sounds: sounds) { $0.after }
        html += entrySection("Removed", diff.removed, sounds: sounds) { $0.before }
        html += rejudgedSection(diff, sounds: sounds)
        if !diff.settings.isEmpty {
            html +=
                "<h2>Settings</h2>\n<table id=\"settings\">\n<tr><th>setting</th><th>before</th><th>after</th></tr>\n"
            for setting in diff.settings {
                html += "<tr><td><code>\(escape(setting.key))</code></td><td class=\"before\">"
                html += "\(escape(setting.before ?? "—"))</td><td>\(escape(setting.after ?? "—"))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += utteranceSection(diff, sounds: sounds)
        return html + "</body>\n</html>\n"
    }

    /// The findings the change brings and those it clears, a table each, with what to do.
    static func findingsSection(_ diff: PackDiff) -> String {
        var html = ""
        for section in findingSections(diff) {
            html += "<h2>\(capitalized(section.title))</h2>\n"
            html += "<table id=\"\(section.title.replacingOccurrences(of: " ", with: "-"))\">\n"
            html += "<tr><th>severity</th><th>kind</th><th>about</th><th>finding</th><th>what to do</th></tr>\n"
            for finding in section.findings {
                html += "<tr><td>\(finding.severity.rawValue)</td><td>\(finding.categoryAndKind)</td>"
                html += "<td>\(escape(finding.subject.text))</td><td>\(escape(finding.message))</td>"
                html += "<td>\(escape(finding.fix))</td></tr>\n"
            }
            html += "</table>\n"
        }
        return html
    }

    static func changedSection(_ diff: PackDiff, sounds: DiffSounds) -> String {
        guard !diff.changed.isEmpty else { return "" }
        var html = "<h2>Changed</h2>\n<table id=\"changed\">\n"
        html += "<tr><th>token</th><th>before</th><th>after</th><th>what changed</th></tr>\n"
        for change in diff.changed {
            let pair = sounds.fragments[change.token]
            html += "<tr class=\"change\"><td class=\"token\">\(escape(change.token))</td>"
            html += "<td>\(player(pair?.before))\(picture(change.before.waveform, width: 360))</td>"
            html += "<td>\(player(pair?.after))\(picture(change.after.waveform, width: 360))</td>"
            html += "<td><strong>\(escape(summary(change)))</strong><table>"
            for figure in change.figures {
                html += "<tr><td>\(escape(figure.name))</td><td class=\"before\">"
                html += "\(escape(value(figure.before, of: figure)))</td>"
                html += "<td class=\"moved\">\(escape(value(figure.after, of: figure)))</td></tr>"
            }
            html += "</table></td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// The recordings left as they were whose match with the voice moved, with both verdicts and a player of
    /// each, to hear it beside the voice that changed.
    static func rejudgedSection(_ diff: PackDiff, sounds: DiffSounds) -> String {
        guard !diff.rejudged.isEmpty else { return "" }
        var html = "<h2>\(escape(rejudgedHeading))</h2>\n<table id=\"rejudged\">\n"
        html += "<tr><th>token</th><th>sound</th><th>recording</th><th>before</th><th>after</th></tr>\n"
        for entry in diff.rejudged {
            html += "<tr><td class=\"token\">\(escape(entry.token))</td>"
            html += "<td>\(player(sounds.fragments[entry.token]?.after))</td>"
            html += "<td>\(escape(entry.recording))</td><td class=\"before\">\(escape(entry.before))</td>"
            html += "<td class=\"moved\">\(escape(entry.after))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func entrySection(
        _ title: String, _ entries: [PackDiff.Entry], sounds: DiffSounds, sound: (DiffSounds.Pair) -> String?
    ) -> String {
        guard !entries.isEmpty else { return "" }
        var html = "<h2>\(title)</h2>\n<table id=\"\(title.lowercased())\">\n"
        html += "<tr><th>token</th><th>sound</th><th>fragment</th><th>voice</th><th>recording problems</th></tr>\n"
        for entry in entries {
            html += "<tr><td class=\"token\">\(escape(entry.token))</td>"
            html +=
                "<td>\(player(sounds.fragments[entry.token].flatMap(sound)))\(picture(entry.waveform, width: 360))</td>"
            html += "<td>\(escape(entry.fragment.file))<br>\(escape(fragmentLine(entry.fragment)))</td>"
            html += "<td>\(escape(entry.verdict))</td><td>\(escape(entry.recordingProblems))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func utteranceSection(_ diff: PackDiff, sounds: DiffSounds) -> String {
        guard !diff.utterances.isEmpty else { return "" }
        var html = "<h2>Amounts that say them</h2>\n<table id=\"utterances\">\n"
        html += "<tr><th>amount</th><th>text</th><th>before</th><th>after</th></tr>\n"
        for (index, utterance) in diff.utterances.enumerated() {
            let pair = sounds.utterances[index]
            html += "<tr class=\"utterance\"><td>\(escape(utterance.amount))<br>\(escape(utterance.styleForm))"
            html += "\(utterance.template.map { "<br>template \(escape($0))" } ?? "")</td>"
            html += "<td>\(escape(utterance.text))</td>"
            for (side, sound) in [(utterance.before, pair?.before), (utterance.after, pair?.after)] {
                html += "<td>\(player(sound))"
                if case .spliced(_, let waveform) = side { html += picture(waveform, width: 360) }
                html += "\(escape(sideLine(side)))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</table>\n"
    }

    static func player(_ file: String?) -> String {
        guard let file else { return "" }
        return "<audio controls preload=\"metadata\" src=\"\(escape(file))\"></audio>"
    }

    static func picture(_ waveform: Waveform?, width: Int) -> String {
        guard let waveform else { return "" }
        return WaveformPicture.svg(waveform, width: width, height: 56, colour: "#1f6feb")
    }

    static func escape(_ text: String) -> String { Markup.escape(text) }
}

/// A waveform as an inline SVG: one vertical stroke per column, scaled to the loudest column.
public enum WaveformPicture {
    /// The path: `M<x>.5 <top>V<bottom>` for each column, the columns spread over `width`.
    public static func path(low: [Float], high: [Float], width: Int, height: Int) -> String {
        let peak = max(zip(low, high).map { max(-$0.0, $0.1) }.max() ?? 1, 1e-6)
        let middle = Double(height) / 2
        var path = ""
        for (index, (bottomSample, topSample)) in zip(low, high).enumerated() {
            let x = low.count <= width ? index : index * width / low.count
            let top = middle - Double(topSample / peak) * (middle - 2)
            let bottom = middle - Double(bottomSample / peak) * (middle - 2)
            path += String(format: "M%d.5 %.1fV%.1f", x, top, max(bottom, top + 1))
        }
        return path
    }

    public static func svg(_ waveform: Waveform, width: Int, height: Int, colour: String) -> String {
        let path = path(low: waveform.low, high: waveform.high, width: width, height: height)
        return "<svg class=\"wave\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
            + "role=\"img\" aria-label=\"waveform\"><path d=\"\(path)\" stroke=\"\(colour)\" stroke-width=\"1\"/></svg>"
    }
}

/// Text made safe inside XML and HTML elements and attributes: for the JUnit report and the HTML pages.
public enum Markup {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
