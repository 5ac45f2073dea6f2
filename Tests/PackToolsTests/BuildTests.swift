import AudioPipeline
import Foundation
import PackManifest
import PackTools
import TestSupport
import Testing
import VoicePack

@Suite struct BuildTests {
    /// One delivery per container, encoding, rate and layout a sound designer might send.
    static let mixed: [(String, TestPack.Delivery)] = [
        ("digit_1.wav", .init(container: "wav", encoding: "pcm16", rate: 48_000, layout: "stereo", levelDB: -18)),
        ("digit_2.flac", .init(container: "flac", encoding: "pcm24", rate: 44_100, levelDB: -30)),
        ("digit_3.aiff", .init(container: "aiff", encoding: "pcm16", rate: 22_050, levelDB: -12, leadSeconds: 0.5)),
        ("digit_4.caf", .init(container: "caf", encoding: "float32", rate: 96_000, levelDB: -25)),
        ("digit_5.ogg", .init(container: "ogg", encoding: "vorbis", rate: 44_100, levelDB: -20)),
        ("digit_6.wav", .init(container: "wav", encoding: "pcm24", rate: 32_000, layout: "silent-right", levelDB: -22)),
        ("digit_7.w64", .init(container: "w64", encoding: "pcm32", rate: 16_000, levelDB: -16)),
        (
            "digit_8.wav",
            .init(container: "wav", encoding: "float32", rate: 8_000, layout: "inverted-right", levelDB: -24)
        ),
        (
            "digit_9.rf64",
            .init(container: "rf64", encoding: "pcm16", rate: 88_200, layout: "six-channels", levelDB: -14)
        ),
        ("unit_shi.wav", .init(container: "wav", encoding: "pcmu8", rate: 11_025, levelDB: -10)),
        ("unit_bai.flac", .init(container: "flac", encoding: "pcm16", rate: 48_000, levelDB: -35, vowelSeconds: 0.9)),
        (
            "unit_qian.aiff",
            .init(container: "aiff", encoding: "float32", rate: 44_100, levelDB: -8, vowelSeconds: 0.18)
        ),
        ("unit_yuan.mp3", .init(container: "mpeg", encoding: "mp3", rate: 44_100, levelDB: -20, vowelSeconds: 0.5)),
    ]

    @Test(arguments: [SampleFormat.pcm16, .pcm24, .float32])
    func everyOutputIsInSpec(sampleFormat: SampleFormat) throws {
        let pack = TestPack()
        pack.settings.format.sampleFormat = sampleFormat
        pack.settings.format.container = sampleFormat == .pcm24 ? .caf : sampleFormat == .float32 ? .aiff : .wav
        var onsets: [String: Double] = [:]
        for (name, delivery) in Self.mixed { onsets[name] = try pack.deliver(name, delivery) }

        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let manifest = try pack.manifest()
        #expect(manifest.fragments.count == Self.mixed.count)
        for fragment in manifest.fragments {
            let file = try SoundFile.open(reading: pack.url(fragment.file).path, name: fragment.file)
            let samples = try file.readChannels(name: fragment.file, maxFrames: .max)
            #expect(file.info.sampleRate == 44_100 && file.info.channels == 1)
            #expect(file.info.format == FileFormat(sampleFormat, in: pack.settings.format.container))
            #expect(file.info.frames == fragment.frames)
            let signal = Signal(samples: samples[0], sampleRate: 44_100)
            // Heard at the target, as the written file is measured again (the dither and rounding included).
            let heard = try HeardLoudness(signal, fullScaleDBSPL: 90).n5Phon()
            let target = pack.settings.loudness.targetPhon
            #expect(abs(heard - target) <= 0.15, "\(fragment.token) is heard at \(heard) phon")
            #expect(abs(fragment.loudnessPhon - heard) < 0.05)
            #expect(LoudnessMeter.truePeak(signal) <= -1, "\(fragment.token) peaks over the ceiling")
            #expect(abs(fragment.loudnessLUFS - LoudnessMeter.fragmentLoudness(signal)) < 0.01)

            // The fricative starts where the delivery put it: at most 30 ms of silence is left before it.
            let onset = onsets[(fragment.source.file as NSString).lastPathComponent]!
            let left = onset - fragment.trimmedHeadMs
            #expect(left >= 0 && left <= 30, "\(fragment.token): \(left) ms before the onset")
        }
    }

    /// The fricative 35 dB under its vowel is kept whole, at its level, after trimming and gain.
    @Test func aSoftFricativeOnsetIsKept() throws {
        let pack = TestPack()
        let onset = try pack.deliver(
            "digit_4.wav", .init(levelDB: -20, fricativeSeconds: 0.08, fricativeBelowDB: 35, noiseBelowDB: 60))
        _ = try pack.build()
        let fragment = try #require(try pack.manifest().fragments.first)
        let file = try SoundFile.open(reading: pack.url(fragment.file).path, name: fragment.file)
        let samples = try file.readChannels(name: fragment.file, maxFrames: .max)[0]
        let start = Int((onset - fragment.trimmedHeadMs) * 44.1)
        let fricative = samples[(start + 441)..<(start + 3087)]
        let vowel = samples[(start + 3528 + 1323)..<(start + 3528 + 8820)]
        func rms(_ slice: ArraySlice<Float>) -> Double {
            (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
        }
        let below = 20 * log10(rms(fricative) / rms(vowel))
        #expect(abs(below - -35) < 2, "the fricative is \(below) dB under the vowel")
    }

    @Test func twoCleanBuildsAreByteIdentical() throws {
        let first = TestPack()
        for (name, delivery) in Self.mixed.prefix(6) { try first.deliver(name, delivery) }
        // The same recordings (an Ogg file's serial number is random, so they are copied, not made again).
        let second = TestPack()
        try FileManager.default.removeItem(at: second.url("raw-audio"))
        try FileManager.default.copyItem(at: first.url("raw-audio"), to: second.url("raw-audio"))
        _ = try first.build(jobs: 1)
        _ = try second.build(jobs: 2)
        let a = first.snapshot()
        #expect(a.count == 7)
        #expect(a == second.snapshot())
    }

    @Test(arguments: [1, 2, 8])
    func aBuildWithNothingChangedDoesNoAudioWork(jobs: Int) throws {
        let pack = TestPack()
        for (name, delivery) in Self.mixed.prefix(4) { try pack.deliver(name, delivery) }
        let first = try pack.build(jobs: jobs)
        #expect(first.built.count == 4 && first.processed == 4, "\(first.failures)")
        let manifestBefore = try FileStatus.of(pack.url("manifest.json").path).unwrapped()

        let second = try pack.build(jobs: jobs)
        #expect(second.built.isEmpty && second.unchanged == 4)
        #expect(!second.manifestWritten)
        #expect(second.processed == 0, "a no-op build decoded audio")
        #expect(FileStatus.of(pack.url("manifest.json").path) == manifestBefore)
    }

    @Test(arguments: [1, 2, 8])
    func onlyWhatChangedIsBuiltAgain(jobs: Int) throws {
        let pack = TestPack()
        for (name, delivery) in Self.mixed.prefix(4) { try pack.deliver(name, delivery) }
        _ = try pack.build(jobs: jobs)
        let before = pack.snapshot()

        // A changed recording is rebuilt; the rest stay as they were, and are not decoded.
        try pack.deliver("digit_2.flac", .init(container: "flac", encoding: "pcm24", levelDB: -10))
        let changed = try pack.build(jobs: jobs)
        #expect(changed.built == ["二"] && changed.unchanged == 3)
        #expect(changed.processed == 1)
        let after = pack.snapshot()
        #expect(after["normalized/digit_2.wav"] != before["normalized/digit_2.wav"])
        #expect(after["normalized/digit_1.wav"] == before["normalized/digit_1.wav"])

        // A removed recording takes its fragment with it.
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_3.aiff"))
        let removed = try pack.build(jobs: jobs)
        #expect(removed.removed == ["digit_3.wav"] && removed.processed == 0)
        #expect(!FileManager.default.fileExists(atPath: pack.url("normalized/digit_3.wav").path))
        #expect(try pack.manifest().fragments.map(\.token) == ["一", "二", "四"])

        // --force rebuilds everything, to the same bytes.
        let snapshot = pack.snapshot()
        let forced = try pack.build(force: true, jobs: jobs)
        #expect(forced.built.count == 3)
        #expect(pack.snapshot() == snapshot)
    }

    /// After recordings change, are added, removed or only touched, a build carries the other fragments over
    /// (as the text the last manifest has for them) and leaves byte for byte what a clean build of the same
    /// recordings makes; a touched recording with the same content is not decoded.
    @Test(arguments: [1, 2, 8])
    func aChangedBuildLeavesWhatACleanBuildMakes(jobs: Int) throws {
        let pack = TestPack()
        for (name, delivery) in Self.mixed.prefix(5) { try pack.deliver(name, delivery) }
        _ = try pack.build(jobs: jobs)

        try pack.deliver("digit_2.flac", .init(container: "flac", encoding: "pcm24", levelDB: -14))
        try pack.deliver("unit_yuan.wav", .init(container: "wav", encoding: "pcm16", levelDB: -20))
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_3.aiff"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: pack.url("raw-audio/digit_4.caf").path)
        let outcome = try pack.build(jobs: jobs)
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(Set(outcome.built) == ["二", "元"] && outcome.unchanged == 3 && outcome.removed == ["digit_3.wav"])
        #expect(outcome.processed == 2)

        let clean = TestPack()
        try FileManager.default.removeItem(at: clean.url("raw-audio"))
        try FileManager.default.copyItem(at: pack.url("raw-audio"), to: clean.url("raw-audio"))
        _ = try clean.build()
        #expect(clean.snapshot() == pack.snapshot())

        // A manifest edited by hand is not the one the record vouches for: it is decoded, and written again.
        let manifest = pack.url("manifest.json")
        try Data(
            String(decoding: try Data(contentsOf: manifest), as: UTF8.self).replacingOccurrences(
                of: "\n    ", with: "\n\t"
            ).utf8
        ).write(to: manifest)
        let edited = try pack.build(jobs: jobs)
        #expect(edited.processed == 0 && edited.unchanged == 5 && edited.manifestWritten)
        #expect(clean.snapshot() == pack.snapshot())
    }

    /// A recording only touched (same bytes, new time) is kept as it was: nothing is built, the manifest is
    /// not written, and no staged file is left.
    @Test(arguments: [1, 2, 8])
    func aTouchedRecordingIsKept(jobs: Int) throws {
        let pack = TestPack()
        for (name, delivery) in Self.mixed.prefix(3) { try pack.deliver(name, delivery) }
        _ = try pack.build(jobs: jobs)
        let before = pack.snapshot()
        let manifestBefore = try FileStatus.of(pack.url("manifest.json").path).unwrapped()
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: pack.url("raw-audio/digit_2.flac").path)
        let outcome = try pack.build(jobs: jobs)
        #expect(outcome.failures.isEmpty && outcome.processed == 0 && outcome.unchanged == 3)
        #expect(!outcome.manifestWritten)
        #expect(FileStatus.of(pack.url("manifest.json").path) == manifestBefore)
        #expect(pack.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: pack.paths.staging.path))
        let again = try pack.build(jobs: jobs)
        #expect(again.built.isEmpty && again.unchanged == 3)
    }

    @Test func aChangedSettingRebuildsEverything() throws {
        let pack = TestPack()
        for (name, delivery) in Self.mixed.prefix(3) { try pack.deliver(name, delivery) }
        _ = try pack.build()
        let analyses = try pack.manifest().fragments.map(\.analysis)
        pack.settings.loudness.targetLUFS = -20
        let outcome = try pack.build()
        #expect(outcome.built.count == 3)
        // 4 LU down is 4 phon down.
        #expect(
            try pack.manifest().fragments.allSatisfy { abs($0.loudnessPhon - pack.settings.loudness.targetPhon) <= 0.1 }
        )
        // The voice is read before the gain: what `check` compares does not move with the level.
        #expect(try pack.manifest().fragments.map(\.analysis) == analyses)
    }

    /// Settings that change the manifest but not a recording — a template, an alias, a phrase's text, a
    /// stem's token — are not a no-op: the build writes the manifest again (a template or an alias without
    /// decoding anything), and the build after has nothing to do. Each part of the settings' digest in the
    /// build record is changed in turn.
    @Test func aChangedTemplateAliasPhraseOrStemRewritesTheManifest() throws {
        let pack = TestPack()
        for (name, delivery) in Self.mixed.prefix(3) { try pack.deliver(name, delivery) }
        try pack.deliver("phrase_thanks.wav", Self.mixed[0].1)
        pack.settings.phrases["phrase_thanks"] = "谢谢"
        _ = try pack.build()
        #expect(try !pack.build().manifestWritten)
        let edits: [(String, Bool, (inout Settings) -> Void, (Manifest) -> Bool)] = [
            ("template", false, { $0.templates["shop"] = "收款{amount}" }, { $0.templates["shop"] == "收款{amount}" }),
            ("template text", false, { $0.templates["shop"] = "到账{amount}" }, { $0.templates["shop"] == "到账{amount}" }),
            ("alias", false, { $0.aliases["億"] = "亿" }, { $0.aliases["億"] == "亿" }),
            (
                "phrase text", true, { $0.phrases["phrase_thanks"] = "谢谢惠顾" },
                { $0.fragments.contains { $0.token == "谢谢惠顾" } }
            ),
            ("stem", true, { $0.stems["digit_2"] = "贰" }, { $0.fragments.contains { $0.token == "贰" } }),
        ]
        for (what, mayDecode, edit, holds) in edits {
            edit(&pack.settings)
            let outcome = try pack.build()
            #expect(outcome.manifestWritten, "\(what)")
            #expect(try holds(pack.manifest()), "\(what)")
            #expect(mayDecode || outcome.processed == 0, "\(what)")
            #expect(try !pack.build().manifestWritten, "\(what): the next build has nothing to do")
        }
    }

    /// What the manifest notes of a fragment (a picked channel, heavy limiting, audible noise) is said when the
    /// fragment is built, once, naming its recording; a build with nothing to do says nothing again.
    @Test func aBuildSaysWhatItNotesOfEachFragmentItBuilds() throws {
        let pack = TestPack()
        try pack.deliver("digit_1.wav", .init(layout: "silent-right"))
        try pack.deliver("digit_2.wav")
        let first = try pack.build()
        let notes = first.warnings.filter { $0.category == .sound }.map(\.description)
        #expect(
            notes == ["raw-audio/digit_1.wav: warning: [sound/channels] 一: took channel 1 (channel 2 silent)"],
            "\(notes)")
        let manifest = try pack.manifest()
        #expect(manifest.fragments.first { $0.token == "一" }?.warnings == ["took channel 1 (channel 2 silent)"])
        #expect(try pack.build().warnings.filter { $0.category == .sound }.isEmpty)
    }
}

extension Optional {
    func unwrapped(file: StaticString = #filePath, line: UInt = #line) throws -> Wrapped {
        guard let value = self else { throw CocoaError(.fileNoSuchFile) }
        return value
    }
}
