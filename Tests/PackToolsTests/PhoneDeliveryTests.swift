import AudioPipeline
import Foundation
import TestSupport
import Testing

@testable import PackTools

/// Phone deliveries (`scripts/delivery-fixtures`): AAC and ALAC in .m4a, read through FFmpeg where libsndfile
/// cannot, built like any other recording.
@Suite struct PhoneDeliveryTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func deliver(_ fixture: String, as name: String, to pack: TestPack) throws {
        try pack.writeBytes(name, Data(contentsOf: fixtures.appendingPathComponent(fixture)))
    }

    @Test func aacAndAlacBuildToFragmentsInSpec() throws {
        let pack = TestPack()
        try Self.deliver("voice-aac-48k-mono.m4a", as: "digit_1.m4a", to: pack)
        try Self.deliver("voice-aac-44k-stereo.m4a", as: "digit_2.m4a", to: pack)
        try Self.deliver("voice-alac.m4a", as: "digit_3.m4a", to: pack)
        try Self.deliver("voice.wav", as: "digit_4.wav", to: pack)
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let manifest = try pack.manifest()
        let byToken = Dictionary(uniqueKeysWithValues: manifest.fragments.map { ($0.token, $0) })
        #expect(byToken["一"]?.source.format == "mp4/aac")
        #expect(byToken["一"]?.source.sampleRate == 48_000 && byToken["一"]?.source.channels == 1)
        #expect(byToken["二"]?.source.format == "mp4/aac")
        #expect(byToken["二"]?.source.sampleRate == 44_100 && byToken["二"]?.source.channels == 2)
        #expect(byToken["三"]?.source.format == "mp4/alac")
        let target = pack.settings.loudness.targetPhon
        for fragment in manifest.fragments {
            let file = try SoundFile.open(reading: pack.url(fragment.file).path, name: fragment.file)
            #expect(file.info.sampleRate == 44_100 && file.info.channels == 1)
            #expect(abs(fragment.loudnessPhon - target) <= 0.1, "\(fragment.token): \(fragment.loudnessPhon) phon")
            #expect(fragment.truePeakDBTP <= -1)
            #expect(fragment.trimmedHeadMs > 200, "\(fragment.token): the 300 ms of silence before the voice is cut")
        }
        // The same recording: ALAC is lossless, so its source is the WAV's frames exactly; AAC keeps no
        // encoder priming or padding beyond a few milliseconds, and its fragment is the WAV's length.
        let wav = try #require(byToken["四"])
        #expect(byToken["三"]?.source.frames == wav.source.frames)
        let aac = try #require(byToken["一"])
        #expect(abs(aac.source.frames - wav.source.frames) <= 48 * 3, "\(aac.source.frames) vs \(wav.source.frames)")
        #expect(abs(aac.durationMs - wav.durationMs) <= 3, "\(aac.durationMs) vs \(wav.durationMs) ms")
        #expect(abs(aac.trimmedHeadMs - wav.trimmedHeadMs) <= 3)
    }

    @Test func theSameBytesGiveTheSameFragment() throws {
        var hashes: [String] = []
        for _ in 0..<2 {
            let pack = TestPack()
            try Self.deliver("voice-aac-44k-stereo.m4a", as: "digit_1.m4a", to: pack)
            #expect(try pack.build().failures.isEmpty)
            hashes.append(try pack.manifest().fragments[0].sha256)
        }
        #expect(hashes[0] == hashes[1])
    }

    /// An .m4a cut off before its index, one with its index first cut off mid-frame, an .mp4 with a video track
    /// only, and random bytes named .m4a: each one line naming the file, with what FFmpeg's own log said of it (a
    /// cut one as truncated, naming the box the cut ends in); the good recordings are built but not committed,
    /// and the pack is as it was.
    @Test func badPhoneDeliveriesAreNamedAndThePackIsUntouched() throws {
        let pack = TestPack()
        try pack.deliver("digit_1.wav")
        #expect(try pack.build().failures.isEmpty)
        let before = pack.snapshot()

        let whole = try Data(contentsOf: Self.fixtures.appendingPathComponent("voice-aac-48k-mono.m4a"))
        try pack.writeBytes("digit_2.m4a", whole.prefix(whole.count * 2 / 3))
        try Self.deliver("video-only.mp4", as: "digit_3.mp4", to: pack)
        var generator = SeededRandom(seed: 4_096)
        try pack.writeBytes("digit_4.m4a", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        try Self.deliver("voice-alac.m4a", as: "digit_5.m4a", to: pack)
        try Self.deliver("voice-aac-faststart-cut.m4a", as: "digit_6.m4a", to: pack)

        let outcome = try pack.build()
        let byFile = Dictionary(grouping: outcome.failures, by: { ($0.subject.text as NSString).lastPathComponent })
        for (file, words) in [
            (
                "digit_2.m4a",
                [
                    "it is truncated: its audio (mdat box) promises ", "(FFmpeg: cannot open it",
                    "moov atom not found)",
                    "copy or export it again",
                ]
            ),
            ("digit_3.mp4", ["nor FFmpeg (it has no audio stream"]),
            ("digit_4.m4a", ["neither libsndfile", "nor FFmpeg", "export it again as WAV, FLAC or M4A"]),
            (
                "digit_6.m4a",
                [
                    "it is truncated: its audio (mdat box) promises ", "(FFmpeg: decoding failed after",
                    "Packet corrupt (stream = 0", "copy or export it again",
                ]
            ),
        ] {
            let messages = byFile[file]?.map(\.description) ?? []
            #expect(messages.count == 1, "\(file): \(messages)")
            #expect(messages.first.map { !$0.contains("\n") } == true)
            for word in words {
                #expect(messages.first?.contains(word) == true, "\(file): \(messages) lacks '\(word)'")
            }
        }
        #expect(outcome.failures.count == 4)
        #expect(pack.snapshot() == before)
    }

    /// Found by the fuzz target: an MP4 header that claims a duration of centuries, whose length in frames
    /// overflowed while the message was written. It is refused as no fragment, from its header.
    @Test func anAbsurdDurationIsRefusedFromTheHeader() throws {
        let pack = TestPack()
        try Self.deliver("absurd-duration.m4a", as: "digit_1.m4a", to: pack)
        let outcome = try pack.build()
        #expect(outcome.failures.map(\.description).contains { $0.contains("long, which is not a fragment") })
    }
}

/// MP3s as real packs ship them: libsndfile's length for an MP3 without a Xing, Info or VBRI header is an
/// estimate from its size (2.3× off for the 16 kHz VBR fixture), and with one it differs from what decodes
/// by the encoder's delay and padding. Neither is a cut; an MP3 that declares a length and holds half is.
@Suite struct MP3DeliveryTests {
    static func voiceFrames(at rate: Int) throws -> Int {
        let wav = try SoundFile.open(
            reading: PhoneDeliveryTests.fixtures.appendingPathComponent("voice.wav").path, name: "voice.wav")
        return wav.info.frames * rate / wav.info.sampleRate
    }

    @Test func anMP3WithoutALengthHeaderIsDecodedToItsEnd() throws {
        let pack = TestPack()
        try PhoneDeliveryTests.deliver("voice-16k-vbr-no-xing.mp3", as: "digit_1.mp3", to: pack)
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let source = try #require(try pack.manifest().fragments.first?.source)
        #expect(source.format == "mpeg/mp3" && source.sampleRate == 16_000)
        // The fixture is the voice four times over (sox repeat 3): all of it is read, not the estimate.
        let whole = try 4 * Self.voiceFrames(at: 16_000)
        #expect(abs(source.frames - whole) <= MPEGLength.toleratedFrames, "\(source.frames) of \(whole)")
    }

    @Test func anMP3WithALengthHeaderIsReadWithinItsEncoderDelay() throws {
        let pack = TestPack()
        try PhoneDeliveryTests.deliver("voice-xing.mp3", as: "digit_1.mp3", to: pack)
        #expect(try pack.build().failures.isEmpty)
        let frames = try #require(try pack.manifest().fragments.first?.source.frames)
        let whole = try Self.voiceFrames(at: 48_000)
        #expect(abs(frames - whole) <= MPEGLength.toleratedFrames, "\(frames) of \(whole)")
    }

    @Test func anMP3CutInHalfIsRefusedWithWhatTheDecoderSaid() throws {
        let pack = TestPack()
        try PhoneDeliveryTests.deliver("voice-xing-cut.mp3", as: "digit_1.mp3", to: pack)
        let messages = try pack.build().failures.map(\.description)
        #expect(messages.count == 1)
        let message = try #require(messages.first)
        #expect(
            message.hasPrefix("raw-audio/digit_1.mp3: error: [audio/unreadable] it is truncated: the header promises"),
            "\(message)")
        #expect(message.contains("the decoder said: Warning: Xing stream size off"), "\(message)")
        #expect(message.hasSuffix("copy or export it again"))
    }

    /// Without a length header nothing promises a length, but an encoder writes whole frames: the first half of
    /// the file ends inside one (0 of 1,297 MP3s that real apps shipped do).
    @Test func anMP3WithoutALengthHeaderCutInHalfIsRefused() throws {
        let pack = TestPack()
        let mp3 = try Data(contentsOf: PhoneDeliveryTests.fixtures.appendingPathComponent("voice-16k-vbr-no-xing.mp3"))
        try pack.writeBytes("digit_1.mp3", mp3.prefix(mp3.count / 2))
        let messages = try pack.build().failures.map(\.description)
        #expect(messages.count == 1)
        let message = try #require(messages.first)
        #expect(
            message.hasPrefix("raw-audio/digit_1.mp3: error: [audio/unreadable] it is truncated: it ends "),
            "\(message)")
        #expect(message.contains(" bytes into an MPEG frame of "), "\(message)")
        #expect(message.hasSuffix("where an encoder writes whole frames: copy or export it again"), "\(message)")
    }

    /// MP3 inside a WAV, as Windows' ACM codecs and ffmpeg write it: its fact chunk counts the encoder's delay and
    /// padding, so it promises a few hundred frames more than decode (every such file ffmpeg made of the shipped
    /// pack's recordings was refused as truncated). A cut still shows, in its data chunk's size.
    @Test func anMP3InsideAWAVIsReadAndItsCutIsRefused() throws {
        let pack = TestPack()
        try PhoneDeliveryTests.deliver("voice-mp3-in.wav", as: "digit_1.wav", to: pack)
        #expect(try pack.build().failures.isEmpty)
        let source = try #require(try pack.manifest().fragments.first?.source)
        #expect(source.format == "wav/mp3" && source.sampleRate == 48_000)
        let whole = try Self.voiceFrames(at: 48_000)
        #expect(abs(source.frames - whole) <= MPEGLength.toleratedFrames, "\(source.frames) of \(whole)")

        let cut = TestPack()
        let wav = try Data(contentsOf: PhoneDeliveryTests.fixtures.appendingPathComponent("voice-mp3-in.wav"))
        try cut.writeBytes("digit_1.wav", wav.prefix(wav.count / 2))
        let messages = try cut.build().failures.map(\.description)
        #expect(messages.count == 1)
        #expect(
            messages.first?.hasPrefix(
                "raw-audio/digit_1.wav: error: [audio/unreadable] it is truncated: the header promises") == true,
            "\(messages)")
    }

    /// macOS leaves an AppleDouble file, `._<name>`, beside every file it copies to a shared or external drive.
    /// libsndfile, given a path, took it for a Sound Designer II resource fork before looking for an MP3 without
    /// ID3 tags, and refused the MP3: it was read by FFmpeg instead, and called "delivered apart" from the rest.
    @Test func anAppleDoubleFileBesideAnMP3ChangesNothing() throws {
        let pack = TestPack()
        let mp3 = try Data(contentsOf: PhoneDeliveryTests.fixtures.appendingPathComponent("voice-xing.mp3"))
        let untagged = mp3.dropFirst(20)  // the fixture's empty ID3v2 tag: 10 bytes of header, 10 of padding
        #expect(untagged.prefix(2) == Data([0xFF, 0xFB]), "an MPEG frame's sync word")
        try pack.writeBytes("digit_1.mp3", untagged)
        try pack.writeBytes("digit_2.mp3", untagged)
        // Magic, version 2, "Mac OS X" padded to 16 bytes, one entry: Finder info (9) at byte 38, 32 bytes long.
        var appleDouble = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00])
        appleDouble += Data("Mac OS X        ".utf8) + Data([0x00, 0x01])
        appleDouble += Data([0, 0, 0, 9, 0, 0, 0, 38, 0, 0, 0, 32]) + Data(count: 32)
        try pack.writeBytes("._digit_1.mp3", appleDouble)
        let outcome = try pack.build()
        let heard = outcome.warnings.filter { $0.category != .coverage }
        #expect(outcome.failures.isEmpty && heard.isEmpty, "\(outcome.failures) \(heard)")
        let formats = try pack.manifest().fragments.map(\.source.format)
        #expect(formats == ["mpeg/mp3", "mpeg/mp3"])
    }

    /// Files are read by what they hold: WAV data under an .mp3 name, and an MP3 stream under an .m4a name.
    @Test func aRecordingIsReadByItsContentNotItsName() throws {
        let pack = TestPack()
        try PhoneDeliveryTests.deliver("voice.wav", as: "digit_1.mp3", to: pack)
        try PhoneDeliveryTests.deliver("voice-16k-vbr-no-xing.mp3", as: "digit_2.m4a", to: pack)
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let formats = try pack.manifest().fragments.map(\.source.format)
        #expect(formats == ["wav/pcm16", "mpeg/mp3"])
    }
}

/// A WAV header written for two channels at half the rate of a mono voice (a real pack shipped 43 recordings so: a
/// PCM-to-WAV helper taking Android's output channel mask for an input one): the samples alternate between the
/// channels, and every player keeps the voice's length and pitch, so nobody hears it but in the lost band.
@Suite struct WrongHeaderTests {
    @Test func monoWrittenAsTwoChannelsAtHalfItsRateIsReadAsItWasRecorded() throws {
        let pack = TestPack()
        let rate = 16_000
        // Padded with a quarter second of digital silence, as an editor exports it.
        let voice =
            TonalVoice.recording(TonalVoice.syllable(.high, rate: rate), rate: rate)
            + [Float](repeating: 0, count: rate / 4)
        let wav = FileFormat(container: "wav", encoding: "pcm16")
        try pack.write("digit_1.wav", channels: [voice], rate: rate, format: wav)
        let first = stride(from: 0, to: voice.count - 1, by: 2).map { voice[$0] }
        let second = stride(from: 1, to: voice.count, by: 2).map { voice[$0] }
        try pack.write("digit_2.wav", channels: [first, second], rate: rate / 2, format: wav)
        #expect(try pack.build().failures.isEmpty)

        let byToken = Dictionary(uniqueKeysWithValues: try pack.manifest().fragments.map { ($0.token, $0) })
        let right = try #require(byToken["一"])
        let wrong = try #require(byToken["二"])
        #expect(wrong.source.sampleRate == 8_000 && wrong.source.channels == 2)
        #expect(wrong.source.readAsMonoSampleRate == 16_000 && right.source.readAsMonoSampleRate == nil)
        // The same voice either way: its band (over a quarter of the header's rate), pitch and length.
        let band = try #require(right.analysis?.bandwidthHz)
        #expect(band > 4_000 && wrong.analysis?.bandwidthHz == band, "\(band) Hz, \(wrong.analysis as Any)")
        let pitch = try #require(right.analysis?.pitchRegisterHz)
        #expect(abs(12 * log2(try #require(wrong.analysis?.pitchRegisterHz) / pitch)) < 0.5)
        #expect(abs(wrong.durationMs - right.durationMs) <= 1)
        // Its end read where the recording ends before the padding, in either reading.
        let end = try #require(right.source.endLevelDB)
        let wrongEnd = try #require(wrong.source.endLevelDB)
        #expect(end > -100 && abs(wrongEnd - end) < 1, "\(end), \(wrongEnd)")

        let findings = PackChecker.check(paths: pack.paths, settings: pack.settings).findings
        let sound = findings.filter { $0.category == .sound }.map(\.description)
        #expect(sound.count == 1, "\(sound)")
        let said = try #require(sound.first)
        #expect(
            said.hasPrefix(
                "raw-audio/digit_2.wav: warning: [sound/header] 二: its header is wrong: it says 2 channels at 8000 Hz")
        )
        #expect(said.contains("`sox -r 16000 -c 1 raw-audio/digit_2.wav fixed.wav`"), "\(said)")
    }
}
