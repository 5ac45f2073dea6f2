import Foundation
import PackManifest
import PackTools

/// What `build` says when it is done: each failure and warning (stderr), then one summary line (stdout).
public enum BuildReport {
    public static func diagnostics(_ outcome: BuildOutcome, paths: PackPaths) -> [String] {
        var lines: [String] = []
        if outcome.finishedInterruptedCommit {
            lines.append("assets build: finished the commit of an interrupted build first")
        }
        lines += (outcome.failures + outcome.warnings).map(\.description)
        if outcome.stemsReadFromNames.count > 1 {
            let stems = outcome.stemsReadFromNames.mapValues(\.text)
            lines.append(
                "assets build: \(stems.count) recordings are named as apps name them; listen to each, then put what they "
                    + "say under \"stems\" in assets.json (a new one can be this):\n"
                    + String(decoding: JSONLayout.indented(CanonicalJSON.data(["stems": stems])), as: UTF8.self)
                    .dropLast())
        }
        if !outcome.failures.isEmpty {
            let count = outcome.failures.count
            lines.append(
                "assets build: \(counted(count, "problem")); "
                    + "\(paths.display(paths.out)) and \(paths.display(paths.manifest)) are unchanged")
        }
        return lines
    }

    /// `built 3, unchanged 20: wrote manifest.json (0.41 s)`, with the warnings said counted by kind
    /// (`; 2 warnings (sound/cut)`), and the pack gain's move when it moved.
    public static func summary(_ outcome: BuildOutcome, paths: PackPaths, seconds: Double) -> [String] {
        var summary = "built \(outcome.built.count), unchanged \(outcome.unchanged)"
        if !outcome.removed.isEmpty { summary += ", removed \(outcome.removed.count)" }
        summary +=
            outcome.manifestWritten
            ? ": wrote \(paths.display(paths.manifest))" : ": \(paths.display(paths.manifest)) is up to date"
        summary += " (\(String(format: "%.2f s", seconds)))"
        if !outcome.warnings.isEmpty {
            summary += "; " + CheckRendering.byKind(outcome.warnings, "warning")
        }
        return [summary] + (outcome.packGainChange.map { [$0] } ?? [])
    }
}

/// What `split` says: the plan a dry run lists, and the one-line summary.
public enum SplitReport {
    /// `五\t1.200–1.650 s\t→ raw-audio/5.wav (replaces 5.mp3)`, one a piece.
    public static func plan(_ plan: SplitPlan, rawName: String) -> [String] {
        plan.pieces.map { piece in
            let replaced = piece.replaces.isEmpty ? "" : " (replaces \(piece.replaces.joined(separator: ", ")))"
            let range = String(
                format: "%.3f–%.3f s", plan.seconds(piece.frames.lowerBound), plan.seconds(piece.frames.upperBound))
            return "\(piece.token.text)\t\(range)\t→ \(rawName)/\(piece.file)\(replaced)"
        }
    }

    /// `split 12 tokens from session.wav into raw-audio/ (1 retake: 五)`.
    public static func summary(_ plan: SplitPlan, session: String, rawName: String) -> String {
        let retakes =
            plan.retakes.isEmpty
            ? ""
            : " (\(counted(plan.retakes.count, "retake")): \(plan.retakes.map(\.text).joined(separator: " ")))"
        let count = plan.pieces.count
        let name = (session as NSString).lastPathComponent
        return "split \(counted(count, "token")) from \(name) into \(rawName)/\(retakes)"
    }
}

/// What `say` prints: the text, the tokens, the length and the file written, or the same as JSON.
public enum SayReport {
    public static func text(_ said: SaidAmount) -> String {
        var lines = [said.text, said.tokens.map(\.text).joined(separator: " ")]
        if let durationMs = said.durationMs { lines.append(String(format: "%.0f ms", durationMs)) }
        if let written = said.written { lines.append("wrote \(written)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `amount` as the user wrote it, read back (`88.50`); `template` as named.
    public static func json(_ said: SaidAmount, amount: String, template: String?) -> String {
        CanonicalJSON.string(
            SayJSON(
                amount: amount, style: said.style.name, form: said.form.name, template: template, text: said.text,
                tokens: said.tokens.map(\.text), durationMs: said.durationMs.map { ($0 * 100).rounded() / 100 },
                file: said.written)) + "\n"
    }
}

private struct SayJSON: Encodable {
    let amount: String
    let style: String
    let form: String
    let template: String?
    let text: String
    let tokens: [String]
    let durationMs: Double?
    let file: String?
}
