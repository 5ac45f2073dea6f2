import AudioPipeline
import Foundation
import SpeechText
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `assets check` and `assets audit` as CI and a sound designer run them, in every output format.
@Suite struct CheckAuditEndToEndTests {
    /// A pack for the spoken style, yuan form, one template: every token recorded.
    static func fullPack() throws -> BuildEndToEndTests.Folder {
        let pack = BuildEndToEndTests.Folder()
        let stems = [
            "digit_0", "digit_1", "digit_2", "digit_3", "digit_4", "digit_5", "digit_6", "digit_7", "digit_8",
            "digit_9", "digit_liang", "unit_shi", "unit_bai", "unit_qian", "unit_wan", "unit_yi", "unit_yuan",
            "unit_jiao", "unit_fen", "unit_zheng", "phrase_wechat",
        ]
        // The phrase's four syllables take four syllables' time: it matches the pack's pace.
        for stem in stems { try pack.record("\(stem).wav", seconds: stem.hasPrefix("phrase_") ? 1.4 : 0.4) }
        try pack.write(
            "assets.json",
            #"{"styles": ["spoken"], "forms": ["yuan"], "phrases": {"phrase_wechat": "微信收款"}, "templates": {"wechat": "微信收款，{amount}"}}"#
        )
        let build = InProcess.run(["build"], in: pack.url)
        precondition(build.status == 0, build.stderr)
        return pack
    }

    @Test func aGoodPackExitsZeroWithOneLine() throws {
        let pack = try Self.fullPack()
        let run = InProcess.run(["check"], in: pack.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(
            run.stdout.hasPrefix(
                "assets check: ok — 21 fragments cover the 21 tokens of spoken × yuan and 1 template; longest utterance "
            ))
        #expect(run.stdout.filter { $0 == "\n" }.count == 1)
    }

    /// An app that never says 一亿 needs no 亿: with `maximumAmount` under it, a pack without 亿 passes, and the
    /// summary names the bound; without the bound the same pack fails for 亿.
    @Test func theMaximumAmountBoundsWhatMustBeCovered() throws {
        let pack = try Self.fullPack()
        try FileManager.default.removeItem(at: pack.url.appendingPathComponent("raw-audio/unit_yi.wav"))
        let settings =
            #"{"styles": ["spoken"], "forms": ["yuan"], "phrases": {"phrase_wechat": "微信收款"}, "templates": {"wechat": "微信收款，{amount}"}"#
        try pack.write("assets.json", settings + "}")
        #expect(InProcess.run(["build"], in: pack.url).status == 0)
        let unbounded = InProcess.run(["check"], in: pack.url)
        #expect(
            unbounded.status == 1 && unbounded.stdout.contains("亿: error: [coverage/missing]"), "\(unbounded.stdout)")

        try pack.write("assets.json", settings + #", "maximumAmount": "99999999.99"}"#)
        // The bound is the app's to know (the manifest carries it): a pack built without it is stale.
        let stale = InProcess.run(["check"], in: pack.url)
        #expect(
            stale.stdout.contains(
                #"stale pack: the settings changed since the build (maximumAmount none → "99999999.99")"#))
        #expect(InProcess.run(["build"], in: pack.url).status == 0)
        let run = InProcess.run(["check"], in: pack.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(
            run.stdout.hasPrefix(
                "assets check: ok — 20 fragments cover the 20 tokens of spoken × yuan and 1 template up to 99999999.99 (maximumAmount); longest utterance "
            ), "\(run.stdout)")
        // The audit's coverage table is bounded the same way: it does not call 亿 missing.
        let audit = InProcess.run(["audit", "--format", "json"], in: pack.url)
        #expect(audit.status == 0, "\(audit.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["coverage"] as? [[String: Any]])
        let spoken = try #require(rows.first { $0["name"] as? String == "spoken/yuan" })
        #expect(spoken["missing"] as? [String] == [], "\(spoken)")
        #expect((spoken["tokens"] as? [String])?.contains("亿") == false, "\(spoken)")
    }

    @Test func aMissingTokenExitsOneNamingItAndAnAmount() throws {
        let pack = try Self.fullPack()
        let run = InProcess.run(["check", "--styles", "spoken,formatter"], in: pack.url)
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                "〇: error: [coverage/missing] no fragment, needed by formatter/yuan; e.g. 1.01 in style formatter/yuan: 一元〇一分: add raw-audio/〇.wav"
            ))
        #expect(run.stdout.hasSuffix("assets check: 1 problem (coverage/missing)\n"))
        // The audit counts one problem the same way.
        try FileManager.default.removeItem(at: pack.url.appendingPathComponent("normalized/digit_7.wav"))
        let audit = InProcess.run(["audit"], in: pack.url)
        #expect(audit.stdout.contains("\nFindings: 1 problem (manifest/file), 0 warnings\n"), "\(audit.stdout)")
        let markdown = InProcess.run(["audit", "--format", "markdown"], in: pack.url)
        #expect(markdown.stdout.hasPrefix("# Voice pack audit\n\n**Check fails: 1 problem.** "))
        #expect(markdown.stdout.contains("## Findings\n\n1 problem (manifest/file), 0 warnings.\n\n- `normalized/"))
        let html = InProcess.run(["audit", "--format", "html"], in: pack.url)
        #expect(html.stdout.contains("<h2>Findings</h2>\n<p>1 problem (manifest/file), 0 warnings.</p>\n<ul"))
    }

    /// Findings come in the order a person reads the tokens (二 before 三), not the manifest's (三 before 二).
    @Test func findingsFollowTheReadingOrder() throws {
        let pack = try Self.fullPack()
        for stem in ["digit_3", "digit_2"] {
            try FileManager.default.removeItem(at: pack.url.appendingPathComponent("normalized/\(stem).wav"))
        }
        let run = InProcess.run(["check"], in: pack.url)
        #expect(run.status == 1)
        let named = run.stdout.split(separator: "\n").compactMap { line in
            ["normalized/digit_2.wav", "normalized/digit_3.wav"].first { line.hasPrefix($0 + ":") }
        }
        #expect(named == ["normalized/digit_2.wav", "normalized/digit_3.wav"], "\(run.stdout)")
    }

    @Test func jsonHasTheFindingsAsData() throws {
        let pack = try Self.fullPack()
        try FileManager.default.removeItem(at: pack.url.appendingPathComponent("normalized/digit_3.wav"))
        let run = InProcess.run(["check", "--format", "json"], in: pack.url)
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        #expect(object["errors"] as? Int == 1)
        #expect(object["fragments"] as? Int == 21)
        let finding = try #require((object["findings"] as? [[String: Any]])?.first)
        #expect(finding["subject"] as? String == "normalized/digit_3.wav")
        #expect(finding["category"] as? String == "manifest")
        #expect(finding["severity"] as? String == "error")
        #expect((finding["fix"] as? String)?.isEmpty == false)
        #expect((object["longestUtterance"] as? [String: Any])?["durationMs"] is Double)
    }

    @Test func junitIsValidXMLWithATestCasePerCheck() throws {
        let pack = try Self.fullPack()
        var bytes = try Data(contentsOf: pack.url.appendingPathComponent("normalized/digit_4.wav"))
        bytes[100] ^= 1
        try bytes.write(to: pack.url.appendingPathComponent("normalized/digit_4.wav"))
        let run = InProcess.run(["check", "--format=junit"], in: pack.url)
        #expect(run.status == 1)
        let counter = JUnitCounter()
        let parser = XMLParser(data: Data(run.stdout.utf8))
        parser.delegate = counter
        #expect(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))")
        // A suite for every category, found or not: one added to `Diagnostic.Category` appears here by itself.
        #expect(
            counter.suites == [
                "manifest", "stale", "naming", "coverage", "audio", "sound", "consistency", "budget",
            ])
        // Per fragment (manifest, sound, consistency), per recording (stale), per token (coverage), plus settings
        // and budget.
        #expect(counter.cases == 21 + 21 + 21 + 21 + 21 + 1 + 1)
        #expect(counter.failures == 1)
        #expect(counter.failedCases == ["normalized/digit_4.wav"])
    }

    /// The audit says the level the fragments were built at: the settings' target moved by the pack gain the build
    /// measured (a voice of its own, whose splices measure away from the stand-ins'), which `assets.json` lacks.
    @Test func theAuditSaysTheLevelThePackGainSet() throws {
        let pack = TestPack()
        pack.settings.styles = [.spoken]
        pack.settings.forms = [.yuan]
        try pack.recordTonalVoice()
        #expect(try pack.build().failures.isEmpty)
        let loudness = try pack.manifest().loudness
        let gain = try #require(loudness.packGainDB)
        #expect(gain != 0)
        let run = InProcess.run(["audit"], in: pack.root)
        let phon = String(format: "%.2f", loudness.measure.targetPhon)
        #expect(
            run.stdout.hasPrefix(
                "Fragments (21): spliced amounts at -16.0 LUFS, fragments heard at \(phon) phon (ISO 532-1 N5 at 90 dB SPL full scale, pack gain \(String(format: "%+.1f", gain)) dB)"
            ), "\(run.stdout.prefix(200)) \(run.stderr)")
    }

    /// A recording the designer accepted (`consistency.accept`) is compared with nothing: the audit's voice table
    /// says it is accepted, where it left the column blank as for one that matches.
    @Test func theAuditSaysWhichRecordingsAreAccepted() throws {
        let pack = TestPack()
        try Data(
            #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["yuan"], "consistency": {"accept": ["raw-audio/digit_3.wav"]}}"#
                .utf8
        ).write(to: pack.url("assets.json"))
        try pack.recordTonalVoice()
        try pack.write(
            "digit_3.wav",
            channels: [TonalVoice.recording(TonalVoice.syllable(.high, highHz: 330, formantScale: 1.35))],
            rate: 44_100, format: FileFormat(container: "wav", encoding: "pcm16"))
        #expect(InProcess.run(["build"], in: pack.root).status == 0)
        #expect(InProcess.run(["check"], in: pack.root).status == 0)
        let rows = InProcess.run(["audit"], in: pack.root).stdout.split(separator: "\n").filter {
            $0.contains("raw-audio/digit_")
        }
        let accepted = rows.filter { $0.hasSuffix(" accepted") }
        #expect(accepted.count == 1 && accepted.first?.hasPrefix("三 ") == true, "\(rows)")
    }

    /// A fragment whose pitch could not be measured (reported when `consistency.reportUnmeasured` asks) is not said
    /// to stand apart from the voice: the audit counts it on its own.
    @Test func theAuditDoesNotCallAnUnmeasuredPitchAnotherVoice() throws {
        let pack = TestPack()
        try Data(
            #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["yuan"], "consistency": {"reportUnmeasured": true}}"#
                .utf8
        ).write(to: pack.url("assets.json"))
        try pack.recordTonalVoice()
        #expect(InProcess.run(["build"], in: pack.root).status == 0)
        var manifest = try pack.manifest()
        let index = try #require(manifest.fragments.firstIndex { $0.token == "六" })
        manifest.fragments[index].analysis?.pitchRegisterHz = nil
        manifest.fragments[index].analysis?.pitchMedianHz = nil
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let audit = InProcess.run(["audit"], in: pack.root).stdout
        #expect(
            audit.contains("Voices (every fragment matches the pack's voice, no pitch measured on 1 fragment)"),
            "\(audit)")
    }

    /// The audit shows how far each syllable's pitch moves start to end, as the tone rule reads it, and marks the
    /// one `check` says is in another tone: a 一 made to fall 9 semitones, as 二's recording under its name would.
    @Test func theAuditShowsWhereASyllablesPitchMovesAndMarksAnotherTone() throws {
        let pack = TestPack()
        try Data(#"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["yuan"]}"#.utf8).write(
            to: pack.url("assets.json"))
        try pack.recordTonalVoice()
        #expect(InProcess.run(["build"], in: pack.root).status == 0)
        var manifest = try pack.manifest()
        let index = try #require(manifest.fragments.firstIndex { $0.token == "一" })
        manifest.fragments[index].analysis?.pitchStartHz = 220
        manifest.fragments[index].analysis?.pitchEndHz = 130.8  // 9 semitones under
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let check = InProcess.run(["check"], in: pack.root)
        #expect(check.stdout.contains("一: said in another tone: its pitch falls 9.0 semitones"), "\(check.stdout)")
        let audit = InProcess.run(["audit"], in: pack.root).stdout
        let lines = audit.split(separator: "\n").map(String.init)
        // Cells stand two spaces or more apart.
        func cells(_ line: String) -> [String] {
            line.replacing(/\ {2,}/, with: "\t").split(separator: "\t").map(String.init)
        }
        let header = try #require(lines.firstIndex { $0.hasPrefix("token") && $0.contains("moves st") })
        let column = try #require(cells(lines[header]).firstIndex(of: "moves st"))
        func moves(_ token: String) throws -> String {
            let row = try #require(lines[header...].first { $0.hasPrefix(token + " ") })
            return cells(row)[column]
        }
        #expect(try moves("一") == "! -9.0", "\(audit)")
        let four = try moves("四")
        #expect(four.hasPrefix("-") && !four.hasPrefix("!"), "\(four)")
    }

    @Test func auditInEveryFormat() throws {
        let pack = try Self.fullPack()
        let text = InProcess.run(["audit"], in: pack.url)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("Fragments (21): spliced amounts at -16.0 LUFS, fragments heard at "))
        let header = text.stdout.split(separator: "\n").first { $0.hasPrefix("token ") }
        #expect(header?.split(separator: " ").prefix(3).map(String.init) == ["token", "recording", "format"])
        // The fragments in reading order (the manifest's is 一 七 万 三 …), the phrase last.
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let rows = lines.drop { !$0.hasPrefix("token ") }.dropFirst().prefix { !$0.isEmpty }
        #expect(
            rows.map { String($0.prefix { $0 != " " }) }
                == "零一二三四五六七八九两十百千万亿元角分整".map(String.init) + ["微信收款"])
        let coverageLine = text.stdout.split(separator: "\n").first { $0.hasPrefix("spoken/yuan ") }
        #expect(coverageLine?.split(separator: " ").map(String.init) == ["spoken/yuan", "20", "20", "—"])
        #expect(text.stdout.contains("Longest utterance: "))

        let markdown = InProcess.run(["audit", "--format", "markdown"], in: pack.url)
        #expect(markdown.stdout.contains("| token | recording | format |"))
        #expect(markdown.stdout.contains("| template wechat | 1 | 1 |  | — |"))

        let json = InProcess.run(["audit", "--format", "json"], in: pack.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let fragments = try #require(object["fragments"] as? [[String: Any]])
        #expect(fragments.count == 21)
        #expect(
            fragments.allSatisfy {
                $0["trimmedHeadMs"] is Double && ($0["source"] as? [String: Any])?["channelDecision"] is String
            })
        #expect(
            (object["coverage"] as? [[String: Any]])?.map { $0["name"] as? String } == [
                "spoken/yuan", "template wechat",
            ])
    }

    @Test func htmlHasAWaveformAndAPlayerPerFragmentAndTheCoverage() throws {
        let pack = try Self.fullPack()
        try FileManager.default.createDirectory(
            at: pack.url.appendingPathComponent("reports"), withIntermediateDirectories: true)
        let run = InProcess.run(["audit", "--format", "html", "--output", "reports/audit.html"], in: pack.url)
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let html = try String(contentsOf: pack.url.appendingPathComponent("reports/audit.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "<svg class=\"wave\"").count - 1 == 21)
        let sources = html.components(separatedBy: "<audio controls preload=\"metadata\" src=\"").dropFirst().map {
            $0.prefix { $0 != "\"" }
        }
        // A player per fragment, then one per utterance (4: two amounts cover spoken/yuan, the longest, the
        // template's), each linked relative to the page.
        #expect(sources.count == 21 + 4)
        #expect(sources.prefix(21).allSatisfy { $0.hasPrefix("../normalized/") })
        #expect(sources.dropFirst(21).allSatisfy { $0.hasPrefix("audit-sounds/utterance-") })
        #expect(html.components(separatedBy: "<svg class=\"wave utterance-wave\"").count - 1 == 4)
        for source in sources {
            #expect(
                FileManager.default.fileExists(
                    atPath: pack.url.appendingPathComponent("reports").appendingPathComponent(String(source)).path))
        }
        #expect(html.contains("<table id=\"coverage\">"))
        #expect(html.contains("<td>spoken/yuan</td><td class=\"num\">20/20</td>"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script src"))
    }
}

final class JUnitCounter: NSObject, XMLParserDelegate {
    var suites: [String] = []
    var cases = 0
    var failures = 0
    var failedCases: [String] = []
    private var currentCase = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch name {
        case "testsuite": suites.append(attributes["name"] ?? "")
        case "testcase":
            cases += 1
            currentCase = attributes["name"] ?? ""
        case "failure":
            failures += 1
            failedCases.append(currentCase)
        default: break
        }
    }
}
