import Foundation
import PackManifest
import PackTools

/// `diff --format json`: the same diff as data. Fragments are the manifest's entries, whole, on each side.
struct DiffJSON: Encodable {
    struct Entry: Encodable {
        let token: String
        let file: String
        let voice: String
        let recordingProblems: String
        let fragment: Manifest.Fragment
        /// Relative to the report, when the HTML's sounds were written.
        let sound: String?
    }

    struct Figure: Encodable {
        let name: String
        let unit: String
        let before: Value?
        let after: Value?
    }

    /// A number stays a JSON number, a text a string.
    struct Value: Encodable {
        let value: PackDiff.Figure.Value

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            }
        }
    }

    struct Change: Encodable {
        let token: String
        let summary: String
        let sameTake: Bool
        let recordingOf: String?
        let changes: [Figure]
        let before: Entry
        let after: Entry
    }

    struct Gain: Encodable {
        let beforeDB: Double
        let afterDB: Double
        let fragmentsMovedOnlyByIt: Int
    }

    struct Side: Encodable {
        let playable: Bool
        let problem: String?
        let durationMs: Double?
        let loudnessLUFS: Double?
        let sound: String?
    }

    struct Utterance: Encodable {
        let purpose: String
        let amount: String
        let styleForm: String
        let template: String?
        let text: String
        let tokens: [String]
        let touched: [String]
        let before: Side
        let after: Side
    }

    /// `check` on one side, as `CheckChange` judges it.
    struct CheckSide: Encodable {
        let passed: Bool
        let errors: Int
        let warnings: Int
        /// As the text says it: `ok, 1 warning (sound/cut)`.
        let summary: String
    }

    struct Check: Encodable {
        let before: CheckSide
        let after: CheckSide
        let new: [Diagnostic]
        let gone: [Diagnostic]
    }

    let base: String
    let check: Check
    let added: [Entry]
    let removed: [Entry]
    let changed: [Change]
    let unchanged: Int
    let rejudged: [PackDiff.Rejudged]
    let packGain: Gain?
    let unfetched: PackBase.Unfetched?
    let settings: [PackDiff.Setting]
    let utterances: [Utterance]

    init(_ diff: PackDiff, sounds: DiffSounds) {
        func entry(_ entry: PackDiff.Entry, _ sound: String?) -> Entry {
            Entry(
                token: entry.token, file: entry.fragment.file, voice: entry.verdict,
                recordingProblems: entry.recordingProblems,
                fragment: entry.fragment,
                sound: sound)
        }
        func side(_ side: PackDiff.Side, _ sound: String?) -> Side {
            switch side {
            case .spliced(let spliced, _):
                return Side(
                    playable: true, problem: nil, durationMs: spliced.durationMs,
                    loudnessLUFS: spliced.loudnessLUFS.isFinite ? spliced.loudnessLUFS : nil, sound: sound)
            case .unplayable(let why):
                return Side(playable: false, problem: why, durationMs: nil, loudnessLUFS: nil, sound: nil)
            }
        }
        base = diff.base
        func checkSide(_ report: CheckReport) -> CheckSide {
            CheckSide(
                passed: report.passed, errors: report.errors.count, warnings: report.warnings.count,
                summary: DiffReport.outcome(report))
        }
        check = Check(
            before: checkSide(diff.check.before), after: checkSide(diff.check.after), new: diff.check.new,
            gone: diff.check.gone)
        added = diff.added.map { entry($0, sounds.fragments[$0.token]?.after) }
        removed = diff.removed.map { entry($0, sounds.fragments[$0.token]?.before) }
        changed = diff.changed.map { change in
            let pair = sounds.fragments[change.token]
            return Change(
                token: change.token, summary: DiffReport.summary(change), sameTake: change.sameTake,
                recordingOf: change.recordingOf,
                changes: change.figures.map {
                    Figure(
                        name: $0.name, unit: $0.unit, before: $0.before.map(Value.init), after: $0.after.map(Value.init)
                    )
                },
                before: entry(change.before, pair?.before), after: entry(change.after, pair?.after))
        }
        unchanged = diff.unchanged
        rejudged = diff.rejudged
        packGain = diff.packGain.map {
            Gain(beforeDB: $0.before, afterDB: $0.after, fragmentsMovedOnlyByIt: diff.movedWithGain)
        }
        unfetched = diff.unfetched
        settings = diff.settings
        utterances = diff.utterances.enumerated().map { index, utterance in
            let pair = sounds.utterances[index]
            return Utterance(
                purpose: utterance.purpose, amount: utterance.amount, styleForm: utterance.styleForm,
                template: utterance.template, text: utterance.text, tokens: utterance.tokens,
                touched: utterance.touched, before: side(utterance.before, pair?.before),
                after: side(utterance.after, pair?.after))
        }
    }
}

extension DiffReport {
    public static func json(_ diff: PackDiff, sounds: DiffSounds = DiffSounds()) -> String {
        CanonicalJSON.string(DiffJSON(diff, sounds: sounds)) + "\n"
    }
}
