import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// What a refresh of recordings changed: the pack as it is against a base (`PackBase`), fragment by fragment,
/// the settings the manifest records, and the amounts that now sound different, spliced both ways.
///
/// Everything a report shows is computed here — figures, verdicts, waveforms, spliced sounds — so rendering
/// reads nothing from disk. Only what changed is decoded: a pack against itself reads its two manifests.
public struct PackDiff: Sendable {
    /// A figure of a fragment as the manifest records it, before and after (nil where it has none).
    public struct Figure: Equatable, Sendable {
        public enum Value: Equatable, Sendable {
            case number(Double)
            case text(String)
        }

        public let name: String
        public let unit: String
        public let before: Value?
        public let after: Value?
        /// The decimals a reader needs, from the tolerance the figure is compared to: none to the millisecond, the
        /// hertz or coarser (a register of 360.19 Hz reads 360 Hz), one to half a decibel, two to a twentieth.
        public let decimals: Int
    }

    /// A fragment of one side.
    public struct Entry: Sendable {
        public let fragment: Manifest.Fragment
        /// Where its file is while the diff is made (a base's folder may be temporary).
        public let location: URL
        /// `check`'s voice comparison within its own pack.
        public let verdict: String
        /// What `check` hears wrong with how the recording was made (cut, a sound apart, noise heard, clipped),
        /// or that nothing is.
        public let recordingProblems: String
        public let waveform: Waveform?
        public var token: String { fragment.token }
    }

    /// What each of `check`'s warnings on how a fragment's recording was made is, or "none".
    static func recordingProblems(_ fragment: Manifest.Fragment) -> String {
        let warnings = PackChecker.recordingWarnings(fragment).map(\.summary)
        return warnings.isEmpty ? "none" : warnings.joined(separator: "; ")
    }

    /// A fragment both sides have, made from another recording or another way.
    public struct Change: Sendable {
        public let token: String
        /// Only the figures that moved, in a fixed order.
        public let figures: [Figure]
        /// The recording changed but the fragment is the same sound within the pipeline's tolerance (the same
        /// take exported again, at another level or in another format).
        public let sameTake: Bool
        /// The token whose recording this is in the base, byte for byte: two files swapped, or one copied over
        /// another (nil when it is no other token's).
        public let recordingOf: String?
        public let before: Entry
        public let after: Entry

        /// Both sides were made from the same bytes of recording (perhaps under another name).
        public var sameRecording: Bool { before.fragment.source.sha256 == after.fragment.source.sha256 }
    }

    /// A field of the manifest's header, as JSON text on each side (nil where absent); `diff`'s JSON writes it as
    /// it is.
    public struct Setting: Equatable, Sendable, Encodable {
        public let key: String
        public let before: String?
        public let after: String?
    }

    /// A fragment made from the same recording on both sides whose match with the voice changed: the voice it is
    /// compared with is the rest of the pack, which the refresh changed (a real app's refresh re-recorded its
    /// digits and units in another voice and left its phrases, which then stood apart), or `consistency` in
    /// `assets.json` did.
    public struct Rejudged: Equatable, Sendable, Encodable {
        public let token: String
        /// The recording, as the pack as it is names it.
        public let recording: String
        /// `check`'s verdict in the base, and now (`Entry.verdict`).
        public let before: String
        public let after: String
        /// Its fragment in the pack as it is, for a reviewer to hear beside the voice that changed.
        public let location: URL

        private enum CodingKeys: String, CodingKey { case token, recording, before, after }
    }

    /// One side of an affected amount: its sound, or why it cannot be played there.
    public enum Side: Sendable {
        case spliced(SplicedUtterance, Waveform)
        case unplayable(String)

        public var spliced: SplicedUtterance? {
            if case .spliced(let utterance, _) = self { return utterance }
            return nil
        }
    }

    /// An amount the audit plays that says a token that was added, removed or changed (every amount, when the
    /// joins changed).
    public struct Utterance: Sendable {
        public let purpose: String
        public let amount: String
        public let styleForm: String
        public let template: String?
        public let text: String
        public let tokens: [String]
        /// The tokens in it that changed.
        public let touched: [String]
        public let before: Side
        public let after: Side
    }

    public let base: String
    public let added: [Entry]
    public let removed: [Entry]
    public let changed: [Change]
    public let unchanged: Int
    /// Of the unchanged, those whose match with the voice changed.
    public let rejudged: [Rejudged]
    /// The pack gain before and after, when it moved: every fragment moved with it, said once.
    public let packGain: (before: Double, after: Double)?
    /// Fragments that differ only by the pack gain's move (counted in `unchanged`).
    public let movedWithGain: Int
    public let settings: [Setting]
    public let utterances: [Utterance]
    /// What `check` finds on each side (`CheckChange`), and the findings only one side has.
    public let check: CheckChange
    /// The base's fragments that this clone has not fetched from Git LFS: they and the amounts that say them are
    /// not played (their figures, from the manifest, are compared all the same).
    public var unfetched: PackBase.Unfetched? = nil
    /// The base, whose folder (a revision's is temporary) the base's entries and sounds are read from: kept as long
    /// as the diff is.
    var keptBase: PackBase? = nil

    public var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && changed.isEmpty && settings.isEmpty && rejudged.isEmpty
    }
}

/// `check` on both sides of a diff: coverage, each fragment's sound, the voice's consistency and the longest
/// utterance from each manifest (`PackChecker.checkBuilt`), and, for the pack as it is, whether its recordings and
/// settings are what it was built from (`PackChecker.checkRecordings`; a base's recordings are not read). What a
/// reviewer wants to know is which findings the change brings and which it clears; a finding is the same on both
/// sides when its severity, kind and subject are, whatever figures its message gives (a voice that moved shifts
/// every syllable's by a little).
public struct CheckChange: Sendable {
    public let before: CheckReport
    public let after: CheckReport
    /// The findings after that the base did not have, and the base's that are gone, each in `check`'s order.
    public let new: [Diagnostic]
    public let gone: [Diagnostic]

    public init(before: CheckReport, after: CheckReport) {
        func same(_ finding: Diagnostic) -> String {
            "\(finding.severity.rawValue) \(finding.categoryAndKind) \(finding.subject.text)"
        }
        let (wereThere, areThere) = (Set(before.findings.map(same)), Set(after.findings.map(same)))
        self.before = before
        self.after = after
        new = after.findings.filter { !wereThere.contains(same($0)) }
        gone = before.findings.filter { !areThere.contains(same($0)) }
    }
}

/// A sound's lowest and highest sample in each of a fixed number of columns, for a picture.
public struct Waveform: Equatable, Sendable {
    public let low: [Float]
    public let high: [Float]

    public init(samples: [Float], columns: Int) {
        let columns = PackAuditor.waveform(of: samples, columns: columns)
        self.init(low: columns.map(\.0), high: columns.map(\.1))
    }

    public init(low: [Float], high: [Float]) {
        self.low = low
        self.high = high
    }
}

extension PackDiff {
    /// Why a diff cannot be made: exit status 2.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    static let waveformColumns = 360

    /// The pack at `paths` (built: its manifest and fragments) against `base`.
    public static func make(paths: PackPaths, settings: Settings, base: PackBase) throws(Problem) -> PackDiff {
        let (then, now) = try packs(paths: paths, base: base)
        let sides = (
            before: Compared(pack: then, settings: base.settings), after: Compared(pack: now, settings: settings)
        )
        let gains = (then.manifest.loudness.packGainDB ?? 0, now.manifest.loudness.packGainDB ?? 0)
        let gainMoved = abs(gains.0 - gains.1) >= 0.01
        var added: [Entry] = []
        var removed: [Entry] = []
        var changed: [Change] = []
        var unchanged = 0
        var movedWithGain = 0
        let beforeByToken = Dictionary(then.manifest.fragments.map { ($0.token, $0) }, uniquingKeysWith: { a, _ in a })
        let tokenBySource = Dictionary(
            then.manifest.fragments.map { ($0.source.sha256, $0.token) }, uniquingKeysWith: { a, _ in a })
        let afterByToken = Dictionary(now.manifest.fragments.map { ($0.token, $0) }, uniquingKeysWith: { a, _ in a })
        for fragment in then.manifest.fragmentsInReadingOrder where afterByToken[fragment.token] == nil {
            removed.append(sides.before.entry(fragment))
        }
        let nowInOrder = now.manifest.fragmentsInReadingOrder
        for fragment in nowInOrder {
            guard let old = beforeByToken[fragment.token] else {
                added.append(sides.after.entry(fragment))
                continue
            }
            if old.sha256 == fragment.sha256 && old.source.sha256 == fragment.source.sha256 {
                unchanged += 1
            } else if gainMoved && old.source.sha256 == fragment.source.sha256 {
                // The same recording under another pack gain: the level move is said once, for the pack.
                unchanged += 1
                movedWithGain += 1
            } else {
                changed.append(change(old, fragment, sides: sides, tokenBySource: tokenBySource))
            }
        }
        // Made again from the same recording with no figure moved (renamed: its dither is another): not heard.
        let heard = changed.filter { !($0.figures.isEmpty && $0.sameRecording) }
        var touched = Set(added.map(\.token) + removed.map(\.token) + heard.map(\.token))
        // Other joins (`splice`) change how every amount sounds, though no fragment moved: all are played.
        if sides.before.settings.splice != sides.after.settings.splice {
            touched.formUnion((then.manifest.fragments + now.manifest.fragments).map(\.token))
        }
        return PackDiff(
            base: base.name, added: added, removed: removed, changed: changed, unchanged: unchanged,
            rejudged: rejudged(
                beforeByToken, nowInOrder, besides: Set(changed.map(\.token)), sides: sides),
            packGain: gainMoved ? gains : nil, movedWithGain: movedWithGain,
            settings: settingChanges(then.manifest, now.manifest),
            utterances: utterances(touching: touched, sides: sides),
            check: check(sides, paths: (paths.moved(toManifest: base.manifest), paths)), unfetched: base.unfetched,
            keptBase: base)
    }

    /// `check` on both sides: the base from its manifest, and the pack as it is from its manifest and against its
    /// recordings and settings — a recording changed and not built since is what a reviewer must hear of first,
    /// since the manifests then say nothing changed. The manifest is judged once when both sides are the same
    /// manifest under the same settings (a pack against itself).
    static func check(
        _ sides: (before: Compared, after: Compared), paths: (before: PackPaths, after: PackPaths)
    ) -> CheckChange {
        let (then, now) = sides
        let built = PackChecker.checkBuilt(now.pack, settings: now.settings, voices: now.voices, paths: paths.after)
        var after = built
        after.cases =
            PackChecker.checkRecordings(now.pack.manifest, settings: now.settings, paths: paths.after) + built.cases
        let before =
            then.pack.manifest == now.pack.manifest && then.settings == now.settings
            ? built
            : PackChecker.checkBuilt(then.pack, settings: then.settings, voices: then.voices, paths: paths.before)
        return CheckChange(before: before, after: after)
    }

    /// The base's pack and the pack as it is, each read from its manifest.
    static func packs(paths: PackPaths, base: PackBase) throws(Problem) -> (then: SoundPack, now: SoundPack) {
        let digest: FragmentDigest = { SHA256.hex(of: $0) }
        let now: SoundPack
        do {
            now = try SoundPack(manifestAt: paths.manifest, digest: digest)
        } catch {
            throw Problem(
                message: "\(paths.display(paths.manifest)): \(error.message): the pack must be built to compare it")
        }
        do {
            return (try SoundPack(manifestAt: base.manifest, digest: digest, staged: base.borrowed), now)
        } catch {
            throw Problem(message: "\(base.name): its manifest cannot be read (\(error.message))")
        }
    }

    /// The fragments made from the same recording on both sides, and not `besides` (changed otherwise), whose
    /// match with the voice moved.
    static func rejudged(
        _ before: [String: Manifest.Fragment], _ after: [Manifest.Fragment], besides changed: Set<String>,
        sides: (before: Compared, after: Compared)
    ) -> [Rejudged] {
        after.compactMap { fragment in
            guard let old = before[fragment.token], !changed.contains(fragment.token),
                old.source.sha256 == fragment.source.sha256
            else { return nil }
            let verdicts = (sides.before.verdict(old), sides.after.verdict(fragment))
            guard verdicts.0 != verdicts.1 else { return nil }
            return Rejudged(
                token: fragment.token, recording: fragment.source.file, before: verdicts.0, after: verdicts.1,
                location: sides.after.pack.location(of: fragment.file))
        }
    }

    /// One pack with what its fragments are compared and spliced by.
    struct Compared {
        let pack: SoundPack
        let settings: Settings
        let voices: VoiceConsistency

        init(pack: SoundPack, settings: Settings) {
            self.pack = pack
            self.settings = settings
            voices = VoiceConsistency(manifest: pack.manifest, settings: settings.consistency)
        }

        /// `check`'s voice comparison of `fragment` within this pack, in a few words.
        /// A recording the designer accepted is compared with nothing, so it is said to be accepted rather than
        /// to match.
        func verdict(_ fragment: Manifest.Fragment) -> String {
            if fragment.analysis == nil { return "not analysed" }
            if voices.accepts(fragment) { return "accepted (consistency.accept)" }
            if voices.standsApart(fragment.token) {
                return "stands apart: "
                    + (voices.findings[fragment.token] ?? []).map(\.kind.rawValue).joined(separator: ", ")
            }
            return (voices.unmeasured(fragment.token) ? "no pitch measured, no other difference" : "matches the voice")
                + (voices.deliveredApart(fragment.token) ? ", delivered apart from the rest" : "")
        }

        func entry(_ fragment: Manifest.Fragment) -> Entry {
            let samples = try? pack.audio(for: Token(fragment.token)).samples
            return Entry(
                fragment: fragment, location: pack.location(of: fragment.file),
                verdict: verdict(fragment),
                recordingProblems: PackDiff.recordingProblems(fragment),
                waveform: samples.map { Waveform(samples: $0, columns: PackDiff.waveformColumns) })
        }

        var splicer: Splicer {
            Splicer(pack: pack, gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs)
        }
    }

    static func change(
        _ old: Manifest.Fragment, _ new: Manifest.Fragment, sides: (before: Compared, after: Compared),
        tokenBySource: [String: String]
    ) -> Change {
        let before = sides.before.entry(old)
        var after = sides.after.entry(new)
        var sameTake = false
        if old.source.sha256 != new.source.sha256 {
            sameTake =
                old.sha256 == new.sha256
                || {
                    guard let a = try? sides.before.pack.audio(for: Token(old.token)).samples,
                        let b = try? sides.after.pack.audio(for: Token(new.token)).samples
                    else { return false }
                    return SameTake.compare(a, b, sampleRate: sides.after.pack.manifest.format.sampleRate)
                }()
        }
        // An entry of `consistency.accept` that names a file, not a take: a new recording under an accepted name is
        // compared with nothing, which the reviewer is told rather than left to read in an unchanged verdict.
        if old.source.sha256 != new.source.sha256, !sameTake, sides.after.voices.acceptsByName(new) {
            after = Entry(
                fragment: after.fragment, location: after.location,
                verdict:
                    "accepted by its name (consistency.accept): a new recording, compared with nothing: listen to it",
                recordingProblems: after.recordingProblems, waveform: after.waveform)
        }
        let recordingOf = tokenBySource[new.source.sha256].flatMap { $0 == new.token ? nil : $0 }
        return Change(
            token: new.token, figures: figures(before, after), sameTake: sameTake, recordingOf: recordingOf,
            before: before, after: after)
    }

    /// The figures that moved, each beyond what tells a reviewer something: the hundredth the manifest rounds to,
    /// or, for a figure a take exported again moves by itself, a step a listener would hear — half a semitone of
    /// register, 5 % of pace, 10 ms of length, and noise only where either side is within `noiseShownWithinDB` of
    /// the voice. Exported again four ways, the 1,340 fragments of nineteen real packs moved their registers by up
    /// to 1.2 semitones (median 0.15), their pace by up to 7 % (median 1 %), their length by up to 22 ms (median
    /// 3), and their noise, all but 12 with both sides 50 dB or more under the voice (median 97): each was listed.
    static func figures(_ before: Entry, _ after: Entry) -> [Figure] {
        typealias Read = (Entry) -> Figure.Value?
        typealias Moved = (Double, Double) -> Bool
        func number(_ read: @escaping (Manifest.Fragment) -> Double?) -> Read {
            { entry in read(entry.fragment).map(Figure.Value.number) }
        }
        func text(_ read: @escaping (Manifest.Fragment) -> String) -> Read {
            { entry in .text(read(entry.fragment)) }
        }
        func beyond(_ step: Double) -> Moved { { abs($0 - $1) >= max(step, 0.005) } }
        let semitones: Moved = { abs(12 * log2($1 / $0)) >= 0.5 }
        let share: Moved = { abs($1 / $0 - 1) >= 0.05 }
        let audible: Moved = { abs($0 - $1) >= 0.5 && min($0, $1) < Self.noiseShownWithinDB }
        let table: [(String, String, Int, Moved, Read)] = [
            ("recording", "sha256", 0, beyond(0), text { String($0.source.sha256.prefix(12)) }),
            ("recording format", "", 0, beyond(0), text(\.source.format)),
            ("sample rate", "Hz", 0, beyond(0), number { Double($0.source.sampleRate) }),
            ("channels", "", 0, beyond(0), number { Double($0.source.channels) }),
            ("recording length", "ms", 0, beyond(1), number(\.source.durationMs)),
            ("length", "ms", 0, beyond(10), number(\.durationMs)),
            ("gain", "dB", 2, beyond(0.05), number(\.gainDB)),
            ("heard loudness", "phon", 2, beyond(0.05), number(\.loudnessPhon)),
            ("true peak", "dBTP", 2, beyond(0.05), number(\.truePeakDBTP)),
            ("limiting", "dB", 2, beyond(0.05), number(\.limiterReductionDB)),
            ("register", "Hz", 0, semitones, number { $0.analysis?.pitchRegisterHz }),
            ("band", "Hz", 0, beyond(50), number { $0.analysis?.bandwidthHz }),
            ("signal to noise", "dB", 1, audible, number { $0.analysis?.snrDB }),
            ("pace", "ms/syllable", 0, share, number { $0.analysis?.msPerSyllable }),
            ("voice", "", 0, beyond(0), { .text($0.verdict) }),
            ("recording problems", "", 0, beyond(0), { .text($0.recordingProblems) }),
        ]
        return table.compactMap { name, unit, decimals, moved, read in
            let (a, b) = (read(before), read(after))
            switch (a, b) {
            case (.number(let x)?, .number(let y)?) where !moved(x, y): return nil
            case (.text(let x)?, .text(let y)?) where x == y: return nil
            case (nil, nil): return nil
            default: return Figure(name: name, unit: unit, before: a, after: b, decimals: decimals)
            }
        }
    }

    /// Noise this far under the voice, or less, is near enough to hearing (`VoiceConsistency.audibleNoiseDB`, 30)
    /// for a move of it to be shown.
    static let noiseShownWithinDB = 50.0

    /// The manifest's header (everything but its fragments) as `key.path → JSON text`, the two sides compared.
    /// The pack gain is said on its own line, so it is left out here, and out of the phon it adds to.
    static func settingChanges(_ before: Manifest, _ after: Manifest) -> [Setting] {
        func fields(_ manifest: Manifest) -> [String: String] {
            var header = manifest
            header.fragments = []
            header.loudness.measure.targetPhon -= header.loudness.packGainDB ?? 0
            header.loudness.packGainDB = nil
            guard let root = try? JSONNode.parse(CanonicalJSON.string(header)) else { return [:] }
            var fields: [String: String] = [:]
            func walk(_ node: JSONNode, _ path: String) {
                if case .object(let members) = node.value {
                    for member in members { walk(member.node, path.isEmpty ? member.key : "\(path).\(member.key)") }
                } else if path != "fragments" {
                    fields[path] = leaf(node.value)
                }
            }
            walk(root, "")
            return fields
        }
        let (a, b) = (fields(before), fields(after))
        return Set(a.keys).union(b.keys).sorted().compactMap { key in
            a[key] == b[key] ? nil : Setting(key: key, before: a[key], after: b[key])
        }
    }

    static func leaf(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let digits): return digits
        case .string(let text): return "\"\(text)\""
        case .array(let items): return "[" + items.map { leaf($0.value) }.joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { "\"\($0.key)\": \(leaf($0.node.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// The audit's amounts (from either side's plan) that say a touched token, spliced from each side.
    static func utterances(touching touched: Set<String>, sides: (before: Compared, after: Compared)) -> [Utterance] {
        guard !touched.isEmpty else { return [] }
        let plans = [sides.after, sides.before].flatMap { side in
            UtterancePlan.plan(settings: side.settings, pack: side.pack, longest: nil)
        }
        var seen: Set<String> = []
        return plans.compactMap { plan -> Utterance? in
            let key = "\(plan.style.name)/\(plan.form.name) \(plan.template ?? "") \(plan.amount.plain)"
            let players = plan.tokens.map { token in
                [token.text] + [sides.before.pack, sides.after.pack].compactMap { $0.fragment(for: token)?.token }
            }
            let hits = zip(plan.tokens, players).filter { !touched.isDisjoint(with: $0.1) }.map(\.0.text)
            guard !hits.isEmpty, seen.insert(key).inserted else { return nil }
            return Utterance(
                purpose: plan.purpose, amount: plan.amount.plain, styleForm: "\(plan.style.name)/\(plan.form.name)",
                template: plan.template, text: plan.text, tokens: plan.tokens.map(\.text),
                touched: Array(Set(hits)).sorted(), before: side(plan.tokens, sides.before),
                after: side(plan.tokens, sides.after))
        }
    }

    static func side(_ tokens: [Token], _ side: Compared) -> Side {
        let missing = tokens.filter { side.pack.fragment(for: $0) == nil }
        guard missing.isEmpty else {
            return .unplayable("no fragment for \(missing.map(\.text).joined(separator: " "))")
        }
        do {
            let spliced = try SplicedUtterance.splice(tokens, with: side.splicer)
            return .spliced(spliced, Waveform(samples: spliced.audio.samples, columns: waveformColumns))
        } catch  where error.kind == .notFetched {
            // Said once for the diff, with what fetches it (`unfetched`).
            return .unplayable("\(error.subject) is not fetched from Git LFS")
        } catch {
            return .unplayable(error.description)
        }
    }
}

/// The sounds an HTML diff plays, written beside it in `<name>-sounds/`: each changed, added or removed
/// fragment and each affected amount, before and after, named by content. Paths are relative to the report.
public struct DiffSounds: Equatable, Sendable {
    public struct Pair: Equatable, Sendable {
        public var before: String?
        public var after: String?
    }

    public var fragments: [String: Pair] = [:]
    /// By index in `PackDiff.utterances`.
    public var utterances: [Int: Pair] = [:]

    public init() {}

    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): cannot be written (\(reason)): check that the folder is writable" }
    }

    /// Writes the sounds; sounds of an earlier diff in the folder that this one did not write are removed.
    public static func write(_ diff: PackDiff, container: Container, besides output: URL) throws(Failure) -> DiffSounds
    {
        let name = output.deletingPathExtension().lastPathComponent + "-sounds"
        let folder = output.deletingLastPathComponent().appendingPathComponent(name)
        var sounds = DiffSounds()
        var names: Set<String> = []
        func keep(_ data: Data, _ prefix: String, _ fileExtension: String) throws -> String {
            let file = Splicer.contentName(
                of: data, digest: { SHA256.hex(of: $0) }, prefix: prefix, extension: fileExtension)
            if names.insert(file).inserted { try data.write(to: folder.appendingPathComponent(file), options: .atomic) }
            return "\(name)/\(file)"
        }
        func copy(_ fragment: URL?) throws -> String? {
            guard let fragment else { return nil }
            let data = try Data(contentsOf: fragment)
            // A pointer Git LFS left is no sound to play.
            guard !GitLFSPointer.looksLikeOne(data) else { return nil }
            return try keep(data, "fragment", fragment.pathExtension)
        }
        func splice(_ side: PackDiff.Side) throws -> String? {
            guard let spliced = side.spliced else { return nil }
            return try keep(Splicer.fileData(spliced.audio, container: container), "utterance", container.rawValue)
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for change in diff.changed {
                sounds.fragments[change.token] = Pair(
                    before: try copy(change.before.location), after: try copy(change.after.location))
            }
            for entry in diff.added {
                sounds.fragments[entry.token] = Pair(before: nil, after: try copy(entry.location))
            }
            for entry in diff.removed {
                sounds.fragments[entry.token] = Pair(before: try copy(entry.location), after: nil)
            }
            for entry in diff.rejudged {
                sounds.fragments[entry.token] = Pair(before: nil, after: try copy(entry.location))
            }
            for (index, utterance) in diff.utterances.enumerated() {
                sounds.utterances[index] = Pair(
                    before: try splice(utterance.before), after: try splice(utterance.after))
            }
            for old in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where (old.hasPrefix("utterance-") || old.hasPrefix("fragment-")) && !names.contains(old) {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(old))
            }
        } catch {
            throw Failure(path: folder.path, reason: error.localizedDescription)
        }
        return sounds
    }
}
