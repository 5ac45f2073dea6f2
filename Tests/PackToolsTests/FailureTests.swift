import AudioPipeline
import Foundation
import TestSupport
import Testing
import VoicePack

@testable import PackTools

/// Bad recordings fail the build with a message naming the file, the problem and the fix; every
/// failure is listed, and the pack stays byte for byte as it was.
@Suite struct FailureTests {
    static func goodPack() throws -> TestPack {
        let pack = TestPack()
        try pack.deliver("digit_1.wav")
        try pack.deliver("digit_2.flac", .init(container: "flac", encoding: "pcm24"))
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty)
        return pack
    }

    /// A new recording for a token that already has one is started early (two jobs, one moved recording)
    /// before the naming finds two files for the token: the build fails, and the early fragment goes with
    /// the staging folder.
    @Test func anEarlyStartedFragmentOfAFailedBuildIsLeftNowhere() throws {
        let pack = try Self.goodPack()
        let before = pack.snapshot()
        try pack.deliver("一.wav", .init(levelDB: -12))
        let outcome = try pack.build(jobs: 2)
        #expect(outcome.built.isEmpty && !outcome.manifestWritten)
        #expect(outcome.failures.map(\.description).contains { $0.contains("2 files for the token 一") })
        #expect(pack.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: pack.paths.staging.path))
    }

    @Test func everyBadRecordingIsNamedAndThePackIsUntouched() throws {
        let pack = try Self.goodPack()
        let before = pack.snapshot()

        // A good new recording and a changed one: processed, but not committed, because others fail.
        try pack.deliver("digit_3.aiff", .init(container: "aiff", encoding: "pcm16"))
        try pack.deliver("digit_1.wav", .init(levelDB: -12))
        try pack.writeBytes(
            "digit_4.m4a", Data([0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [UInt8](repeating: 7, count: 500)))
        try pack.writeBytes("digit_5.wav", Data())
        try pack.writeBytes("digit_6.flac", Data("this is a text file, not a recording\n".utf8))
        try pack.write(
            "digit_7.wav", channels: [[Float](repeating: 0, count: 44_100)], rate: 44_100,
            format: FileFormat(container: "wav", encoding: "pcm16"))
        try pack.write(
            "digit_8.wav", channels: [[0.1, .nan, 0.2] + [Float](repeating: 0.1, count: 1000)], rate: 44_100,
            format: FileFormat(container: "wav", encoding: "float32"))
        try pack.write(
            "digit_9.wav", channels: [[Float](repeating: 0.1, count: 500) + [.infinity]], rate: 44_100,
            format: FileFormat(container: "wav", encoding: "float32"))
        try pack.deliver("unit_shi.wav", .init(levelDB: -60, noiseBelowDB: 30))
        try pack.deliver("unit_bai.wav")
        let whole = try Data(contentsOf: pack.url("raw-audio/unit_bai.wav"))
        try pack.writeBytes("unit_bai.wav", whole.prefix(whole.count / 2))

        let outcome = try pack.build()
        let byFile = Dictionary(grouping: outcome.failures, by: { ($0.subject.text as NSString).lastPathComponent })
        func expectFailure(_ file: String, _ fragments: String...) {
            let messages = byFile[file]?.map(\.description) ?? []
            #expect(messages.count == 1, "\(file): \(messages)")
            for fragment in fragments {
                #expect(messages.first?.contains(fragment) == true, "\(file): \(messages) lacks '\(fragment)'")
            }
        }
        expectFailure("digit_4.m4a", "neither libsndfile", "nor FFmpeg", "export it again")
        expectFailure("digit_5.wav", "it is empty (0 bytes)", "copy or export it again")
        expectFailure("digit_6.flac", "neither libsndfile", "nor FFmpeg (it has no audio stream", "export it again")
        expectFailure("digit_7.wav", "silent")
        expectFailure("digit_8.wav", "nan", "export it again")
        expectFailure("digit_9.wav", "inf", "export it again")
        expectFailure("unit_shi.wav", "dB of gain", "record it louder")
        expectFailure("unit_bai.wav", "truncated", "holds")
        #expect(outcome.failures.count == 8)
        #expect(outcome.built.isEmpty)
        #expect(pack.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: pack.paths.staging.path))

        // Once the bad recordings are gone, the good ones go in.
        for name in [
            "digit_4.m4a", "digit_5.wav", "digit_6.flac", "digit_7.wav", "digit_8.wav", "digit_9.wav", "unit_shi.wav",
            "unit_bai.wav",
        ] {
            try FileManager.default.removeItem(at: pack.url("raw-audio/\(name)"))
        }
        let fixed = try pack.build()
        #expect(fixed.failures.isEmpty)
        #expect(Set(fixed.built) == ["一", "三"])
    }

    @Test func aFileLongerThanTheLimitIsRefusedBeforeDecoding() throws {
        let pack = try Self.goodPack()
        pack.settings.limits.maximumSourceSeconds = 2
        try pack.deliver("digit_3.wav", .init(leadSeconds: 1, trailSeconds: 2))
        let outcome = try pack.build()
        #expect(outcome.failures.map(\.message) == ["it is 3.4 s long, which is not a fragment"])
        #expect(outcome.failures.first?.fix.contains("maximumSourceSeconds") == true, "\(outcome.failures)")
    }

    /// A copy or another take beside the recording it copies, as a file manager names one, and a misspelt name
    /// for a token that already has a recording: the fix is to keep one take, not to rename it into a second.
    @Test func aCopyBesideItsRecordingIsSaidToBeOne() throws {
        let pack = try Self.goodPack()
        try pack.deliver("digit_1 copy.wav")
        try pack.deliver("digit_2 (1).flac", .init(container: "flac", encoding: "pcm16"))
        try pack.deliver("Digit_1.WAV")
        pack.settings.stems = ["tts_ten": "十"]
        try pack.deliver("tts_ten.wav")
        try pack.deliver("tts_ten_thousand.wav")
        try pack.deliver("tts_ten-old.wav")
        // A take whose recording is not there (a download saved twice, the first one deleted) is that recording.
        try pack.deliver("digit_4 (2).wav")
        try pack.deliver("三.wav")
        try pack.deliver("digit_3-new.wav")
        // A version after an underscore, and brackets as a Chinese input method writes them, mark a take too; a
        // name as near two digits' stems suggests neither: a wrong guess would make the pack say another number.
        try pack.deliver("digit_6.wav")
        try pack.deliver("digit_8.wav")
        try pack.deliver("digit_6_v2.wav")
        try pack.deliver("digit_8（1）.wav")
        try pack.deliver("digit_6v2.wav")
        let messages = try pack.build().failures.map(\.description)
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "raw-audio/digit_6_v2.wav: error: [naming/unnamed] 'digit_6_v2' names no token; it reads as another take of raw-audio/digit_6.wav (六)"
                )
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "raw-audio/digit_8（1）.wav: error: [naming/unnamed] 'digit_8（1）' names no token; it reads as another take of raw-audio/digit_8.wav (八)"
                )
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("raw-audio/digit_6v2.wav: error: [naming/unnamed] 'digit_6v2' names no token: rename")
            },
            "\(messages)")
        #expect(
            messages.contains(
                "raw-audio/digit_4 (2).wav: error: [naming/unnamed] 'digit_4 (2)' names no token; it reads as a take of digit_4 (四): rename it to digit_4.wav"
            ), "\(messages)")
        #expect(
            messages.contains(
                "raw-audio/digit_3-new.wav: error: [naming/unnamed] 'digit_3-new' names no token; it reads as a take of digit_3 (三): raw-audio/三.wav already says 三: keep the take you want, named 三.wav, and remove the other or move it out of raw-audio/"
            ), "\(messages)")
        let keep = "keep the take you want, named digit_1.wav, and remove the other or move it out of raw-audio/"
        #expect(
            messages.contains(
                "raw-audio/digit_1 copy.wav: error: [naming/unnamed] 'digit_1 copy' names no token; it reads as another take of raw-audio/digit_1.wav (一): \(keep)"
            ), "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "raw-audio/digit_2 (1).flac: error: [naming/unnamed] 'digit_2 (1)' names no token; it reads as another take of raw-audio/digit_2.flac (二): keep the take you want, named digit_2.flac"
                )
            })
        #expect(
            messages.contains(
                "raw-audio/Digit_1.WAV: error: [naming/unnamed] 'Digit_1' names no token (did you mean 'digit_1', for 一?): raw-audio/digit_1.wav already says 一: \(keep)"
            ))
        // An underscore goes on naming: tts_ten_thousand is 万, not another take of tts_ten; tts_ten-old is one.
        #expect(
            messages.contains {
                $0.contains("'tts_ten-old' names no token; it reads as another take of raw-audio/tts_ten.wav (十)")
            })
        #expect(
            messages.contains { $0.contains("'tts_ten_thousand' names no token; its name reads as 万") }, "\(messages)")
    }

    @Test func namingProblemsNameTheFiles() throws {
        let pack = try Self.goodPack()
        let before = pack.snapshot()
        try pack.deliver("hello.wav")
        try pack.deliver("一.flac", .init(container: "flac", encoding: "pcm16"))
        try pack.deliver("digt_4.wav")
        try pack.deliver("UNIT_YUAN.WAV")
        let outcome = try pack.build()
        let messages = outcome.failures.map(\.description)
        #expect(
            messages.contains {
                $0.contains("hello.wav") && $0.contains("'hello' names no token") && $0.contains("stems")
            })
        // A stem near a known one: the rename is the fix.
        #expect(
            messages.contains(
                "raw-audio/digt_4.wav: error: [naming/unnamed] 'digt_4' names no token (did you mean 'digit_4', for 四?): rename it to digit_4.wav"
            ))
        #expect(
            messages.contains(
                "raw-audio/UNIT_YUAN.WAV: error: [naming/unnamed] 'UNIT_YUAN' names no token (did you mean 'unit_yuan', for 元?): rename it to unit_yuan.WAV"
            ))
        #expect(
            messages.contains {
                $0.contains("digit_1.wav") && $0.contains("一.flac") && $0.contains("2 files for the token 一")
            })
        #expect(pack.snapshot() == before)
    }

    @Test func tokenNamedFilesDocumentsAndHiddenFiles() throws {
        let pack = TestPack()
        pack.settings.phrases = ["café": "咖啡"]
        try pack.deliver("億.wav")
        try pack.deliver("cafe\u{301}.wav")  // NFD, as macOS names it
        try pack.writeBytes(".DS_Store", Data([0, 1, 2]))
        try pack.writeBytes("README.txt", Data("notes".utf8))
        try FileManager.default.createDirectory(at: pack.url("raw-audio/units"), withIntermediateDirectories: true)
        try pack.write(
            "units/unit_yuan.wav",
            channels: [
                Signals.syllable(
                    vowelRMS: 0.1, fricativeBelowDB: 30, fricativeSeconds: 0.05, vowelSeconds: 0.3, rate: 44_100)
            ], rate: 44_100, format: FileFormat(container: "wav", encoding: "pcm16"))
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(Set(outcome.skipped) == ["raw-audio/.DS_Store", "raw-audio/README.txt"])
        let manifest = try pack.manifest()
        #expect(
            manifest.fragments.map(\.token)
                == ["億", "元", "咖啡"].sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) })
        #expect(manifest.fragments.contains { $0.token == "咖啡" && $0.file == "normalized/caf\u{E9}.wav" })
        #expect(manifest.fragments.contains { $0.token == "元" && $0.source.file == "raw-audio/units/unit_yuan.wav" })
    }

    /// Names split into stem and extension as NSString splits them, without bridging each one.
    @Test func fileNamesSplitAtTheirLastDot() {
        for name in [
            "digit_1.wav", "a.b.wav", "file.", ".hidden", "noext", "..wav", "a..wav", "億.FLAC", "cafe\u{301}.wav",
        ] {
            let split = SourceScanner.split(name)
            #expect(split.stem == (name as NSString).deletingPathExtension, "\(name)")
            #expect(split.pathExtension == (name as NSString).pathExtension, "\(name)")
        }
    }
}

/// The rest of the bad-input suite: broken, odd and hostile deliveries, each named in one line.
@Suite struct BadInputTests {
    @Test func brokenAndHostileFilesAreEachNamedAndThePackIsUntouched() throws {
        let pack = try FailureTests.goodPack()
        let before = pack.snapshot()
        let good = try Data(contentsOf: pack.url("raw-audio/digit_1.wav"))
        try pack.writeBytes("digit_3.wav", good.prefix(20))  // a header cut short
        var random = SeededRandom(seed: 4_096)
        try pack.writeBytes("digit_4.wav", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }))
        try pack.write(
            "digit_5.wav", channels: [[0.5]], rate: 44_100, format: FileFormat(container: "wav", encoding: "pcm16"))
        try FileManager.default.createSymbolicLink(
            atPath: pack.url("raw-audio/digit_6.wav").path, withDestinationPath: pack.url("raw-audio/digit_6.wav").path)
        try pack.deliver("caf\u{E9}.wav")
        try pack.deliver("cafe\u{301}.wav")  // the same name in NFD
        pack.settings.phrases = ["café": "咖啡"]
        // An hour at 8 kHz: refused from its header, never decoded whole.
        try pack.write(
            "digit_7.wav", channels: [[Float](repeating: 0.01, count: 3600 * 8000)], rate: 8000,
            format: FileFormat(container: "wav", encoding: "pcmu8"))

        let outcome = try pack.build()
        let messages = outcome.failures.map(\.description)
        func expectOne(_ file: String, _ fragments: String...) {
            let lines = messages.filter { $0.contains(file) }
            #expect(lines.count == 1, "\(file): \(lines)")
            for fragment in fragments {
                #expect(lines.first?.contains(fragment) == true, "\(file): \(lines) lacks '\(fragment)'")
            }
        }
        expectOne("digit_3.wav", "neither libsndfile (Error in WAV", "nor FFmpeg", "export it again as WAV, FLAC")
        expectOne("digit_4.wav", "neither libsndfile (Format not recognised.) nor FFmpeg")
        expectOne("digit_5.wav", "too short to be a fragment", "record")
        expectOne("digit_6.wav", "cannot be read (Too many levels of symbolic links)", "point the link at a recording")
        expectOne("digit_7.wav", "it is 60 min 0 s long, which is not a fragment", "maximumSourceSeconds")
        #expect(
            messages.contains {
                $0.contains("caf\u{E9}.wav") && $0.contains("cafe\u{301}.wav")
                    && $0.contains("2 files for the token 咖啡")
            })
        #expect(outcome.failures.count == 6)
        #expect(outcome.processed <= 4, "only the readable recordings are decoded")
        #expect(pack.snapshot() == before)
    }

    /// A recording cut in half, as a copy or a download that stopped leaves it, is refused as truncated in each
    /// container libsndfile reads. A Vorbis stream's length is its last Ogg page's, so a cut one was said to be
    /// "3485779303422 min 3 s long, which is not a fragment"; a Wave64 file notes its short size only on its riff
    /// chunk, and was built from its first half; a FLAC decoder that loses its sync where the file stops said only
    /// that reading failed, and to export the FLAC "again as WAV or FLAC"; libsndfile called a CAF's cut audio
    /// chunk "malformed", and FFmpeg then read it to the cut.
    @Test(arguments: [
        ("ogg", "vorbis", "it is truncated: its last Ogg page, which ends the stream and gives its length, is missing"),
        ("w64", "pcm16", "it is truncated: the header promises "),
        ("flac", "pcm16", "it is cut short or damaged: reading stopped after 16384 of the "),
        ("aiff", "pcm16", "it is truncated: the header promises "),
        ("caf", "pcm16", "it is truncated: its audio (data chunk) promises "),
    ])
    func aRecordingCutInHalfIsSaidToBeTruncated(container: String, encoding: String, said: String) throws {
        let pack = TestPack()
        let name = "digit_1.\(container)"
        try pack.deliver(name, .init(container: container, encoding: encoding))
        let whole = try Data(contentsOf: pack.url("raw-audio/\(name)"))
        try pack.writeBytes(name, whole.prefix(whole.count / 2))
        let messages = try pack.build().failures.map(\.description)
        #expect(messages.count == 1, "\(messages)")
        let message = try #require(messages.first)
        #expect(message.hasPrefix("raw-audio/\(name): error: [audio/unreadable] \(said)"), "\(message)")
        #expect(message.hasSuffix("copy or export it again"), "\(message)")
    }

    /// A WAV written as a stream (ffmpeg writing to a pipe, a speech service's HTTP answer) cannot go back to
    /// fill in its sizes, so its RIFF and data sizes read 0xFFFFFFFF: "length unknown", not a promise. It is read to
    /// its end, as libsndfile and FFmpeg read it; it was refused as "truncated: the header promises 4294967295 bytes".
    @Test func aWAVWrittenAsAStreamIsReadToItsEndAndOneNeverFinishedIsSaidToBe() throws {
        let pack = TestPack()
        try pack.deliver("digit_1.wav")
        let path = pack.url("raw-audio/digit_1.wav").path
        let frames = try SoundFile.open(reading: path, name: "digit_1.wav").info.frames
        var bytes = try Data(contentsOf: pack.url("raw-audio/digit_1.wav"))
        let unknown = Data(repeating: 0xFF, count: 4)
        bytes.replaceSubrange(4..<8, with: unknown)
        let data = try #require(bytes.range(of: Data("data".utf8)))
        bytes.replaceSubrange(data.upperBound..<(data.upperBound + 4), with: unknown)
        try pack.writeBytes("digit_1.wav", bytes)
        let streamed = try pack.build()
        #expect(streamed.failures.isEmpty, "\(streamed.failures)")
        #expect(try pack.manifest().fragments.first?.source.frames == frames)
        // A header never finished (a recorder stopped before it closed the file) says 0 bytes, and is refused so.
        try pack.deliver("digit_2.wav")
        var unfinished = try Data(contentsOf: pack.url("raw-audio/digit_2.wav"))
        let audio = try #require(unfinished.range(of: Data("data".utf8))).upperBound + 4
        unfinished.replaceSubrange(4..<8, with: Data(count: 4))
        unfinished.replaceSubrange((audio - 4)..<audio, with: Data(count: 4))
        try pack.writeBytes("digit_2.wav", unfinished)
        #expect(
            try pack.build().failures.map(\.description) == [
                "raw-audio/digit_2.wav: error: [audio/unreadable] its header says it holds no audio, and \(unfinished.count - audio)"
                    + " bytes follow it: the program that wrote it stopped before it closed the file: export it again"
            ])
    }

    /// Odd but real deliveries are built, not refused: 384 kHz, eight channels.
    @Test func unusualButValidDeliveriesAreBuilt() throws {
        let pack = TestPack()
        try pack.deliver("digit_1.wav", .init(container: "wav", encoding: "pcm24", rate: 384_000))
        try pack.deliver("digit_2.wav", .init(layout: "six-channels"))
        var eight = [[Float]]()
        let voice = Signals.syllable(
            vowelRMS: 0.1, fricativeBelowDB: 30, fricativeSeconds: 0.05, vowelSeconds: 0.3, rate: 44_100)
        let padded = [Float](repeating: 0, count: 8820) + voice + [Float](repeating: 0, count: 8820)
        for channel in 0..<8 { eight.append(padded.map { $0 * Float(1 - 0.05 * Double(channel)) }) }
        try pack.write(
            "digit_3.wav", channels: eight, rate: 44_100, format: FileFormat(container: "wav", encoding: "float32"))
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let manifest = try pack.manifest()
        #expect(manifest.fragments.map(\.source.sampleRate).sorted() == [44_100, 44_100, 384_000])
        let eightChannels = try #require(manifest.fragments.first { $0.source.channels == 8 })
        #expect(eightChannels.source.channelDecision == "mixed channels 1+2+3+4+5+6+7+8")
        #expect(eightChannels.warnings.contains { $0.contains("8 channels") })
        #expect(manifest.fragments.allSatisfy { abs($0.loudnessPhon - Settings.Loudness().targetPhon) <= 0.1 })
    }
}
