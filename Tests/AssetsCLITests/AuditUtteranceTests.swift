import AudioPipeline
import Foundation
import Testing

/// `audit` plays the amounts the pack will make: every fragment heard in context, the sounds written beside
/// the report, and utterances that need a missing token listed as not playable.
@Suite struct AuditUtteranceTests {
    struct Report: Decodable {
        struct Utterance: Decodable {
            struct Join: Decodable {
                let atMs: Double
                let stepDB: Double
            }
            let purpose: String
            let text: String
            let tokens: [String]
            let file: String?
            let playable: Bool
            let missing: [String]
            let durationMs: Double?
            let loudnessLUFS: Double?
            let joins: [Join]
        }
        struct Fragment: Decodable { let token: String }
        let fragments: [Fragment]
        let utterances: [Utterance]
    }

    static func audit(_ pack: BuildEndToEndTests.Folder) throws -> (InProcess.Result, Report) {
        let run = InProcess.run(["audit", "--format", "json", "--output", "report/audit.json"], in: pack.url)
        let data = try Data(contentsOf: pack.url.appendingPathComponent("report/audit.json"))
        return (run, try JSONDecoder().decode(Report.self, from: data))
    }

    @Test func everyFragmentIsHeardAndEverySoundIsTheLengthTheReportSays() throws {
        let pack = try CheckAuditEndToEndTests.fullPack()
        try FileManager.default.createDirectory(
            at: pack.url.appendingPathComponent("report"), withIntermediateDirectories: true)
        let (run, report) = try Self.audit(pack)
        #expect(run.status == 0, "\(run.stderr)")
        let heard = Set(report.utterances.filter(\.playable).flatMap(\.tokens))
        #expect(Set(report.fragments.map(\.token)).isSubset(of: heard))
        #expect(report.utterances.contains { $0.purpose == "longest" })
        #expect(report.utterances.contains { $0.purpose == "template wechat" && $0.text == "微信收款，八十八元整" })
        for utterance in report.utterances {
            let file = try #require(utterance.file, "\(utterance.text) has no sound")
            #expect(file.hasPrefix("audit-sounds/utterance-") && file.hasSuffix(".wav"))
            let sound = try SoundFile.open(reading: pack.url.appendingPathComponent("report/\(file)").path, name: file)
            #expect(sound.info.sampleRate == 44_100 && sound.info.channels == 1)
            #expect(sound.info.format == FileFormat(container: "wav", encoding: "pcm16"))
            let ms = (Double(sound.info.frames) * 1000 / 44_100 * 100).rounded() / 100
            #expect(ms == utterance.durationMs, "\(file): \(ms) ms, the report says \(utterance.durationMs ?? 0)")
            #expect(utterance.joins.count == utterance.tokens.count - 1)
            #expect(utterance.joins.map(\.atMs) == utterance.joins.map(\.atMs).sorted())
            // The loudness the report gives is BS.1770's reading of the file written.
            let samples = try sound.readChannels(name: file, maxFrames: .max)[0]
            let measured = LoudnessMeter.integratedLoudness(Signal(samples: samples, sampleRate: 44_100))
            #expect(utterance.loudnessLUFS.map { abs($0 - measured) < 0.01 } == true, "\(measured) LUFS")
        }
        // A second audit leaves only its own sounds in the folder.
        _ = try Self.audit(pack)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: pack.url.appendingPathComponent("report/audit-sounds").path)
        #expect(Set(names) == Set(report.utterances.compactMap { $0.file.map { ($0 as NSString).lastPathComponent } }))
    }

    @Test func withoutOutputNothingIsWrittenAndUtterancesAreListed() throws {
        let pack = try CheckAuditEndToEndTests.fullPack()
        let run = InProcess.run(["audit"], in: pack.url)
        #expect(run.status == 0)
        #expect(run.stdout.contains("Utterances ("))
        #expect(run.stdout.contains("amounts that say every token: spoken/yuan "))
        #expect(!FileManager.default.fileExists(atPath: pack.url.appendingPathComponent("audit-sounds").path))
    }

    @Test func anUtteranceThatNeedsAMissingTokenIsNotPlayable() throws {
        let pack = try CheckAuditEndToEndTests.fullPack()
        try pack.write(
            "assets.json",
            #"{"styles": ["spoken", "formatter"], "forms": ["yuan"], "phrases": {"phrase_wechat": "微信收款"}, "templates": {"wechat": "微信收款，{amount}"}}"#
        )
        _ = InProcess.run(["build"], in: pack.url)
        try FileManager.default.createDirectory(
            at: pack.url.appendingPathComponent("report"), withIntermediateDirectories: true)
        let (run, report) = try Self.audit(pack)
        #expect(run.status == 1)
        let needsZero = report.utterances.filter { $0.tokens.contains("〇") }
        #expect(!needsZero.isEmpty)
        #expect(needsZero.allSatisfy { !$0.playable && $0.missing == ["〇"] && $0.file == nil && $0.durationMs == nil })
        #expect(report.utterances.contains { $0.playable })
        let text = InProcess.run(["audit"], in: pack.url).stdout
        #expect(text.contains("not playable: no fragment for 〇"))
    }
}
