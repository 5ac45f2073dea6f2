import Foundation
import PackManifest
import PackReports
import SpeechText
import Testing
import VoicePack

@testable import PackTools

/// The reports as pure functions of values made here: no pack, no file.
@Suite struct RenderingTests {
    static let paths = PackPaths(
        root: URL(fileURLWithPath: "/pack"), raw: URL(fileURLWithPath: "/pack/raw-audio"),
        out: URL(fileURLWithPath: "/pack/normalized"), manifest: URL(fileURLWithPath: "/pack/manifest.json"))

    static func report() -> CheckReport {
        var report = CheckReport()
        report.add(
            .coverage, "〇",
            [
                Diagnostic(
                    .error, .token("〇"), .coverage, .missing, "no fragment & no alias", fix: "add <raw-audio/〇.wav>")
            ])
        report.add(
            .sound, "normalized/digit_3.wav",
            [
                Diagnostic(
                    .warning, paths.subject(manifestPath: "normalized/digit_3.wav"), .sound, .cut, "3: cut",
                    fix: "re-export")
            ])
        report.add(.budget, "longest utterance")
        return report
    }

    /// JUnit: a suite for every category (found or not) in the enum's order, the error a failure with its
    /// message escaped, the warning in system-out.
    @Test func junitHasASuiteForEveryCategory() {
        let xml = CheckRendering.junit(Self.report())
        let suites = xml.components(separatedBy: "<testsuite name=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(suites.map(String.init) == Diagnostic.Category.allCases.map(\.rawValue))
        #expect(xml.contains("<failure message=\"no fragment &amp; no alias\" type=\"coverage/missing\">"))
        #expect(xml.contains("<system-out>normalized/digit_3.wav: warning: [sound/cut] 3: cut: re-export</system-out>"))
        #expect(xml.contains("<testsuites name=\"assets check\" tests=\"3\" failures=\"1\">"))
    }

    /// A failing check on a pack checked against every style, whose misses lie in some styles and forms only,
    /// names those closest to covered and the settings that ask for them; not when every pair lacks as much,
    /// nor when the styles were chosen.
    @Test func theSummarySaysWhichStylesAndFormsComeClosest() {
        var report = Self.report()
        (report.styles, report.forms) = (ReadingStyle.allCases, AmountForm.allCases)
        func lacking(_ lacks: [(ReadingStyle, AmountForm, String)]) {
            report.coverageByStyleForm = ReadingStyle.allCases.flatMap { style in
                AmountForm.allCases.map { form in
                    let missing = lacks.first { $0.0 == style && $0.1 == form }?.2 ?? "〇一二三四"
                    return StyleFormCoverage(style: style, form: form, missing: missing.map { Token(String($0)) })
                }
            }
        }
        let summary = { CheckRendering.summary(report, settings: Settings()) }
        #expect(summary() == "assets check: 1 problem (coverage/missing), 1 warning (sound/cut)")
        lacking([(.spoken, .decimal, "")])
        #expect(
            summary()
                == #"assets check: 1 problem (coverage/missing), 1 warning (sound/cut); spoken/decimal has every fragment: if the app says amounts only so, set "styles": ["spoken"] and "forms": ["decimal"] in assets.json"#
        )
        lacking([(.spoken, .yuan, ""), (.spoken, .decimal, ""), (.financial, .yuan, ""), (.financial, .decimal, "")])
        #expect(
            summary().hasSuffix(
                #"set "styles": ["spoken", "financial"] and "forms": ["yuan", "decimal"] in assets.json"#))
        lacking([(.spoken, .decimal, "两"), (.formatter, .decimal, "〇")])
        #expect(
            summary().hasSuffix(
                #"; spoken/decimal lacks only 两, formatter/decimal lacks only 〇: if the app says amounts as spoken/decimal, set "styles": ["spoken"] and "forms": ["decimal"] in assets.json, and give 两 a recording or an alias"#
            ))
        // Every pair lacks as much, or lacks more than a few: nothing to say.
        lacking([])
        #expect(summary() == "assets check: 1 problem (coverage/missing), 1 warning (sound/cut)")
        lacking([(.spoken, .decimal, "两元点十")])
        #expect(summary() == "assets check: 1 problem (coverage/missing), 1 warning (sound/cut)")
        // The styles were chosen (in assets.json or by --styles): no advice on choosing them.
        lacking([(.spoken, .decimal, "")])
        report.styles = [.spoken, .formatter]
        #expect(summary() == "assets check: 1 problem (coverage/missing), 1 warning (sound/cut)")
    }

    /// A real pack's check lists the same warning on every recording (telnoly's: 17 headers wrong, 16 voices
    /// cut): the summary counts them by kind, commonest first (ties in the order listed), at most four; JSON
    /// carries each finding's kind.
    @Test func theSummaryCountsFindingsByKind() throws {
        var report = CheckReport()
        func add(
            _ count: Int, _ severity: Diagnostic.Severity, _ category: Diagnostic.Category, _ kind: Diagnostic.Kind
        ) {
            for index in 0..<count {
                let file = "raw-audio/\(kind)_\(index).wav"
                report.add(
                    category, file,
                    [Diagnostic(severity, Self.paths.subject(manifestPath: file), category, kind, "m", fix: "f")])
            }
        }
        add(1, .error, .consistency, .voice)
        add(16, .warning, .sound, .cut)
        add(17, .warning, .sound, .header)
        let summary = { CheckRendering.summary(report, settings: Settings()) }
        #expect(summary() == "assets check: 1 problem (consistency/voice), 33 warnings (sound/header 17, sound/cut 16)")
        add(2, .warning, .consistency, .delivery)
        add(2, .warning, .sound, .clipped)
        add(1, .warning, .budget, .nearLimit)
        #expect(
            summary()
                == "assets check: 1 problem (consistency/voice), 38 warnings (sound/header 17, sound/cut 16, consistency/delivery 2, sound/clipped 2, …)"
        )
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(CheckRendering.json(report).utf8)) as? [String: Any])
        let kinds = (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(Set(kinds) == ["voice", "cut", "header", "delivery", "clipped", "nearLimit"])
        #expect(kinds.count == 39)
    }

    /// `build`'s summary counts the warnings it printed by kind, as `check` does; none, nothing.
    @Test func theBuildSummaryCountsItsWarningsByKind() {
        var outcome = BuildOutcome()
        outcome.built = ["三", "八", "九"]
        outcome.manifestWritten = true
        let said = { BuildReport.summary(outcome, paths: Self.paths, seconds: 0.3) }
        #expect(said() == ["built 3, unchanged 0: wrote manifest.json (0.30 s)"])
        let warning = { (token: String, kind: Diagnostic.Kind) in
            Diagnostic(
                .warning, Self.paths.subject(manifestPath: "raw-audio/\(token).wav"), .sound, kind, token, fix: "")
        }
        outcome.warnings = [warning("三", .cut), warning("八", .cut), warning("九", .limited)]
        #expect(
            said() == ["built 3, unchanged 0: wrote manifest.json (0.30 s); 3 warnings (sound/cut 2, sound/limited)"])
    }

    /// Xcode and GitHub lines: a file's finding on the file, a token's on the settings file, with the subject
    /// said where the file does not say it.
    @Test func annotationsPointAtTheFileToMend() {
        let settings = URL(fileURLWithPath: "/pack/assets.json")
        let annotations = CheckAnnotations(paths: Self.paths, settingsFile: settings)
        let findings = Self.report().findings
        #expect(
            annotations.xcode(findings[0])
                == "/pack/assets.json: error: 〇: [coverage/missing] no fragment & no alias: add <raw-audio/〇.wav>")
        #expect(
            annotations.xcode(findings[1]) == "/pack/normalized/digit_3.wav: warning: [sound/cut] 3: cut: re-export")
        #expect(
            annotations.github(findings[1], repository: URL(fileURLWithPath: "/"))
                == "::warning file=pack/normalized/digit_3.wav,title=sound/cut::3: cut: re-export")
    }

    /// `check` before: 收款 in another voice, 七 cut; after: 收款 still (its figures moved), 九 missing.
    static let checkChange: CheckChange = {
        let voice = { (semitones: Int) in
            Diagnostic(
                .error, .file(URL(fileURLWithPath: "/pack/raw-audio/收款.wav"), shown: "raw-audio/收款.wav"),
                .consistency, .voice, "收款: another voice, \(semitones) semitones under", fix: "re-record it")
        }
        let cut = Diagnostic(
            .warning, .file(URL(fileURLWithPath: "/pack/raw-audio/七.wav"), shown: "raw-audio/七.wav"), .sound, .cut,
            "its voice is cut at its end", fix: "export it again")
        let missing = Diagnostic(
            .error, .token("九"), .coverage, .missing, "no fragment", fix: "add raw-audio/九.wav")
        var before = CheckReport()
        before.cases = [
            CheckCase(category: .coverage, name: "九", findings: []),
            CheckCase(category: .sound, name: "七", findings: [cut]),
            CheckCase(category: .consistency, name: "收款", findings: [voice(6)]),
        ]
        var after = CheckReport()
        after.cases = [
            CheckCase(category: .coverage, name: "九", findings: [missing]),
            CheckCase(category: .consistency, name: "收款", findings: [voice(5)]),
        ]
        return CheckChange(before: before, after: after)
    }()

    /// A diff with one of each: the text, the Markdown table and the JSON say the same things.
    @Test func aDiffReadsTheSameInEveryFormat() throws {
        func fragment(_ token: String, gain: Double, source: String) -> Manifest.Fragment {
            Manifest.Fragment(
                token: token, file: "normalized/\(token).wav", frames: 4410, durationMs: 100, sha256: "f\(gain)",
                loudnessPhon: 89.75, loudnessLUFS: -16, truePeakDBTP: -1.1, gainDB: gain, limiterReductionDB: 0,
                trimmedHeadMs: 0, trimmedTailMs: 0, headDBFS: -10, tailDBFS: -20, warnings: [],
                source: Manifest.Source(
                    file: "raw-audio/\(token).wav", sha256: source, size: 1, sampleRate: 44_100, channels: 1,
                    format: "wav/pcm16", frames: 4410, durationMs: 100, loudnessLUFS: -20, truePeakDBTP: -5,
                    noiseFloorDBFS: -80, clippedSamples: 0, channelDecision: "mono"))
        }
        func entry(_ fragment: Manifest.Fragment) -> PackDiff.Entry {
            PackDiff.Entry(
                fragment: fragment, location: URL(fileURLWithPath: "/nowhere"), verdict: "matches the voice",
                recordingProblems: "none",
                waveform: nil)
        }
        let (old, new) = (fragment("七", gain: 3, source: "aaaa"), fragment("七", gain: 9, source: "bbbb"))
        let diff = PackDiff(
            base: "HEAD", added: [entry(fragment("欢迎", gain: 1, source: "c"))],
            removed: [entry(fragment("九", gain: 2, source: "d"))],
            changed: [
                PackDiff.Change(
                    token: "七", figures: PackDiff.figures(entry(old), entry(new)), sameTake: true, recordingOf: nil,
                    before: entry(old), after: entry(new))
            ], unchanged: 12,
            rejudged: [
                PackDiff.Rejudged(
                    token: "收款", recording: "raw-audio/收款.wav", before: "matches the voice",
                    after: "stands apart: voice", location: URL(fileURLWithPath: "/pack/normalized/收款.wav"))
            ], packGain: nil, movedWithGain: 0,
            settings: [PackDiff.Setting(key: "templates.welcome", before: nil, after: "\"欢迎{amount}\"")],
            utterances: [], check: Self.checkChange)
        let text = DiffReport.text(diff)
        // 收款's voice finding is on both sides, though its figures moved: neither new nor gone.
        #expect(
            text.contains(
                "check: 1 problem (consistency/voice), 1 warning (sound/cut) → 2 problems (coverage/missing, consistency/voice)\n\n"
                    + "new findings\n  九: error: [coverage/missing] no fragment: add raw-audio/九.wav\n\n"
                    + "findings gone\n  raw-audio/七.wav: warning: [sound/cut] its voice is cut at its end: export it again\n"
            ),
            "\(text)")
        #expect(text.hasPrefix("assets diff against HEAD: 1 changed, 1 added, 1 removed, 12 unchanged\n"))
        #expect(text.contains("  七  the same take exported again\n"))
        #expect(text.contains("      gain       3 dB → 9 dB\n"), "\(text)")
        // An added or removed fragment names the recording it was built from, as delivered: a reviewer sees a 16 kHz
        // WAV under an .mp3 name, or a take in another format than the rest, before hearing it.
        #expect(
            text.contains(
                "  欢迎  normalized/欢迎.wav  100 ms, 89.75 phon, +1.0 dB gain, from raw-audio/欢迎.wav (wav/pcm16, 44100 Hz), matches the voice, recording problems: none\n"
            ), "\(text)")
        #expect(
            text.contains(
                "\nleft as they were, compared with a voice that changed\n"
                    + "  收款  raw-audio/收款.wav  matches the voice → stands apart: voice\n"))
        let html = DiffReport.html(diff, sounds: DiffSounds())
        #expect(html.contains("<h2>Left as they were, compared with a voice that changed</h2>"))
        #expect(
            html.contains("<td class=\"before\">matches the voice</td><td class=\"moved\">stands apart: voice</td>"))
        #expect(html.contains("<table id=\"findings-gone\">"))
        #expect(
            html.contains(
                "<tr><td>error</td><td>coverage/missing</td><td>九</td><td>no fragment</td><td>add raw-audio/九.wav</td></tr>"
            ))
        let markdown = DiffReport.markdown(diff)
        #expect(markdown.contains("### Findings gone\n\n| severity | kind | about | finding |\n"))
        #expect(
            markdown.contains(
                "| warning | sound/cut | raw-audio/七.wav | its voice is cut at its end: export it again |"))
        #expect(markdown.contains("|  | gain | 3 dB | 9 dB |\n"))
        #expect(markdown.contains("| `templates.welcome` | — | `\"欢迎{amount}\"` |\n"))
        #expect(markdown.contains("+1.0 dB gain, from raw-audio/欢迎.wav (wav/pcm16, 44100 Hz) |"), "\(markdown)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(DiffReport.json(diff).utf8)) as? [String: Any])
        let changed = try #require((json["changed"] as? [[String: Any]])?.first)
        let figures = try #require(changed["changes"] as? [[String: Any]])
        #expect(figures.map { $0["name"] as? String } == ["recording", "gain"])
        #expect(figures.last?["after"] as? Double == 9)
        #expect(json["unchanged"] as? Int == 12)
        let check = try #require(json["check"] as? [String: Any])
        #expect((check["before"] as? [String: Any])?["passed"] as? Bool == false)
        #expect((check["after"] as? [String: Any])?["errors"] as? Int == 2)
        #expect((check["new"] as? [[String: Any]])?.map { $0["subject"] as? String } == ["九"])
        #expect((check["gone"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["cut"])
        #expect(
            json["rejudged"] as? [[String: String]] == [
                [
                    "token": "收款", "recording": "raw-audio/收款.wav", "before": "matches the voice",
                    "after": "stands apart: voice",
                ]
            ])
    }
}
