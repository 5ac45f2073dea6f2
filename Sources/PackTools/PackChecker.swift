import AudioPipeline
import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// One thing `check` looked at — a fragment, a recording, a token, the budget — and what it found.
public struct CheckCase: Equatable, Sendable {
    public let category: Diagnostic.Category
    public let name: String
    public var findings: [Diagnostic]
}

/// Everything `assets check` found, case by case.
public struct CheckReport: Sendable {
    public var cases: [CheckCase] = []
    /// The manifest as read, when it could be.
    public var manifest: Manifest?
    public var fragmentCount: Int { manifest?.fragments.count ?? 0 }
    public var longestUtterance: Utterance?
    /// Each fragment's voice against the pack's (the category `consistency`), when the manifest was read.
    public var voices: VoiceConsistency?
    public var styles: [ReadingStyle] = []
    public var forms: [AmountForm] = []
    /// Each style and form checked, in their order, with the tokens it needs that no fragment serves.
    public var coverageByStyleForm: [StyleFormCoverage] = []

    public var findings: [Diagnostic] { cases.flatMap(\.findings) }
    public var errors: [Diagnostic] { findings.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { findings.filter { $0.severity == .warning } }
    public var passed: Bool { errors.isEmpty }

    mutating func add(_ category: Diagnostic.Category, _ name: String, _ findings: [Diagnostic] = []) {
        cases.append(CheckCase(category: category, name: name, findings: findings))
    }

    /// Makes the warnings of these kinds errors (`check.errors`), each saying so.
    mutating func fail(on kinds: [Settings.WarningKind]) {
        let failing = Set(kinds.map(\.rawValue))
        guard !failing.isEmpty else { return }
        cases = cases.map { testCase in
            let findings = testCase.findings.map { finding in
                guard finding.severity == .warning, failing.contains(finding.categoryAndKind) else { return finding }
                return Diagnostic(
                    .error, finding.subject, finding.category, finding.kind,
                    finding.message + " (an error by check.errors in the settings)", fix: finding.fix)
            }
            return CheckCase(category: testCase.category, name: testCase.name, findings: findings)
        }
    }
}

/// One style and form's coverage: the tokens it needs that no fragment serves, its own or an alias's.
public struct StyleFormCoverage: Sendable {
    public let style: ReadingStyle
    public let form: AmountForm
    /// In reading order.
    public let missing: [Token]

    public init(style: ReadingStyle, form: AmountForm, missing: [Token]) {
        (self.style, self.form, self.missing) = (style, form, missing)
    }

    /// `spoken/decimal`.
    public var name: String { "\(style.name)/\(form.name)" }
}

/// `assets check`: every problem of a pack, found without rebuilding it. It hashes files and reads
/// headers; it decodes no audio.
public enum PackChecker {
    /// iOS plays the default sound instead of a notification sound of 30 s or more.
    public static let iOSSoundLimitSeconds = 30.0

    /// `coverFor` overrides the styles and forms to cover (`--styles`, `--forms`) without making the
    /// pack stale.
    public static func check(
        paths: PackPaths, settings: Settings, coverFor: (styles: [ReadingStyle], forms: [AmountForm])? = nil
    ) -> CheckReport {
        var report = CheckReport()
        var covered = settings
        if let coverFor {
            covered.styles = coverFor.styles
            covered.forms = coverFor.forms
        }
        report.styles = covered.styles
        report.forms = covered.forms
        let manifestName = paths.display(paths.manifest)
        let lock = try? PackReading.open(paths)
        defer { withExtendedLifetime(lock) {} }

        guard let data = try? Data(contentsOf: paths.manifest) else {
            report.add(
                .manifest, manifestName,
                [
                    Diagnostic(
                        .error, .missingFile(paths.manifest, shown: manifestName), .manifest, .missing,
                        "there is no manifest",
                        fix: "run `assets build`")
                ])
            return report
        }
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(data, name: manifestName)
        } catch {
            report.add(
                .manifest, manifestName,
                [Diagnostic(.error, paths.subject(paths.manifest), .manifest, .unreadable, error.message, fix: "")])
            return report
        }
        report.manifest = manifest
        checkFiles(manifest, paths: paths, into: &report)
        checkSettings(manifest, settings: settings, paths: paths, into: &report)
        checkSources(manifest, paths: paths, settings: settings, into: &report)
        let pack = try? SoundPack(
            manifest: data, name: manifestName, folder: paths.manifest.deletingLastPathComponent(),
            digest: { SHA256.hex(of: $0) })
        let voices = VoiceConsistency(manifest: manifest, settings: settings.consistency)
        checkBuilt(
            manifest, pack: pack, settings: settings, covered: covered, voices: voices, paths: paths, into: &report)
        report.fail(on: settings.check.errors)
        return report
    }

    /// What `check` finds in a pack from its manifest alone: coverage, each fragment's sound, the voice's
    /// consistency and the longest utterance — not whether the files and recordings are what the manifest says.
    /// `diff` judges both of its sides so: a base read from git has its manifest and fragments, not its recordings.
    /// `voices`: the pack's voice comparison under `settings`, when the caller has it.
    public static func checkBuilt(
        _ pack: SoundPack, settings: Settings, voices: VoiceConsistency? = nil, paths: PackPaths
    ) -> CheckReport {
        var report = CheckReport()
        report.styles = settings.styles
        report.forms = settings.forms
        report.manifest = pack.manifest
        checkBuilt(
            pack.manifest, pack: pack, settings: settings, covered: settings,
            voices: voices ?? VoiceConsistency(manifest: pack.manifest, settings: settings.consistency), paths: paths,
            into: &report)
        report.fail(on: settings.check.errors)
        return report
    }

    /// What `check` finds of a built pack's settings and recordings against its manifest: the settings or a
    /// recording changed since the build, a recording added or removed, a name that says no token. `diff` adds it
    /// to what the manifest gives of the pack as it is (`checkBuilt`), whose recordings it has.
    public static func checkRecordings(_ manifest: Manifest, settings: Settings, paths: PackPaths) -> [CheckCase] {
        var report = CheckReport()
        checkSettings(manifest, settings: settings, paths: paths, into: &report)
        checkSources(manifest, paths: paths, settings: settings, into: &report)
        report.fail(on: settings.check.errors)
        return report.cases
    }

    /// `covered`: the settings with the styles and forms to cover, for coverage and the longest utterance.
    private static func checkBuilt(
        _ manifest: Manifest, pack: SoundPack?, settings: Settings, covered: Settings, voices: VoiceConsistency,
        paths: PackPaths, into report: inout CheckReport
    ) {
        checkCoverage(manifest, settings: covered, paths: paths, into: &report)
        checkSound(manifest, settings: settings, voices: voices, paths: paths, into: &report)
        checkConsistency(manifest, settings: settings, voices: voices, paths: paths, into: &report)
        if let pack { checkBudget(pack, settings: covered, into: &report) }
    }

    /// Each listed file is there, inside the pack, with the manifest's bytes, frames and format.
    private static func checkFiles(_ manifest: Manifest, paths: PackPaths, into report: inout CheckReport) {
        let expected = FileFormat(manifest.format.sampleFormat, in: manifest.format.container)
        var listed: Set<String> = []
        for fragment in manifest.fragmentsInReadingOrder {
            var findings: [Diagnostic] = []
            let url = paths.resolveManifestPath(fragment.file)
            listed.insert(url.path)
            func problem(_ message: String, fix: String = "run `assets build`", missing: Bool = false) {
                let subject: Diagnostic.Subject =
                    missing ? .missingFile(url, shown: fragment.file) : .file(url, shown: fragment.file)
                findings.append(Diagnostic(.error, subject, .manifest, .file, message, fix: fix))
            }
            if fragment.file.hasPrefix("/") || paths.manifestRelative(url).hasPrefix("..") {
                problem(
                    "the path leaves the manifest's folder",
                    fix: "fragment paths must be relative and inside it; run `assets build`", missing: true)
            } else if !FileManager.default.fileExists(atPath: url.path) {
                problem("listed in the manifest, but missing", missing: true)
            } else if let sha = try? SHA256.hex(ofFileAt: url.path), sha != fragment.sha256 {
                if let (placeholder, fix) = Placeholder.problem(at: url.path) {
                    problem(placeholder, fix: fix)
                } else {
                    problem(
                        "its bytes do not match the manifest's sha256 (\(sha.prefix(12))…, expected \(fragment.sha256.prefix(12))…)"
                    )
                }
            } else if let file = try? SoundFile.open(reading: url.path, name: fragment.file) {
                let info = file.info
                if info.format != expected || info.sampleRate != manifest.format.sampleRate
                    || info.channels != manifest.format.channels
                {
                    problem(
                        "it is \(info.format) at \(info.sampleRate) Hz, \(info.channels) channel(s); the manifest's format is \(expected) at \(manifest.format.sampleRate) Hz, \(manifest.format.channels) channel(s)"
                    )
                } else if info.frames != fragment.frames {
                    problem("it has \(info.frames) frames; the manifest says \(fragment.frames)")
                }
            } else {
                problem("libsndfile cannot read it")
            }
            report.add(.manifest, fragment.file, findings)
        }
        // A file in the output folder that the manifest does not list is left over from something.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.out.path)) ?? []
        for name in names.sorted(by: Token.inScalarOrder) where !name.hasPrefix(".") {
            let url = paths.out.appendingPathComponent(name)
            guard !listed.contains(url.standardizedFileURL.path) else { continue }
            report.add(
                .manifest, paths.display(url),
                [
                    Diagnostic(
                        .warning, paths.subject(url), .manifest, .unlisted, "not listed in the manifest",
                        fix: "remove it, or run `assets build`")
                ])
        }
    }

    /// The manifest was built with the settings in force now: each header field that differs is named, with
    /// the manifest's value and the settings'.
    private static func checkSettings(
        _ manifest: Manifest, settings: Settings, paths: PackPaths, into report: inout CheckReport
    ) {
        var settings = settings
        settings.loudness.packGainDB = manifest.loudness.packGainDB ?? 0  // measured by the build, not set
        var manifest = manifest
        manifest.splice = manifest.joins  // an older manifest joins as the splicer's defaults: not a change
        let changed = manifest.headerDifferences(from: Manifest.header(settings))
        report.add(
            .stale, "settings",
            changed.isEmpty
                ? []
                : [
                    Diagnostic(
                        .error, paths.subject(paths.manifest), .stale, .settings,
                        "stale pack: the settings changed since the build (\(changed.joined(separator: "; ")))",
                        fix: "run `assets build`")
                ])
    }

    /// Every recording names one token, and each is built as it is now.
    private static func checkSources(
        _ manifest: Manifest, paths: PackPaths, settings: Settings, into report: inout CheckReport
    ) {
        let scan = SourceScanner(paths: paths).scan()
        for problem in scan.problems { report.add(.naming, problem.subject.text, [problem]) }
        let named = NamedSources(scan.sources, naming: Naming(settings: settings), paths: paths)
        for (name, problem) in named.problems { report.add(.naming, name, [problem]) }
        let fragmentByToken = Dictionary(manifest.fragments.map { ($0.token, $0) }, uniquingKeysWith: { a, _ in a })
        for (token, source) in named.named {
            let name = paths.display(source.url)
            var findings: [Diagnostic] = []
            if let fragment = fragmentByToken[token.text], fragment.source.file == source.path {
                let sha = (try? SHA256.hex(ofFileAt: source.url.path)) ?? ""
                if sha != fragment.source.sha256 {
                    findings.append(
                        Diagnostic(
                            .error, paths.subject(source.url), .stale, .recording,
                            "stale pack: the recording changed since the build",
                            fix: "run `assets build`"))
                }
            } else if let fragment = fragmentByToken[token.text] {
                findings.append(
                    Diagnostic(
                        .error, paths.subject(source.url), .stale, .recording,
                        "stale pack: \(token) was built from \(fragment.source.file), not from this file",
                        fix: "run `assets build`"))
            } else {
                findings.append(
                    Diagnostic(
                        .error, paths.subject(source.url), .stale, .recording,
                        "stale pack: a new recording, not built yet",
                        fix: "run `assets build`"))
            }
            // Not a change to build: the audio is not in this clone (or the copy did not finish).
            if !findings.isEmpty, let (problem, fix) = Placeholder.problem(at: source.url.path) {
                report.add(
                    .audio, name,
                    [Diagnostic(.error, paths.subject(source.url), .audio, .unreadable, problem, fix: fix)])
                continue
            }
            report.add(.stale, name, findings)
        }
        let present = Set(scan.sources.map(\.path))
        for fragment in manifest.fragmentsInReadingOrder where !present.contains(fragment.source.file) {
            report.add(
                .stale, fragment.source.file,
                [
                    Diagnostic(
                        .error,
                        .missingFile(paths.resolveManifestPath(fragment.source.file), shown: fragment.source.file),
                        .stale, .recording,
                        "stale pack: the recording of \(fragment.token) was removed",
                        fix: "run `assets build`, or put it back")
                ])
        }
    }

    /// Every token the styles, forms and templates need has a fragment, directly or through an alias.
    private static func checkCoverage(
        _ manifest: Manifest, settings: Settings, paths: PackPaths, into report: inout CheckReport
    ) {
        let coverage = Coverage(settings: settings)
        let available = Set(manifest.fragments.map { Token($0.token) })
        let naming = Naming(settings: settings)
        let aliases = coverage.aliases
        for (alias, target) in settings.aliases.sorted(by: { $0.key < $1.key }) {
            var findings: [Diagnostic] = []
            let (chain, cycle) = aliases.chain(from: alias)
            if cycle {
                findings.append(
                    Diagnostic(
                        .error, .alias(alias.text, to: target.text), .naming, .alias, "the aliases go round in a cycle",
                        fix: "end the chain at a token with a fragment"))
            } else if aliases.player(of: alias, hasFragment: available.contains) == nil, let end = chain.last {
                findings.append(
                    Diagnostic(
                        .error, .alias(alias.text, to: target.text), .naming, .alias,
                        "an alias to \(end), which has no fragment",
                        fix:
                            "add \(paths.display(paths.raw))/\(naming.stem(for: end)).wav, or alias to a token that has one"
                    ))
            }
            report.add(.naming, "alias \(alias)", findings)
        }
        let missing = Set(coverage.missing(from: available).map(\.token))
        for style in settings.styles {
            for form in settings.forms {
                let alphabet = SpeechConverter(style: style, form: form).alphabet(upTo: settings.amountBound)
                let lacking = SpeechConverter.inReadingOrder(alphabet.intersection(missing))
                report.coverageByStyleForm.append(StyleFormCoverage(style: style, form: form, missing: lacking))
            }
        }
        for need in coverage.needs {
            var findings: [Diagnostic] = []
            if missing.contains(need.token) {
                var message = "no fragment, needed by \(need.neededBy.joined(separator: ", "))"
                if let witness = coverage.witness(for: need.token) {
                    message +=
                        "; e.g. \(witness.amount.plain) in style \(witness.style.name)/\(witness.form.name): \(witness.text)"
                }
                let fix = coverageFix(need.token, available: available, aliases: aliases, paths: paths, naming: naming)
                findings.append(
                    Diagnostic(
                        .error, .token(need.token.text), .coverage, .missing, message,
                        fix: fix + ", and run `assets build`"))
            }
            report.add(.coverage, need.token.text, findings)
        }
    }

    /// How to give a token the pack lacks a fragment: a recording, or an alias to the token that says it where
    /// one of the pack's does — the same word in another style's character (〇 as 零, 壹 as 一), or 二 for 两, as
    /// apps without a 两 say 二百.
    static func coverageFix(
        _ token: Token, available: Set<Token>, aliases: AliasResolver, paths: PackPaths, naming: Naming
    ) -> String {
        let served = { (token: Token) in aliases.player(of: token, hasFragment: available.contains) != nil }
        let recording = "add \(paths.display(paths.raw))/\(naming.stem(for: token)).wav"
        let alias = { (target: Token) in "(\"aliases\": {\"\(token)\": \"\(target)\"} in assets.json)" }
        if let same = SpeechConverter.soundsAs[token], served(same) {
            return "\(recording), or let \(same) say it, which sounds the same \(alias(same))"
        }
        if token == "两", served("二") {
            return "\(recording), or let 二 say it, as apps without a 两 do, 二百 for 两百 \(alias("二"))"
        }
        return "\(recording), or an alias in assets.json"
    }

    /// Each fragment is heard as loud as the rest, is under the ceiling, unclipped, and of a sensible length.
    private static func checkSound(
        _ manifest: Manifest, settings: Settings, voices: VoiceConsistency, paths: PackPaths,
        into report: inout CheckReport
    ) {
        let tolerance = settings.loudness.toleranceLU
        let limits = settings.limits
        let atCeiling = { (fragment: Manifest.Fragment) in
            fragment.limiterReductionDB >= settings.loudness.maximumLimitingDB - 0.5
        }
        let (typicalPhon, typical) = packLevel(manifest, reached: manifest.fragments.filter { !atCeiling($0) })
        for fragment in manifest.fragmentsInReadingOrder {
            var findings: [Diagnostic] = []
            // A finding about how the recording was made (cut, clipped) names the recording, the file a designer
            // replaces and a pull request changes; one about the built fragment names the fragment.
            func problem(
                _ severity: Diagnostic.Severity, _ kind: Diagnostic.Kind, _ message: String, fix: String,
                ofRecording: Bool = false
            ) {
                let file = ofRecording ? fragment.source.file : fragment.file
                // The token first, as `build` and `consistency` say it: a recording's name may not tell it.
                findings.append(
                    Diagnostic(
                        severity, paths.subject(manifestPath: file), .sound, kind, "\(fragment.token): \(message)",
                        fix: fix))
            }
            if let typicalPhon, abs(fragment.loudnessPhon - typicalPhon) > tolerance {
                let direction = fragment.loudnessPhon > typicalPhon ? "louder" : "quieter"
                // The build's own ceiling held it back: the recording is not at fault, and a designer decides.
                let ceiling = atCeiling(fragment)
                problem(
                    ceiling ? .warning : .error, .loudness,
                    "it is heard at \(fragment.loudnessPhon) phon, \(String(format: "%.1f", abs(fragment.loudnessPhon - typicalPhon))) phon \(direction) than \(typical) (loudness.toleranceLU \(tolerance))"
                        + (ceiling ? ", at the limiter's \(settings.loudness.maximumLimitingDB) dB ceiling" : ""),
                    fix: ceiling
                        ? "listen to it beside the rest; allow more limiting (loudness.maximumLimitingDB) or re-record it with fewer peaks, and run `assets build`"
                        : "run `assets build --force`; if it stays, re-record it at a steadier level"
                )
            }
            if fragment.truePeakDBTP > settings.loudness.truePeakCeilingDBTP {
                problem(
                    .error, .peak,
                    "its true peak is \(fragment.truePeakDBTP) dBTP, over the \(settings.loudness.truePeakCeilingDBTP) dBTP ceiling",
                    fix: "run `assets build --force`")
            }
            // Noise far above the rest is consistency's error already; said once.
            let noiseReported = voices.findings[fragment.token, default: []].contains { $0.kind == .noise }
            for warning in recordingWarnings(fragment) where !(noiseReported && warning.kind == .noise) {
                problem(.warning, warning.kind, warning.message, fix: warning.fix, ofRecording: true)
            }
            if fragment.durationMs < limits.minimumFragmentMs || fragment.durationMs > limits.maximumFragmentMs {
                problem(
                    .error, .length,
                    "it lasts \(fragment.durationMs) ms, outside \(Int(limits.minimumFragmentMs))…\(Int(limits.maximumFragmentMs)) ms",
                    fix: "check the recording and its trimming, or change limits.minimumFragmentMs / maximumFragmentMs")
            }
            report.add(.sound, fragment.file, findings)
        }
    }

    /// A warning on how a fragment's recording was made: what it is (`summary`, as `assets diff` names it), how
    /// far (`detail`), and what to do.
    struct RecordingWarning {
        let kind: Diagnostic.Kind
        let summary: String
        let detail: String
        let fix: String
        var message: String { summary + ": " + detail }
    }

    /// What is wrong with how a fragment's recording was made — its voice cut, a sound apart from it, noise
    /// that is heard, clipping — for a designer to hear.
    static func recordingWarnings(_ fragment: Manifest.Fragment) -> [RecordingWarning] {
        var warnings: [RecordingWarning] = []
        for (edge, level) in [("start", fragment.source.startLevelDB), ("end", fragment.source.endLevelDB)] {
            guard let level, CutVoice.isCut(levelDB: level, snrDB: fragment.analysis?.snrDB) else { continue }
            warnings.append(
                RecordingWarning(
                    kind: .cut, summary: "its voice is cut at its \(edge)",
                    detail:
                        "it \(edge == "end" ? "ends" : "starts") \(String(format: "%.1f", max(0, -level))) dB under its peak (its \(edge == "end" ? "last" : "first") 10 ms), where a voice \(edge == "end" ? "that ends has decayed" : "that starts has risen from") \(Int(-CutVoice.cutWithinDB)) dB or more",
                    fix:
                        "export it again with the whole \(edge == "end" ? "decay (the sound after the voice fades out)" : "onset (a little silence before the voice)")"
                ))
        }
        if let stray = fragment.source.straySound,
            StrayAudible.reported(stray, token: fragment.token, snrDB: fragment.analysis?.snrDB)
        {
            let side = stray.edge == "start" ? "before" : "after"
            warnings.append(
                RecordingWarning(
                    kind: .apart, summary: "a sound apart from its voice",
                    detail:
                        "\(Int(stray.lengthMs)) ms, \(String(format: "%.1f", max(0, -stray.levelDB))) dB under its peak, \(Int(stray.pauseMs)) ms \(side) the word (a breath, a click, another take?), kept with the pause in every amount",
                    fix: "cut it off the recording, and run `assets build`"
                ))
        }
        if let snrDB = fragment.analysis?.snrDB, snrDB < VoiceConsistency.audibleNoiseDB {
            warnings.append(
                RecordingWarning(
                    kind: .noise, summary: "its noise is heard",
                    detail:
                        "its noise floor lies \(String(format: "%.1f", snrDB)) dB under its voice, where noise within \(Int(VoiceConsistency.audibleNoiseDB)) dB of the voice is heard in a notification, in every amount it plays in",
                    fix:
                        "record it again somewhere quieter or closer to the microphone, or take the noise out before building"
                ))
        }
        if let rate = fragment.source.readAsMonoSampleRate {
            warnings.append(
                RecordingWarning(
                    kind: .header, summary: "its header is wrong",
                    detail:
                        "it says \(fragment.source.channels) channels at \(fragment.source.sampleRate) Hz, but they alternate one voice's samples; read here as one channel at \(rate) Hz, it loses its sound over \(fragment.source.sampleRate / 2) Hz wherever it is played as its header says",
                    fix:
                        "write it again as one channel at \(rate) Hz (`sox -r \(rate) -c 1 \(fragment.source.file) fixed.wav` reads it so) and put that in its place"
                ))
        }
        if fragment.source.clippedSamples > 0 {
            warnings.append(
                RecordingWarning(
                    kind: .clipped, summary: "it is clipped",
                    detail:
                        "\(fragment.source.clippedSamples) samples flat at full scale, cut off when it was recorded or exported",
                    fix:
                        "record it again with more headroom, or export it again from the original with its peaks under full scale"
                ))
        }
        return warnings
    }

    /// What a fragment's heard loudness is compared with, and how a message names it: the median of the pack's
    /// fragments, or of those that `reached` the target when the limiter's ceiling held some back (where it holds
    /// back much of a pack, at a loud target, the median of all is pulled under the target and the fragments that
    /// reached it look too loud); the target itself when fewer than three reached it.
    private static func packLevel(_ manifest: Manifest, reached: [Manifest.Fragment]) -> (phon: Double?, said: String) {
        let all = manifest.fragments
        func said(_ phon: Double) -> String { String(format: "%.1f", phon) }
        if reached.count == all.count, let phon = median(all.map(\.loudnessPhon)) {
            return (phon, "the pack's median \(said(phon)) phon")
        }
        if reached.count >= VoiceConsistency.minimumGroup, let phon = median(reached.map(\.loudnessPhon)) {
            return (
                phon,
                "the pack's median \(said(phon)) phon over the \(reached.count) fragments the limiter's ceiling did not hold back"
            )
        }
        let target = manifest.loudness.measure.targetPhon
        return (
            target,
            "the target, \(said(target)) phon (the limiter's ceiling held back \(all.count - reached.count) of the \(all.count) fragments)"
        )
    }

    /// The longest utterance stays under iOS's 30 s limit for notification sounds. It needs only the
    /// manifest's frame counts, so a damaged fragment file does not stop it.
    private static func checkBudget(_ pack: SoundPack, settings: Settings, into report: inout CheckReport) {
        let splicer = Splicer(pack: pack, gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs)
        let templates = settings.templates.map { Template(name: $0.key, text: $0.value) }
        guard
            let longest = splicer.longestUtterance(
                styles: settings.styles, forms: settings.forms, templates: templates,
                phrases: Set(settings.phrases.values), upTo: settings.amountBound)
        else { return }
        report.longestUtterance = longest
        let seconds = longest.durationMs / 1000
        let said =
            "the longest utterance, \(longest.text) (\(longest.amount.plain), \(longest.style.name)/\(longest.form.name)\(longest.template.map { ", template \($0)" } ?? "")), lasts \(String(format: "%.1f", seconds)) s"
        var findings: [Diagnostic] = []
        if seconds >= iOSSoundLimitSeconds {
            findings.append(
                Diagnostic(
                    .error, .budget, .budget, .overLimit,
                    "\(said): iOS plays the default sound instead of one of 30 s or more",
                    fix: "shorten the fragments (trim, re-record faster) or the templates"))
        } else if seconds >= settings.limits.utteranceWarningSeconds {
            findings.append(
                Diagnostic(
                    .warning, .budget, .budget, .nearLimit,
                    "\(said), over the \(Int(settings.limits.utteranceWarningSeconds)) s warning threshold",
                    fix: "shorten the fragments before they reach iOS's 30 s limit"))
        }
        report.add(.budget, "longest utterance", findings)
    }
}

/// A recording that stops (or starts) while its voice is still loud: the listener hears the word cut off, and a
/// fade cannot give back the decay. Real packs are cut this way (last 10 ms 7–27 dB under the peak).
enum CutVoice {
    /// A voice that ends decays 30 dB or more under its peak within its last 10 ms' reach.
    static let cutWithinDB = -30.0
    /// An edge is cut when it is within `cutWithinDB` of the peak and stands 6 dB over the recording's noise
    /// (an 8 kHz recording's noise floor may itself sit 30 dB under its voice).
    static func isCut(levelDB: Double, snrDB: Double?) -> Bool {
        levelDB > cutWithinDB && levelDB > -(snrDB ?? .infinity) + 6
    }
}

/// Which stray sounds a listener hears as one: in a single syllable (a phrase pauses between its words), within
/// 40 dB of the voice's peak, and 10 dB or more over the recording's noise — short of that, what the trim kept is
/// the noise itself rising (richard's 八 over pink noise 22 dB under its voice), which `consistency` judges. The
/// trim of pipelineRevision 11 keeps no stray sound more than `Trim.quieterThanVoiceDB` (20) under the peak; the
/// 40 dB bound judges manifests an earlier build wrote.
enum StrayAudible {
    static let withinDB = -40.0
    static let overNoiseDB = 10.0

    static func reported(_ stray: Manifest.StraySound, token: String, snrDB: Double?) -> Bool {
        Manifest.Analysis.syllables(in: token) == 1 && stray.levelDB > withinDB
            && stray.levelDB > -(snrDB ?? .infinity) + overNoiseDB
    }
}

/// The median of `values`, nil when there are none.
public func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
