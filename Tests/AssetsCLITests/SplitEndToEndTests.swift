import CommandKit
import Foundation
import TestSupport
import Testing

@testable import AssetsCLI

/// `assets split` as a sound designer runs it: the take in, the recordings out, then build and check.
@Suite struct SplitEndToEndTests {
    static let list = "零 digit_1 二 三 四 五 六 七 八 九 五 两 十 百 千 万 亿 元 角 unit_fen 整"

    static func pack() throws -> RecordingSession {
        let session = try RecordingSession.make()
        try Data(#"{"styles": ["spoken"], "forms": ["yuan"]}"#.utf8).write(
            to: session.folder.appendingPathComponent("assets.json"))
        return session
    }

    @Test func whatSplitWritesBuildBuildsAndCheckPasses() throws {
        let session = try Self.pack()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let split = InProcess.run(["split", "session.wav", "--expect", Self.list], in: session.folder)
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stdout == "split 20 tokens from session.wav into raw-audio/ (1 retake: 五)\n")
        let build = InProcess.run(["build"], in: session.folder)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("built 20, unchanged 0"))
        let check = InProcess.run(["check"], in: session.folder)
        #expect(check.status == 0, "\(check.stdout)")
        // Again, the recordings are there: refused, nothing changed, unless --force.
        let again = InProcess.run(["split", "session.wav", "--expect", Self.list], in: session.folder)
        #expect(again.status == 1)
        #expect(again.stderr.contains("raw-audio/ already has digit_0.wav, digit_1.wav"))
        #expect(again.stderr.contains("split with --force to replace them"))
        let forced = InProcess.run(["split", "session.wav", "--expect", Self.list, "--force"], in: session.folder)
        #expect(forced.status == 0)
    }

    /// The list the talent reads comes from the pack: `alphabet --to-record` is the session's order (but the
    /// retake), `split` takes it as `@FILE`, and `--missing` then names what a pickup session must add.
    @Test func theListToRecordIsWhatSplitTakes() throws {
        let session = try Self.pack()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let list = InProcess.run(["alphabet", "--to-record"], in: session.folder)
        #expect(list.status == 0 && list.stderr.isEmpty)
        #expect(list.stdout == "零 一 二 三 四 五 六 七 八 九 两 十 百 千 万 亿 元 角 分 整\n".replacingOccurrences(of: " ", with: "\n"))
        // The talent said 五 twice: the designer adds the retake to the list.
        let read = list.stdout.replacingOccurrences(of: "五\n", with: "五\n五\n")
        try Data(read.utf8).write(to: session.folder.appendingPathComponent("list.txt"))
        let split = InProcess.run(["split", "session.wav", "--expect", "@list.txt"], in: session.folder)
        #expect(split.status == 0, "\(split.stderr)")
        let complete = InProcess.run(["alphabet", "--missing"], in: session.folder)
        #expect(complete.status == 0 && complete.stdout.isEmpty)
        #expect(complete.stderr == "assets alphabet: every token the pack needs has a recording\n")
        for name in ["unit_jiao.wav", "digit_2.wav"] {
            try FileManager.default.removeItem(at: session.folder.appendingPathComponent("raw-audio/" + name))
        }
        #expect(InProcess.run(["alphabet", "--missing"], in: session.folder).stdout == "二\n角\n")
        // Another style for one run: its own characters, 零 and 万 already served by recordings.
        let financial = InProcess.run(["alphabet", "--missing", "--styles", "financial"], in: session.folder)
        #expect(financial.stdout.split(separator: "\n").joined() == "壹贰叁肆伍陆柒捌玖拾佰仟角")
    }

    @Test func aWrongCountWritesTheLabelsToMendAndNoRecording() throws {
        let session = try Self.pack()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let short = Self.list.split(separator: " ").dropLast().joined(separator: " ")
        let run = InProcess.run(
            ["split", "session.wav", "--expect", short, "--labels-out", "take.txt"], in: session.folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("found 21 utterances in session.wav, the list has 20 (1: 0."))
        #expect(run.stderr.contains("mend the labels in Audacity, and split with --labels"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: session.folder.appendingPathComponent("raw-audio").path)
                .isEmpty)
        // The designer mends the last label and splits by the labels.
        var labels = try String(contentsOf: session.folder.appendingPathComponent("take.txt"), encoding: .utf8)
        #expect(labels.split(separator: "\n").count == 21 && labels.hasSuffix("\t?\n"))
        labels = String(labels.dropLast(2)) + "整\n"
        try labels.write(to: session.folder.appendingPathComponent("take.txt"), atomically: true, encoding: .utf8)
        let byLabels = InProcess.run(["split", "session.wav", "--labels", "take.txt"], in: session.folder)
        #expect(byLabels.status == 0, "\(byLabels.stderr)")
        #expect(byLabels.stdout.hasPrefix("split 20 tokens"))
    }

    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let session = try Self.pack()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let run = InProcess.run(["split", "session.wav", "--expect", Self.list, "--dry-run"], in: session.folder)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.first?.hasPrefix("零\t0.") == true && lines.first?.hasSuffix("→ raw-audio/digit_0.wav") == true)
        #expect(lines.last == "would split 20 tokens from session.wav into raw-audio/ (1 retake: 五)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: session.folder.appendingPathComponent("raw-audio").path)
                .isEmpty)
    }

    @Test func theCommandLineIsReadIntoOptions() throws {
        guard
            case .split(let options) = try Invocation.parse(
                [
                    "split", "take.flac", "--expect=@list.txt", "--take", "first", "--margin-ms", "20,80",
                    "--min-pause-ms", "300",
                ])
        else { Issue.record("not a split"); return }
        #expect(options.session == "take.flac" && options.expect == "@list.txt" && options.take == .first)
        #expect(options.marginBeforeMs == 20 && options.marginAfterMs == 80 && options.minimumPauseMs == 300)
        for (arguments, message) in [
            (["split", "take.wav"], "give either --expect LIST or --labels FILE"),
            (["split", "--expect", "零"], "give the session to split"),
            (
                ["split", "take.wav", "--expect", "零", "--labels", "l.txt"],
                "give either --expect LIST or --labels FILE"
            ),
            (["split", "take.wav", "--expect", "零", "--take", "best"], "--take is first or last, not 'best'"),
            (["split", "take.wav", "--expect", "零", "--margin-ms", "x"], "--margin-ms takes BEFORE or BEFORE,AFTER"),
        ] {
            #expect(throws: UsageError.self) { try Invocation.parse(arguments) }
            do {
                _ = try Invocation.parse(arguments)
            } catch {
                #expect(error.message.hasPrefix(message), "\(arguments): \(error.message)")
            }
        }
    }
}
