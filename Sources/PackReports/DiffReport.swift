import Foundation
import PackManifest
import PackTools

/// `assets diff` as text, Markdown, JSON and HTML: pure functions of a `PackDiff` (and, for HTML, the sounds
/// written beside the page), reading nothing from disk.
public enum DiffReport {
    /// `2 changed, 1 added, 1 removed, 33 unchanged`.
    public static func headline(_ diff: PackDiff) -> String {
        var parts = ["\(diff.changed.count) changed", "\(diff.added.count) added", "\(diff.removed.count) removed"]
        parts.append("\(diff.unchanged) unchanged")
        return parts.joined(separator: ", ")
    }

    /// The pack gain's move, said once for every fragment it moved.
    public static func gainLine(_ diff: PackDiff) -> String? {
        guard let gain = diff.packGain else { return nil }
        return "pack gain \(signed(gain.before)) → \(signed(gain.after)) dB: every fragment moved with it "
            + "(\(diff.movedWithGain) with no other change)"
    }

    /// The base's fragments that this clone has not fetched from Git LFS, and what fetches them, said once: `the
    /// base's normalized/digit_5.wav is in Git LFS and not fetched here, so it is not played: run …`.
    public static func unfetchedLine(_ diff: PackDiff) -> String? {
        guard let unfetched = diff.unfetched, !unfetched.files.isEmpty else { return nil }
        let shown = 5
        var names = unfetched.files.prefix(shown).joined(separator: ", ")
        if unfetched.files.count > shown { names += " and \(unfetched.files.count - shown) more" }
        let (which, verb) = unfetched.files.count == 1 ? ("\(names) is", "it is") : ("\(names) are", "they are")
        return "the base's \(which) in Git LFS and not fetched here, so \(verb) not played: run `\(unfetched.fetch)`"
    }

    /// `check`'s result on each side: `check: ok → 2 problems (coverage/missing, consistency/voice)`.
    public static func checkLine(_ diff: PackDiff) -> String {
        "check: \(outcome(diff.check.before)) → \(outcome(diff.check.after))"
    }

    /// `ok`, `ok, 1 warning (sound/cut)`, `2 problems (coverage/missing, consistency/voice)`.
    static func outcome(_ report: CheckReport) -> String {
        let warnings = report.warnings.isEmpty ? "" : ", " + CheckRendering.byKind(report.warnings, "warning")
        return (report.passed ? "ok" : CheckRendering.byKind(report.errors, "problem")) + warnings
    }

    /// The findings the change brings and those it clears, titled.
    static func findingSections(_ diff: PackDiff) -> [(title: String, findings: [Diagnostic])] {
        [("new findings", diff.check.new), ("findings gone", diff.check.gone)].filter { !$0.findings.isEmpty }
    }

    /// The title of the recordings left as they were whose match with the voice changed, and as a heading.
    static let rejudgedTitle = "left as they were, compared with a voice that changed"
    static let rejudgedHeading = capitalized(rejudgedTitle)

    /// `text` with its first letter a capital, as a heading or a sentence starts.
    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// What a changed fragment is, in a few words.
    public static func summary(_ change: PackDiff.Change) -> String {
        if change.sameRecording {
            let (before, after) = (change.before.fragment.source.file, change.after.fragment.source.file)
            let how =
                before == after ? "the same recording, built another way" : "the same recording, renamed from \(before)"
            return how + (change.figures.isEmpty ? ": no figure moved, it sounds the same" : "")
        }
        if let other = change.recordingOf { return "the recording \(other) had: two files swapped, or one copied?" }
        return change.sameTake ? "the same take exported again" : "a new recording"
    }

    /// One side of a figure as a reader reads it: `360 Hz`, `-3.38 dB`, `mpeg/mp3`, or `—` where it is absent.
    public static func value(_ value: PackDiff.Figure.Value?, of figure: PackDiff.Figure) -> String {
        switch value {
        case nil: return "—"
        case .text(let text)?: return text
        case .number(let number)?:
            let exact = number == number.rounded()
            let digits = String(format: "%.\(exact ? 0 : figure.decimals)f", number)
            return figure.unit.isEmpty ? digits : "\(digits) \(figure.unit)"
        }
    }

    static func signed(_ value: Double) -> String { String(format: "%+.1f", value) }

    /// An added or removed fragment's figures and the recording it was built from, as delivered: `990 ms, 89.75
    /// phon, +4.4 dB gain, from raw-audio/success.mp3 (wav/pcm16, 16000 Hz)`.
    static func fragmentLine(_ fragment: Manifest.Fragment) -> String {
        String(format: "%.0f ms, %.2f phon, %+.1f dB gain", fragment.durationMs, fragment.loudnessPhon, fragment.gainDB)
            + ", from \(fragment.source.file) (\(fragment.source.delivery))"
    }

    static func sideLine(_ side: PackDiff.Side) -> String {
        switch side {
        case .spliced(let spliced, _):
            return String(format: "%.2f s, %.1f LUFS", spliced.durationMs / 1000, spliced.loudnessLUFS)
        case .unplayable(let why): return "not playable: \(why)"
        }
    }

    // MARK: text

    public static func text(_ diff: PackDiff) -> String {
        var out = "assets diff against \(diff.base): \(headline(diff))\n"
        if let gain = gainLine(diff) { out += gain + "\n" }
        if let unfetched = unfetchedLine(diff) { out += unfetched + "\n" }
        out += checkLine(diff) + "\n"
        for section in findingSections(diff) {
            out += "\n\(section.title)\n" + section.findings.map { "  \($0.description)\n" }.joined()
        }
        if diff.isEmpty { return out + "no fragment or setting changed\n" }
        if !diff.changed.isEmpty { out += "\nchanged\n" }
        for change in diff.changed {
            out += "  \(change.token)  \(summary(change))\n"
            let width = change.figures.map(\.name.count).max() ?? 0
            for figure in change.figures {
                out += "      \(figure.name.padding(toLength: width, withPad: " ", startingAt: 0))  "
                out += "\(value(figure.before, of: figure)) → \(value(figure.after, of: figure))\n"
            }
        }
        for (title, entries) in [("added", diff.added), ("removed", diff.removed)] where !entries.isEmpty {
            out += "\n\(title)\n"
            for entry in entries {
                out += "  \(entry.token)  \(entry.fragment.file)  \(fragmentLine(entry.fragment)), \(entry.verdict), "
                out += "recording problems: \(entry.recordingProblems)\n"
            }
        }
        if !diff.rejudged.isEmpty { out += "\n\(rejudgedTitle)\n" }
        for entry in diff.rejudged {
            out +=
                "  \(entry.token)  \(entry.recording)  \(entry.before) → \(entry.after)\n"
        }
        if !diff.settings.isEmpty { out += "\nsettings\n" }
        for setting in diff.settings {
            out += "  \(setting.key)  \(setting.before ?? "—") → \(setting.after ?? "—")\n"
        }
        if !diff.utterances.isEmpty { out += "\namounts that say them (before → after)\n" }
        for utterance in diff.utterances {
            out += "  \(utterance.amount) \(utterance.styleForm)\(utterance.template.map { " template \($0)" } ?? "")  "
            out += "\(utterance.text)  \(sideLine(utterance.before)) → \(sideLine(utterance.after))\n"
        }
        return out
    }

    // MARK: GitHub

    /// For a pull request's job: a workflow command for each finding the change brings, which GitHub shows on the
    /// pull request — where `check --format github` annotates every finding the pack has, those it had before
    /// too — then the headline and `check`'s line as plain text.
    public static func github(_ diff: PackDiff, annotations: CheckAnnotations, repository: URL) -> String {
        diff.check.new.map { annotations.github($0, repository: repository) + "\n" }.joined()
            + "assets diff against \(diff.base): \(headline(diff))\n"
            + (unfetchedLine(diff).map { "::warning title=assets diff::\(CheckAnnotations.data($0))\n" } ?? "")
            + "\(checkLine(diff))\n"
    }

    // MARK: Markdown

    /// For a pull request's comment or `$GITHUB_STEP_SUMMARY`: tables, no links to local files.
    public static func markdown(_ diff: PackDiff) -> String {
        var out = "## Voice pack changes against `\(diff.base)`\n\n**\(headline(diff))**.\n"
        if let gain = gainLine(diff) { out += "\n\(capitalized(gain)).\n" }
        if let unfetched = unfetchedLine(diff) { out += "\n\(capitalized(unfetched)).\n" }
        out += "\n\(capitalized(checkLine(diff))).\n"
        out += findingTables(diff)
        if diff.isEmpty { return out + "\nNo fragment or setting changed.\n" }
        if !diff.changed.isEmpty {
            var rows: [[String]] = []
            for change in diff.changed {
                rows.append([change.token, "**\(summary(change))**", "", ""])
                rows += change.figures.map {
                    ["", $0.name, value($0.before, of: $0), value($0.after, of: $0)]
                }
            }
            out += "\n### Changed\n\n" + Markdown.table(["token", "what changed", "before", "after"], rows)
        }
        for (title, entries) in [("Added", diff.added), ("Removed", diff.removed)] where !entries.isEmpty {
            out += "\n### \(title)\n\n"
            out += Markdown.table(
                ["token", "fragment", "figures", "voice", "recording problems"],
                entries.map {
                    [$0.token, "`\($0.fragment.file)`", fragmentLine($0.fragment), $0.verdict, $0.recordingProblems]
                })
        }
        if !diff.rejudged.isEmpty {
            out += "\n### \(rejudgedHeading)\n\n"
            out += Markdown.table(
                ["token", "recording", "before", "after"],
                diff.rejudged.map {
                    [$0.token, "`\($0.recording)`", $0.before, $0.after]
                })
        }
        if !diff.settings.isEmpty {
            out += "\n### Settings\n\n"
            out += Markdown.table(
                ["setting", "before", "after"],
                diff.settings.map { ["`\($0.key)`", code($0.before), code($0.after)] })
        }
        if !diff.utterances.isEmpty {
            out += "\n### Amounts that say them\n\n"
            out += Markdown.table(
                ["amount", "style/form", "text", "before", "after"],
                diff.utterances.map {
                    [
                        $0.amount, $0.styleForm + ($0.template.map { ", template \($0)" } ?? ""), $0.text,
                        sideLine($0.before), sideLine($0.after),
                    ]
                })
        }
        return out
    }

    /// The findings the change brings and those it clears, a table each.
    static func findingTables(_ diff: PackDiff) -> String {
        var out = ""
        for section in findingSections(diff) {
            out += "\n### \(capitalized(section.title))\n\n"
            out += Markdown.table(
                ["severity", "kind", "about", "finding"],
                section.findings.map {
                    [
                        $0.severity.rawValue, $0.categoryAndKind, $0.subject.text,
                        $0.message + ($0.fix.isEmpty ? "" : ": \($0.fix)"),
                    ]
                })
        }
        return out
    }

    static func code(_ text: String?) -> String { text.map { "`\($0)`" } ?? "—" }
}

/// GitHub-flavoured Markdown.
public enum Markdown {
    /// A table: a header row, its rule, then the rows; `|` in a cell escaped.
    public static func table(_ header: [String], _ rows: [[String]]) -> String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        return line(header) + line(header.map { _ in "---" }) + rows.map(line).joined()
    }
}
