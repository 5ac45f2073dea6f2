import AudioPipeline
import Foundation
import SpeechText
import TestSupport
import Testing

/// `assets diff` on a pack in a git repository made by the test: a refresh that replaces one recording with
/// another voice and one with the same take 6 dB quieter, removes one and adds a phrase.
@Suite struct DiffTests {
    /// The stems of a pack that says amounts up to 999 as decimals: 15 fragments, each in its tone.
    static let stems: [(stem: String, token: Token)] = [
        ("digit_0", "零"), ("digit_1", "一"), ("digit_2", "二"), ("digit_3", "三"), ("digit_4", "四"), ("digit_5", "五"),
        ("digit_6", "六"), ("digit_7", "七"), ("digit_8", "八"), ("digit_9", "九"), ("digit_liang", "两"),
        ("unit_shi", "十"), ("unit_bai", "百"), ("unit_yuan", "元"), ("unit_dian", "点"),
    ]

    static let settings = #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["decimal"], "maximumAmount": "999"}"#

    static func record(_ pack: TestPack, _ stem: String, _ samples: [Float]) throws {
        try pack.write(
            "\(stem).wav", channels: [TonalVoice.recording(samples)], rate: 44_100,
            format: FileFormat(container: "wav", encoding: "pcm16"))
    }

    /// Every stem in its tone, built and committed in a repository of its own.
    static func committedPack() throws -> TestPack {
        let pack = TestPack()
        try Data(settings.utf8).write(to: pack.url("assets.json"))
        for (stem, token) in stems {
            try record(pack, stem, TonalVoice.syllable(try #require(Tone.citation(of: token))))
        }
        try expectBuilt(pack)
        try git(pack.root, ["init", "-q"])
        try git(pack.root, ["add", "-A"])
        try git(pack.root, ["commit", "-q", "-m", "the pack"])
        return pack
    }

    /// The pack built and committed, then refreshed and built again (not committed).
    static func refreshedPack() throws -> TestPack {
        let pack = try committedPack()
        try refresh(pack)
        return pack
    }

    /// 三 in another voice, 七 the same take 6 dB quieter, 九 removed and a phrase added, built (not committed).
    static func refresh(_ pack: TestPack) throws {
        try record(pack, "digit_3", TonalVoice.syllable(.high, highHz: 330, formantScale: 1.35))
        try record(pack, "digit_7", TonalVoice.syllable(.high).map { $0 * 0.5 })
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_9.wav"))
        try Data(
            #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["decimal"], "maximumAmount": "999", "phrases": {"phrase_welcome": "欢迎光临"}, "templates": {"welcome": "欢迎光临{amount}"}}"#
                .utf8
        ).write(to: pack.url("assets.json"))
        let phrase = [Tone.high, .rising, .high, .rising].flatMap { TonalVoice.syllable($0, seconds: 0.2) }
        try record(pack, "phrase_welcome", phrase)
        try expectBuilt(pack)
    }

    /// Two recordings swapped by mistake, each named as the recording the other token had in the base; a new
    /// recording, not.
    @Test func aSwapOfTwoRecordingsIsNamed() throws {
        let pack = TestPack()
        try Data(Self.settings.utf8).write(to: pack.url("assets.json"))
        for (index, (stem, token)) in Self.stems.enumerated() {
            let tone = try #require(Tone.citation(of: token))
            try Self.record(pack, stem, TonalVoice.syllable(tone, seconds: 0.3 + 0.01 * Double(index)))
        }
        try Self.expectBuilt(pack)
        try Self.git(pack.root, ["init", "-q"])
        try Self.git(pack.root, ["add", "-A"])
        try Self.git(pack.root, ["commit", "-q", "-m", "the pack"])
        let (one, five) = (pack.url("raw-audio/digit_1.wav"), pack.url("raw-audio/digit_5.wav"))
        let oneBytes = try Data(contentsOf: one)
        try Data(contentsOf: five).write(to: one)
        try oneBytes.write(to: five)
        try Self.record(pack, "digit_7", TonalVoice.syllable(.high, highHz: 240))
        try Self.expectBuilt(pack)

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.stdout.contains("  一  the recording 五 had: two files swapped, or one copied?\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  五  the recording 一 had: two files swapped, or one copied?\n"))
        #expect(text.stdout.contains("  七  a new recording\n"))
        let changed = try #require(
            try Self.json(InProcess.run(["diff", "--format", "json"], in: pack.root).stdout)[
                "changed"] as? [[String: Any]])
        // In reading order, not the manifest's (一 七 五).
        #expect(changed.map { $0["token"] as? String } == ["一", "五", "七"])
        let recordingOf = Dictionary(
            uniqueKeysWithValues: changed.map { ($0["token"] as? String ?? "", $0["recordingOf"] as? String) })
        #expect(recordingOf == ["一": "五", "五": "一", "七": nil])
    }

    /// A recording renamed (digit_5.wav to 五.wav) is the same recording: its fragment is made again (its file's
    /// name seeds its dither), no figure moves, and no amount is played for it.
    @Test func aRenamedRecordingIsSaidSoAndPlaysNoAmount() throws {
        let pack = try Self.committedPack()
        try FileManager.default.moveItem(at: pack.url("raw-audio/digit_5.wav"), to: pack.url("raw-audio/五.wav"))
        try Self.expectBuilt(pack)

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.stdout.hasPrefix("assets diff against HEAD: 1 changed, 0 added, 0 removed, 14 unchanged\n"))
        #expect(
            text.stdout.contains(
                "  五  the same recording, renamed from raw-audio/digit_5.wav: no figure moved, it sounds the same\n"),
            "\(text.stdout)")
        let diff = try Self.json(InProcess.run(["diff", "--format", "json"], in: pack.root).stdout)
        #expect((diff["utterances"] as? [Any])?.isEmpty == true)
    }

    /// Every single syllable re-recorded in another voice, 9 semitones lower, and the phrases left as they were
    /// — as a real app's refresh re-recorded its digits and units in another voice: the phrases, whose recordings
    /// did not change, now stand apart from the voice, and the diff says so (it counted them unchanged).
    @Test func recordingsLeftAsTheyWereAreComparedWithTheVoiceAfterTheRefresh() throws {
        let pack = TestPack()
        let settings =
            #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["decimal"], "maximumAmount": "999", "phrases": {"phrase_welcome": "欢迎光临", "phrase_thanks": "谢谢惠顾"}, "templates": {"welcome": "欢迎光临{amount}"}}"#
        try Data(settings.utf8).write(to: pack.url("assets.json"))
        let phrase = [Tone.high, .rising, .high, .rising].flatMap { TonalVoice.syllable($0, seconds: 0.2) }
        try Self.record(pack, "phrase_welcome", phrase)
        try Self.record(pack, "phrase_thanks", phrase.reversed())
        let lower = pow(2, -9.0 / 12)
        for voice in [1, lower] {
            for (stem, token) in Self.stems {
                let tone = try #require(Tone.citation(of: token))
                try Self.record(pack, stem, TonalVoice.syllable(tone, highHz: 220 * voice, formantScale: voice))
            }
            try Self.expectBuilt(pack)
            if voice == 1 {
                try Self.git(pack.root, ["init", "-q"])
                try Self.git(pack.root, ["add", "-A"])
                try Self.git(pack.root, ["commit", "-q", "-m", "the pack"])
            }
        }

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.stdout.hasPrefix("assets diff against HEAD: 15 changed, 0 added, 0 removed, 2 unchanged\n"))
        #expect(
            text.stdout.contains(
                """

                left as they were, compared with a voice that changed
                  欢迎光临  raw-audio/phrase_welcome.wav  matches the voice → stands apart: voice
                  谢谢惠顾  raw-audio/phrase_thanks.wav  matches the voice → stands apart: voice

                """), "\(text.stdout)")
        let diff = try Self.json(InProcess.run(["diff", "--format", "json"], in: pack.root).stdout)
        let rejudged = try #require(diff["rejudged"] as? [[String: String]])
        #expect(rejudged.map { $0["token"] } == ["欢迎光临", "谢谢惠顾"])
        #expect(rejudged.allSatisfy { $0["before"] == "matches the voice" && $0["after"] == "stands apart: voice" })
        // Left as they were, they now fail `check`: what the refresh brings, said before what it changed.
        #expect(
            text.stdout.contains(
                "\ncheck: ok → 2 problems (consistency/voice)\n\nnew findings\n"
                    + "  raw-audio/phrase_welcome.wav: error: [consistency/voice] 欢迎光临: another voice"),
            "\(text.stdout)")

        let markdown = InProcess.run(["diff", "--format", "markdown"], in: pack.root).stdout
        #expect(markdown.contains("### Left as they were, compared with a voice that changed\n"), "\(markdown)")
        #expect(
            markdown.contains("| 欢迎光临 | `raw-audio/phrase_welcome.wav` | matches the voice | stands apart: voice |"))
        // The page plays each, to be heard beside the voice that changed: its fragment as the pack has it.
        let review = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: review) }
        try FileManager.default.createDirectory(at: review, withIntermediateDirectories: true)
        let page = review.appendingPathComponent("diff.html")
        #expect(InProcess.run(["diff", "--format", "html", "--output", page.path], in: pack.root).status == 0)
        let html = try String(contentsOf: page, encoding: .utf8)
        let section = try #require(html.components(separatedBy: "<table id=\"rejudged\">").last)
        let rows = section.components(separatedBy: "</table>")[0]
        let players = rows.components(separatedBy: "<audio controls preload=\"metadata\" src=\"").dropFirst()
        #expect(players.count == 2, "\(rows)")
        let manifest = try pack.manifest()
        for (player, token) in zip(players, ["欢迎光临", "谢谢惠顾"]) {
            let source = String(player.prefix { $0 != "\"" })
            let fragment = try #require(manifest.fragments.first { $0.token == token })
            #expect(
                try Data(contentsOf: review.appendingPathComponent(source)) == Data(contentsOf: pack.url(fragment.file))
            )
        }

        // Accepted as it is, a recording is said to be accepted, not to match.
        let accepting = settings.dropLast() + #", "consistency": {"accept": ["raw-audio/phrase_welcome.wav"]}}"#
        try Data(accepting.utf8).write(to: pack.url("assets.json"))
        #expect(
            InProcess.run(["diff"], in: pack.root).stdout.contains(
                "  欢迎光临  raw-audio/phrase_welcome.wav  matches the voice → accepted (consistency.accept)\n"))
    }

    static func expectBuilt(_ pack: TestPack) throws {
        let result = InProcess.run(["build"], in: pack.root)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @discardableResult
    static func git(_ folder: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=test", "-c", "user.email=test@example.com"] + arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The refresh's JSON says `check` passed on the base and fails now, for the two findings the refresh brings: 九
    /// removed, which amounts up to 999 need, and 三 in another voice.
    static func expectCheckBeforeAndAfter(_ diff: [String: Any]) throws {
        let check = try #require(diff["check"] as? [String: Any])
        let before = try #require(check["before"] as? [String: Any])
        let after = try #require(check["after"] as? [String: Any])
        #expect(before["passed"] as? Bool == true && before["errors"] as? Int == 0, "\(before)")
        #expect(after["passed"] as? Bool == false && after["errors"] as? Int == 2, "\(after)")
        #expect(after["summary"] as? String == "2 problems (coverage/missing, consistency/voice)")
        let new = try #require(check["new"] as? [[String: Any]])
        #expect(
            new.map { "\($0["kind"] ?? "") \($0["subject"] ?? "")" } == ["missing 九", "voice raw-audio/digit_3.wav"])
        #expect((check["gone"] as? [Any])?.isEmpty == true)
    }

    /// Everything about the work tree and the repository that a diff must not change.
    static func state(_ pack: TestPack) throws -> String {
        try git(pack.root, ["status", "--porcelain", "--untracked-files=all"]) + git(pack.root, ["rev-parse", "HEAD"])
            + git(pack.root, ["stash", "list"])
    }

    /// Then its HTML plays files that exist, and a folder base says what the revision says.
    @Test func aRefreshIsNamedExactlyWithItsFiguresAndTheAmountsThatSayIt() throws {
        let pack = try Self.refreshedPack()
        let before = try Self.state(pack)
        let result = InProcess.run(["diff", "HEAD", "--format", "json"], in: pack.root)
        #expect(result.status == 0, "\(result.stderr)")
        let diff = try Self.json(result.stdout)
        #expect(diff["base"] as? String == "HEAD")
        let added = try #require(diff["added"] as? [[String: Any]])
        let removed = try #require(diff["removed"] as? [[String: Any]])
        let changed = try #require(diff["changed"] as? [[String: Any]])
        #expect(added.map { $0["token"] as? String } == ["欢迎光临"])
        #expect(removed.map { $0["token"] as? String } == ["九"])
        #expect(Set(changed.compactMap { $0["token"] as? String }) == ["三", "七"])
        #expect(diff["unchanged"] as? Int == Self.stems.count - 3)
        for change in changed {
            let token = change["token"] as? String
            #expect(change["sameTake"] as? Bool == (token == "七"), "\(token ?? "")")
            let figures = try #require(change["changes"] as? [[String: Any]])
            let names = Set(figures.compactMap { $0["name"] as? String })
            #expect(names.contains("recording"))
            if token == "七" { #expect(names.contains("gain"), "\(names)") }
            if token == "三" {
                #expect(names.contains("register"), "\(names)")
                let voice = try #require(figures.first { $0["name"] as? String == "voice" })
                #expect(voice["before"] as? String == "matches the voice")
                #expect((voice["after"] as? String)?.contains("voice") == true)
            }
            #expect((change["before"] as? [String: Any])?["fragment"] != nil)
            #expect((change["after"] as? [String: Any])?["fragment"] != nil)
        }
        let settings = try #require(diff["settings"] as? [[String: Any]])
        #expect(settings.map { $0["key"] as? String } == ["templates.welcome"])
        let utterances = try #require(diff["utterances"] as? [[String: Any]])
        #expect(!utterances.isEmpty)
        for utterance in utterances {
            let touched = Set(try #require(utterance["touched"] as? [String]))
            #expect(!touched.isDisjoint(with: ["三", "七", "九", "欢迎光临"]), "\(utterance)")
        }
        #expect(
            utterances.contains {
                ($0["touched"] as? [String])?.contains("九") == true
                    && ($0["after"] as? [String: Any])?["playable"] as? Bool == false
            })
        #expect(try Self.state(pack) == before, "diff changed the work tree or the repository")
        try Self.expectCheckBeforeAndAfter(diff)

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("assets diff against HEAD: 2 changed, 1 added, 1 removed, 12 unchanged\n"))
        #expect(text.stdout.contains("  七  the same take exported again\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  三  a new recording\n"))
        // Figures read to the precision they are compared to: the register in whole hertz, the gain in hundredths.
        let register = try #require(text.stdout.split(separator: "\n").first { $0.contains("register  ") })
        #expect(register.wholeMatch(of: /\s+register\s+\d+ Hz → \d+ Hz/) != nil, "\(register)")
        let gain = try #require(text.stdout.split(separator: "\n").first { $0.contains("gain  ") })
        #expect(gain.wholeMatch(of: /\s+gain\s+-?\d+\.\d\d dB → -?\d+\.\d\d dB/) != nil, "\(gain)")

        // The findings the refresh brings come before what changed, for a reviewer to read first.
        #expect(
            text.stdout.contains(
                "\ncheck: ok → 2 problems (coverage/missing, consistency/voice)\n\nnew findings\n"
                    + "  九: error: [coverage/missing] no fragment"),
            "\(text.stdout)")
        #expect(text.stdout.contains("\n  raw-audio/digit_3.wav: error: [consistency/voice] 三: another voice"))
        #expect(!text.stdout.contains("findings gone"))

        // On a pull request, an annotation for each finding the refresh brings: 九 is mended in assets.json (or by a
        // recording), 三 on its recording.
        let github = InProcess.run(["diff", "--format", "github"], in: pack.root, environment: [:])
        #expect(github.status == 0, "\(github.stderr)")
        let annotations = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(annotations.count == 2, "\(github.stdout)")
        #expect(annotations.first?.hasPrefix("::error file=assets.json,title=coverage/missing::九: no fragment") == true)
        #expect(
            annotations.last?.hasPrefix("::error file=raw-audio/digit_3.wav,title=consistency/voice::三: another voice")
                == true)
        #expect(
            github.stdout.hasSuffix(
                "\ncheck: ok → 2 problems (coverage/missing, consistency/voice)\n"))

        let markdown = InProcess.run(["diff", "--format", "markdown"], in: pack.root)
        #expect(markdown.stdout.contains("\nCheck: ok → 2 problems"))
        #expect(markdown.stdout.contains("### New findings\n\n| severity | kind | about | finding |\n"))
        #expect(markdown.stdout.contains("| error | coverage/missing | 九 | no fragment"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("| token | what changed | before | after |\n| --- | --- | --- | --- |\n"))
        #expect(markdown.stdout.contains("| 三 | **a new recording** |"))
        #expect(markdown.stdout.contains("### Removed") && markdown.stdout.contains("| 九 |"))
        #expect(!markdown.stdout.contains("diff-sounds") && !markdown.stdout.contains(pack.root.path))

        // One pack for the rest too: each build of it costs the sanitizer runs a minute.
        try htmlPlaysFilesThatExistAndAFolderBaseSaysWhatTheRevisionSays(pack)
    }

    func htmlPlaysFilesThatExistAndAFolderBaseSaysWhatTheRevisionSays(_ pack: TestPack) throws {
        let review = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: review, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: review) }

        let page = review.appendingPathComponent("diff.html")
        let result = InProcess.run(["diff", "--format", "html", "--output", page.path], in: pack.root)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let sources = html.components(separatedBy: "src=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        // Two players for each changed fragment, one for the added and the removed, two for each amount.
        #expect(sources.count >= 2 * 2 + 2 + 2, "\(sources)")
        for source in sources {
            #expect(FileManager.default.fileExists(atPath: review.appendingPathComponent(String(source)).path))
        }
        #expect(html.contains("<svg class=\"wave\""))

        let base = review.appendingPathComponent("base")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let archive = review.appendingPathComponent("base.tar")
        try Self.git(pack.root, ["archive", "--output", archive.path, "HEAD"])
        let untar = Process()
        untar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        untar.arguments = ["tar", "-xf", archive.path, "-C", base.path]
        try untar.run()
        untar.waitUntilExit()
        let fromRevision = InProcess.run(["diff", "HEAD", "--format", "json"], in: pack.root)
        let fromFolder = InProcess.run(["diff", base.path, "--format", "json"], in: pack.root)
        #expect(fromFolder.status == 0, "\(fromFolder.stderr)")
        #expect(
            fromFolder.stdout.replacingOccurrences(of: "\"base\":\"\(base.path)\"", with: "\"base\":\"HEAD\"")
                == fromRevision.stdout)

        // The revision's fragments that the work tree holds as they are are read from there; one damaged since is
        // read as the revision holds it. 元 ends every amount: each plays as it was, none as it is.
        let yuan = try #require(
            try FileManager.default.contentsOfDirectory(atPath: pack.url("normalized").path).first {
                $0.hasPrefix("unit_yuan")
            })
        try Data(repeating: 0, count: 64).write(to: pack.url("normalized/\(yuan)"))
        let damaged = InProcess.run(["diff", "HEAD", "--format", "json"], in: pack.root)
        let utterances = try #require(try Self.json(damaged.stdout)["utterances"] as? [[String: Any]])
        let sides = utterances.map { ($0["before"] as? [String: Any], $0["after"] as? [String: Any]) }
        // Every amount the base can say (not the new phrase's) plays as it was.
        let baseSays = sides.filter { ($0.0?["problem"] as? String)?.hasPrefix("no fragment for 欢迎光临") != true }
        #expect(baseSays.count >= 2, "\(utterances)")
        #expect(baseSays.allSatisfy { $0.0?["playable"] as? Bool == true }, "\(utterances)")
        #expect(sides.allSatisfy { $0.1?["playable"] as? Bool == false }, "\(utterances)")
    }

    /// A pack in a folder of a larger repository (an app's, say `VoicePack/`) is compared with a revision: the
    /// revision's files are named from the repository's top, where git reads them.
    @Test func aPackInAFolderOfItsRepositoryIsComparedWithARevision() throws {
        let repository = TestPack()
        for (stem, token) in Self.stems.prefix(4) {
            try Self.record(repository, stem, TonalVoice.syllable(try #require(Tone.citation(of: token))))
        }
        let pack = repository.url("VoicePack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: repository.url("raw-audio"), to: pack.appendingPathComponent("raw-audio"))
        #expect(InProcess.run(["build"], in: pack).status == 0)
        try Self.git(repository.root, ["init", "-q"])
        try Self.git(repository.root, ["add", "-A"])
        try Self.git(repository.root, ["commit", "-q", "-m", "the app and its voice"])
        let (one, two) = (
            pack.appendingPathComponent("raw-audio/digit_1.wav"), pack.appendingPathComponent("raw-audio/digit_2.wav")
        )
        try Data(contentsOf: two).write(to: one)
        #expect(InProcess.run(["build"], in: pack).status == 0)

        let diff = InProcess.run(["diff", "HEAD"], in: pack)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(
            diff.stdout.hasPrefix("assets diff against HEAD: 1 changed, 0 added, 0 removed, 3 unchanged\n"),
            "\(diff.stdout)")
        #expect(diff.stdout.contains("  一  the recording 二 had: two files swapped, or one copied?\n"), "\(diff.stdout)")
    }

    @Test func badBasesExitTwoNamingTheProblemAndWriteNothing() throws {
        let loose = TestPack()
        try Data(Self.settings.utf8).write(to: loose.url("assets.json"))
        try Self.record(loose, "digit_1", TonalVoice.syllable(.high))
        try Self.expectBuilt(loose)
        let outside = InProcess.run(["diff"], in: loose.root)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("HEAD: no such folder") && outside.stderr.contains("not in a git repository"))

        try Self.git(loose.root, ["init", "-q"])
        try Self.git(loose.root, ["commit", "-q", "--allow-empty", "-m", "nothing yet"])
        let empty = try Self.git(loose.root, ["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        try Self.git(loose.root, ["add", "-A"])
        try Self.git(loose.root, ["commit", "-q", "-m", "the pack"])
        let before = try Self.state(loose)

        let unknown = InProcess.run(["diff", "no-such-branch"], in: loose.root)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no-such-branch: not a folder and not a revision"), "\(unknown.stderr)")
        let withoutPack = InProcess.run(["diff", empty], in: loose.root)
        #expect(withoutPack.status == 2)
        #expect(withoutPack.stderr.contains("\(empty): has no manifest.json"), "\(withoutPack.stderr)")
        #expect(try Self.state(loose) == before)

        let same = InProcess.run(["diff"], in: loose.root)
        #expect(same.status == 0)
        #expect(
            same.stdout
                == "assets diff against HEAD: 0 changed, 0 added, 0 removed, 1 unchanged\n"
                + "check: 14 problems (coverage/missing) → 14 problems (coverage/missing)\n"
                + "no fragment or setting changed\n")
        // A recording changed and not built since: the manifests say nothing changed, the diff says it is stale.
        try Self.record(loose, "digit_1", TonalVoice.syllable(.high, highHz: 240))
        let stale = InProcess.run(["diff"], in: loose.root)
        #expect(stale.status == 0)
        #expect(
            stale.stdout
                == "assets diff against HEAD: 0 changed, 0 added, 0 removed, 1 unchanged\n"
                + "check: 14 problems (coverage/missing) → 15 problems (coverage/missing 14, stale/recording)\n\n"
                + "new findings\n  raw-audio/digit_1.wav: error: [stale/recording] stale pack: the recording changed "
                + "since the build: run `assets build`\nno fragment or setting changed\n", "\(stale.stdout)")
        let html = InProcess.run(["diff", "--format", "html"], in: loose.root)
        #expect(html.status == 2 && html.stderr.contains("--format html needs --output FILE"))
    }

    /// A refresh whose new recording has a click 400 ms before the word: the diff names what `check` hears wrong
    /// with the recording, before and after, so a reviewer need not run `check` to see it.
    @Test func aRecordingProblemARefreshBringsIsInTheDiff() throws {
        let pack = try Self.committedPack()
        var clicked = TonalVoice.recording(TonalVoice.syllable(.low), lead: 0.5)
        for index in 0..<40 { clicked[4_410 + index] += 0.5 * Float(sin(Double.pi * Double(index) / 40)) }
        try pack.write(
            "digit_5.wav", channels: [clicked], rate: 44_100, format: FileFormat(container: "wav", encoding: "pcm16"))
        try Self.expectBuilt(pack)

        let result = InProcess.run(["diff", "--format", "json"], in: pack.root)
        #expect(result.status == 0, "\(result.stderr)")
        let changed = try #require(try Self.json(result.stdout)["changed"] as? [[String: Any]])
        let five = try #require(changed.first { $0["token"] as? String == "五" })
        let figures = try #require(five["changes"] as? [[String: Any]])
        let problems = try #require(figures.first { $0["name"] as? String == "recording problems" })
        #expect(problems["before"] as? String == "none")
        #expect(problems["after"] as? String == "a sound apart from its voice", "\(problems)")
        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.stdout.contains("none → a sound apart from its voice"), "\(text.stdout)")
    }

    /// A refresh that delivers one recording another way than the rest (the same take as 24-bit FLAC among
    /// 16-bit WAVs) is said so, beside its voice matching, in `diff` and in `audit`: a reviewer listens to it
    /// beside the rest.
    @Test func aRecordingDeliveredApartIsSaidSo() throws {
        let pack = try Self.committedPack()
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_5.wav"))
        try pack.write(
            "digit_5.flac", channels: [TonalVoice.recording(TonalVoice.syllable(.low))], rate: 44_100,
            format: FileFormat(container: "flac", encoding: "pcm24"))
        try Self.expectBuilt(pack)

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("matches the voice → matches the voice, delivered apart from the rest"),
            "\(text.stdout)")
        #expect(text.stdout.contains("recording format  wav/pcm16 → flac/pcm24"), "\(text.stdout)")
        // The audit says it too, and what the voice's typical values were taken over.
        let audit = InProcess.run(["audit"], in: pack.root).stdout
        #expect(
            audit.contains("every fragment matches the pack's voice, 1 recording delivered apart from the rest"),
            "\(audit)")
        #expect(audit.contains("median of the 14 of 15 delivered as wav/pcm16, 44100 Hz"), "\(audit)")
        let json = try Self.json(InProcess.run(["audit", "--format", "json"], in: pack.root).stdout)
        let voices = try #require(json["voices"] as? [String: Any])
        let usual = try #require((voices["typical"] as? [String: Any])?["delivery"] as? [String: Any])
        #expect(usual["way"] as? String == "wav/pcm16, 44100 Hz" && usual["recordings"] as? Int == 14)
        #expect(usual["total"] as? Int == 15)
        let odd = try #require(voices["odd"] as? [[String: Any]])
        #expect(odd.map { $0["kind"] as? String } == ["delivery"] && odd.first?["token"] as? String == "五")
    }

    /// A refreshed recording whose pitch could not be measured (reported when `consistency.reportUnmeasured`
    /// asks) is not said to stand apart from the voice, nor to match it.
    @Test func anUnmeasuredPitchIsNotCalledAnotherVoice() throws {
        let pack = try Self.committedPack()
        try Data(
            #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["decimal"], "maximumAmount": "999", "consistency": {"reportUnmeasured": true}}"#
                .utf8
        ).write(to: pack.url("assets.json"))
        try Self.record(pack, "digit_6", TonalVoice.syllable(.falling).map { $0 * 0.5 })
        try Self.expectBuilt(pack)
        var manifest = try pack.manifest()
        let index = try #require(manifest.fragments.firstIndex { $0.token == "六" })
        manifest.fragments[index].analysis?.pitchRegisterHz = nil
        manifest.fragments[index].analysis?.pitchMedianHz = nil
        try manifest.canonicalData().write(to: pack.url("manifest.json"))

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(text.stdout.contains("matches the voice → no pitch measured, no other difference"), "\(text.stdout)")
    }

    /// `consistency.accept` names a file: a new recording under an accepted name (another voice, 330 Hz and its
    /// formants 35 % higher) is compared with nothing, and the diff says so where the verdict would read the same.
    @Test func aNewRecordingUnderAnAcceptedNameIsSaidToBeComparedWithNothing() throws {
        let pack = try Self.committedPack()
        try Self.accepting(pack, #""raw-audio/digit_3.wav""#)
        try Self.git(pack.root, ["commit", "-q", "-am", "三 heard and accepted"])
        try Self.record(pack, "digit_3", TonalVoice.syllable(.high, highHz: 330, formantScale: 1.35))
        try Self.expectBuilt(pack)

        let text = InProcess.run(["diff"], in: pack.root)
        #expect(
            text.stdout.contains(
                "voice      accepted (consistency.accept) → accepted by its name (consistency.accept): a new recording, compared with nothing: listen to it"
            ), "\(text.stdout)")
        // The same take exported again stays accepted without a word.
        try Self.git(pack.root, ["commit", "-q", "-am", "another 三"])
        try Self.record(pack, "digit_3", TonalVoice.syllable(.high, highHz: 330, formantScale: 1.35).map { $0 * 0.5 })
        try Self.expectBuilt(pack)
        let again = InProcess.run(["diff"], in: pack.root).stdout
        #expect(again.contains("the same take exported again") && !again.contains("compared with nothing"), "\(again)")
    }

    /// An acceptance pinned to a take accepts that take only: a new recording under the name is compared with the
    /// voice, and the diff gives its verdict.
    @Test func aNewRecordingUnderAPinnedAcceptanceIsCompared() throws {
        let pack = try Self.committedPack()
        try Self.record(pack, "digit_3", TonalVoice.syllable(.high, highHz: 330, formantScale: 1.35))
        try Self.expectBuilt(pack)
        let take = try #require(try pack.manifest().fragments.first { $0.token == "三" }?.source.sha256)
        try Self.accepting(pack, #"{"recording": "raw-audio/digit_3.wav", "sha256": "\#(take.prefix(12))"}"#)
        try Self.git(pack.root, ["commit", "-q", "-am", "三 heard and accepted, this take"])
        try Self.record(pack, "digit_3", TonalVoice.syllable(.high, highHz: 120, formantScale: 0.8))
        try Self.expectBuilt(pack)

        let text = InProcess.run(["diff"], in: pack.root).stdout
        #expect(
            text.contains("voice      accepted (consistency.accept) → stands apart: voice")
                && !text.contains("compared with nothing"), "\(text)")
    }

    /// The test pack's settings with `entry` under `consistency.accept`, built.
    static func accepting(_ pack: TestPack, _ entry: String) throws {
        try Data(
            #"{"schemaVersion": 1, "styles": ["spoken"], "forms": ["decimal"], "maximumAmount": "999", "consistency": {"accept": [\#(entry)]}}"#
                .utf8
        ).write(to: pack.url("assets.json"))
        try expectBuilt(pack)
    }
}
