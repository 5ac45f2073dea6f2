import Foundation
import PackManifest
import PackTools

extension AuditHTML {
    /// The voices: a chart of each fragment's pitch register against its recording's band, where the pack's
    /// fragments gather and the odd one stands apart (red), then the analysis table with the same marks.
    static func voices(_ report: AuditReport) -> String {
        guard let voices = report.voices else { return "" }
        var html = "<h2>Voices</h2>\n<p>\(escape(AuditText.voiceSummary(report))).</p>\n"
        html += voiceChart(report.fragments, voices)
        html += "<table id=\"voices\">\n<tr>"
        html += AuditText.voiceColumns.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
        for row in AuditText.voiceRows(report) {
            html +=
                "<tr>"
                + row.map { cell in
                    cell.hasPrefix("! ") ? "<td class=\"num missing\">\(escape(cell))</td>" : "<td>\(escape(cell))</td>"
                }.joined() + "</tr>\n"
        }
        return html + "</table>\n"
    }

    /// Register (semitones from where the syllable's tone puts it in this voice, across) against band (octaves
    /// under the typical, down),
    /// the thresholds drawn as a dotted box: a fragment outside it is one `check` reports for its voice or
    /// band (a noisy one's band is not held against it).
    static func voiceChart(_ fragments: [Manifest.Fragment], _ voices: VoiceConsistency) -> String {
        guard voices.typical.pitchRegisterHz != nil, let band = voices.typical.bandwidthHz else { return "" }
        let width = 480.0
        let height = 240.0
        let semitonesAcross = 15.0  // either side of the typical register
        let octavesDown = 2.5
        func x(_ semitones: Double) -> Double {
            width / 2 + max(-1, min(1, semitones / semitonesAcross)) * (width / 2 - 16)
        }
        func y(_ octaves: Double) -> Double { 20 + max(0, min(1, octaves / octavesDown)) * (height - 44) }
        var svg = """
            <svg id="voice-chart" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="pitch register against band, per fragment">\
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#fafafa" stroke="#e0e0e0"/>
            """
        svg +=
            "<text x=\"28\" y=\"\(Int(height) - 6)\" font-size=\"11\">← lower voice · register, semitones from where its tone reaches · higher voice →</text>"
        svg +=
            "<text transform=\"translate(12 \(Int(height) / 2)) rotate(-90)\" font-size=\"11\" text-anchor=\"middle\">band, octaves under the pack's \(String(format: "%.1f", band / 1000)) kHz ↓</text>"
        svg +=
            "<line x1=\"\(x(0))\" y1=\"\(y(0))\" x2=\"\(x(0))\" y2=\"\(y(octavesDown))\" stroke=\"#d0d7de\" stroke-dasharray=\"4 3\"/>"
        let limits = voices.settings
        svg += String(
            format:
                "<rect class=\"limits\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#8c959f\" stroke-dasharray=\"2 3\"><title>within consistency.pitchSemitones and consistency.bandwidthOctaves</title></rect>",
            x(-limits.pitchSemitones), y(0) - 6, x(limits.pitchSemitones) - x(-limits.pitchSemitones),
            y(limits.bandwidthOctaves) - y(0) + 6)
        for fragment in fragments {
            guard let analysis = fragment.analysis, let top = analysis.pitchRegisterHz,
                let semitones = voices.registerSemitones[fragment.token]
            else { continue }
            let octaves = analysis.bandwidthHz.map { max(0, log2(band / $0)) } ?? octavesDown
            let odd = voices.standsApart(fragment.token)
            let colour = odd ? "#d1242f" : "#1f6feb"
            let label =
                "\(fragment.token) \(Int(top.rounded())) Hz, band \(analysis.bandwidthHz.map { String(format: "%.1f kHz", $0 / 1000) } ?? "none")"
            svg += String(
                format:
                    "<circle class=\"voice%@\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%@\"><title>%@</title></circle>",
                odd ? " odd" : "", x(semitones), y(octaves), colour, escape(label))
            if odd {
                svg += String(
                    format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"%@\">%@</text>", x(semitones) + 6,
                    y(octaves) + 4, colour, escape(fragment.token))
            }
        }
        return svg + "</svg>\n"
    }
}
