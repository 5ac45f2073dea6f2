import Foundation
import PackManifest
import PackTools
import TestSupport
import Testing
import VoicePack

/// The recording that does not match the rest, on packs spoken by espeak-ng (scripts/make-consistency-corpus):
/// a uniform one, and one with another voice, a telephone band, a noisy room and a slow pace in it.
@Suite struct ConsistencyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Made once for the suite: espeak-ng and sox come with scripts/setup.
    static let corpus: URL? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assets-consistency-\(UUID())")
        let process = Process()
        process.executableURL = repository.appendingPathComponent("scripts/make-consistency-corpus")
        process.arguments = [folder.path]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? folder : nil
    }()

    /// The corpus pack `name` (`uniform` or `odd`) built in a pack of its own.
    func built(_ name: String, _ configure: (inout Settings) -> Void = { _ in }) throws -> TestPack {
        let corpus = try #require(Self.corpus, "scripts/make-consistency-corpus failed: run scripts/setup")
        let source = corpus.appendingPathComponent(name)
        let pack = TestPack()
        pack.settings = try Settings.load(contentsOf: source.appendingPathComponent("assets.json"), name: "assets.json")
        configure(&pack.settings)
        let raw = source.appendingPathComponent("raw-audio")
        for file in try FileManager.default.contentsOfDirectory(atPath: raw.path) {
            try FileManager.default.copyItem(
                at: raw.appendingPathComponent(file), to: pack.url("raw-audio/\(file)"))
        }
        let outcome = try pack.build()
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        return pack
    }

    func consistency(_ pack: TestPack) -> [Diagnostic] {
        PackChecker.check(paths: pack.paths, settings: pack.settings).findings.filter { $0.category == .consistency }
    }

    @Test func aUniformPackRaisesNothing() throws {
        let pack = try built("uniform")
        #expect(consistency(pack) == [])
        for fragment in try pack.manifest().fragments {
            let analysis = try #require(fragment.analysis)
            #expect(analysis.pitchRegisterHz != nil && analysis.bandwidthHz != nil, "\(fragment.token)")
        }
    }

    @Test func eachOddRecordingIsFlaggedForItsReasonAndNoOtherIs() throws {
        let pack = try built("odd")
        let findings = consistency(pack)
        let byRecording = Dictionary(grouping: findings, by: \.subject.text).mapValues { $0.map(\.message) }
        #expect(
            byRecording.keys.sorted() == [
                "raw-audio/digit_3.wav", "raw-audio/digit_5.caf", "raw-audio/digit_6.wav", "raw-audio/digit_8.aiff",
            ])
        let expected = [
            "raw-audio/digit_3.wav": "三: another voice or register",
            "raw-audio/digit_5.caf": "五: a narrower band than the rest",
            "raw-audio/digit_8.aiff": "八: an audible noise floor, far above the rest",
            "raw-audio/digit_6.wav": "六: another pace",
        ]
        for (recording, start) in expected {
            let messages = byRecording[recording] ?? []
            #expect(messages.count == 1 && messages[0].hasPrefix(start), "\(recording): \(messages)")
        }
        #expect(findings.allSatisfy { $0.severity == .error && $0.fix.contains("consistency.accept") })
        #expect(
            findings.first { $0.subject.text.hasSuffix("digit_3.wav") }?.message.contains("semitones under") == true)
    }

    /// An unmeasured pitch, when asked for, is a warning even where voice findings are errors.
    @Test func anUnmeasuredPitchIsAtMostAWarning() throws {
        let pack = try built("uniform") { $0.consistency.reportUnmeasured = true }
        var manifest = try pack.manifest()
        let index = try #require(manifest.fragments.firstIndex { $0.token == "六" })
        manifest.fragments[index].analysis?.pitchRegisterHz = nil
        manifest.fragments[index].analysis?.pitchMedianHz = nil
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let findings = consistency(pack)
        #expect(findings.count == 1 && findings.first?.severity == .warning, "\(findings)")
        #expect(findings.first?.message.hasPrefix("六: no pitch could be measured") == true)
    }

    @Test func acceptedRecordingsPassAndSeverityCanBeWarning() throws {
        let pack = try built("odd") { settings in
            settings.consistency.accept = ["raw-audio/digit_3.wav", "raw-audio/digit_33.wav"]
            settings.consistency.severity = .warning
        }
        let findings = consistency(pack)
        #expect(!findings.contains { $0.subject.text == "raw-audio/digit_3.wav" })
        #expect(
            findings.filter { $0.message.hasPrefix("五:") || $0.message.hasPrefix("六:") || $0.message.hasPrefix("八:") }
                .count == 3)
        #expect(findings.allSatisfy { $0.severity == .warning })
        #expect(
            findings.contains { $0.message.contains("lists raw-audio/digit_33.wav, which no fragment is built from") })
    }

    /// An entry pinned to a take accepts that take only: a new recording under the name is compared like any
    /// other, and `check` says the pin is stale and gives the entry that would accept the new take.
    @Test func anAcceptancePinnedToATakeHoldsOnlyThatTake() throws {
        let pack = try built("odd")
        let source = try #require(try pack.manifest().fragments.first { $0.token == "三" }?.source)
        let pin = String(source.sha256.prefix(12))
        let entry = #"{"recording": "raw-audio/digit_3.wav", "sha256": "\#(pin)"}"#
        let mismatch = try #require(consistency(pack).first { $0.subject.text == source.file })
        #expect(mismatch.fix.contains("add \(entry) to consistency.accept"), "\(mismatch.fix)")

        pack.settings.consistency.accept = [.pinning(source.file, sha256: source.sha256)]
        #expect(!consistency(pack).contains { $0.subject.text == source.file || $0.message.contains("digit_3") })

        pack.settings.consistency.accept = [Settings.Acceptance(recording: source.file, take: "0123abcd")]
        let findings = consistency(pack)
        #expect(findings.contains { $0.subject.text == source.file && $0.severity == .error })
        let stale = try #require(findings.first { $0.message.contains("accepts the take 0123abcd") })
        #expect(stale.severity == .warning)
        #expect(stale.message.contains("of raw-audio/digit_3.wav, which now holds another (\(pin))"))
        #expect(stale.fix.contains("accept this take instead: \(entry)"))
    }

    /// The pack in the repository, one voice in one session, raises nothing.
    @Test func theShippedPackRaisesNothing() throws {
        let manifest = try Manifest.decode(
            Data(contentsOf: Self.repository.appendingPathComponent("manifest.json")), name: "manifest.json")
        #expect(manifest.fragments.allSatisfy { $0.analysis != nil })
        #expect(VoiceConsistency(manifest: manifest, settings: Settings.Consistency()).findings.isEmpty)
    }
}

/// The comparison's rules, on manifests written by hand.
@Suite struct VoiceConsistencyRuleTests {
    static func fragment(
        _ token: String, register: Double? = 200, bandwidth: Double? = 11_000, snr: Double = 60, voiceMs: Double = 400,
        sampleRate: Int = 44_100, format: String = "wav/pcm16"
    ) -> Manifest.Fragment {
        Manifest.Fragment(
            token: token, file: "normalized/\(token).wav", frames: 1, durationMs: 450, sha256: "", loudnessPhon: 89.75,
            loudnessLUFS: -16, truePeakDBTP: -3, gainDB: 0, limiterReductionDB: 0, trimmedHeadMs: 0, trimmedTailMs: 0,
            headDBFS: -12, tailDBFS: -20, warnings: [],
            source: Manifest.Source(
                file: "raw-audio/\(token).wav", sha256: "", size: 1, sampleRate: sampleRate, channels: 1,
                format: format,
                frames: 1, durationMs: 450, loudnessLUFS: -20, truePeakDBTP: -6, noiseFloorDBFS: -70, clippedSamples: 0,
                channelDecision: "mono"),
            analysis: Manifest.Analysis(
                pitchMedianHz: register.map { $0 * 0.95 }, pitchRegisterHz: register,
                voicedFraction: register == nil ? 0.02 : 0.7,
                bandwidthHz: bandwidth, centroidHz: 1_500, snrDB: snr,
                syllables: Manifest.Analysis.syllables(in: token), voiceMs: voiceMs))
    }

    /// The comparison of a manifest holding `fragments`.
    static func consistency(_ fragments: [Manifest.Fragment], _ settings: Settings.Consistency = .init())
        -> VoiceConsistency
    {
        let manifest = Manifest(
            format: AudioFormat(), loudness: .init(Settings.Loudness()), processing: .init(Settings()), styles: [],
            forms: [], aliases: [:], templates: [:], fragments: fragments)
        return VoiceConsistency(manifest: manifest, settings: settings)
    }

    static func findings(_ fragments: [Manifest.Fragment], _ settings: Settings.Consistency = .init()) -> [String:
        [VoiceConsistency.Kind]]
    {
        consistency(fragments, settings).findings.mapValues { $0.map(\.kind) }
    }

    /// First and fourth tones at the voice's high register.
    static let usual = ["一", "二", "三", "四", "七"].map { fragment($0) }

    /// A fragment whose pitch could not be measured is not compared, and no fault of its recording: reported
    /// only when a designer asks for it.
    @Test func aFragmentWithNoPitchIsReportedOnlyWhenAskedFor() {
        #expect(Self.findings(Self.usual + [Self.fragment("六", register: nil)]) == [:])
        var settings = Settings.Consistency()
        settings.reportUnmeasured = true
        let voices = Self.consistency(Self.usual + [Self.fragment("六", register: nil)], settings)
        #expect(voices.findings.mapValues { $0.map(\.kind) } == ["六": [.unmeasured]])
        // What the reports count: no mismatch.
        #expect(voices.unmeasured("六") && !voices.standsApart("六") && !voices.deliveredApart("六"))
    }

    /// Noise hides the top of a band: a noisy recording is reported for its noise, not for its band as well.
    @Test func aNoisyRecordingIsNotAlsoReportedForItsBand() {
        #expect(Self.findings(Self.usual + [Self.fragment("六", bandwidth: 4_000, snr: 25)]) == ["六": [.noise]])
        #expect(Self.findings(Self.usual + [Self.fragment("六", bandwidth: 4_000)]) == ["六": [.band]])
    }

    /// A recording whose file's rate cannot hold the pack's band (a real pack's phrase: a 16 kHz WAV among 44.1 kHz
    /// MP3s, its band ending at 7.1 kHz) is told so: exporting that file again at a higher rate would not bring the
    /// band back. A band narrowed under the file's rate (a telephone line's) keeps the general advice.
    @Test func aBandTheFilesRateCutIsSaidSo() throws {
        let wide = ["一", "二", "三", "四", "七"].map { Self.fragment($0, bandwidth: 18_000) }
        let fix = { (odd: Manifest.Fragment) in Self.consistency(wide + [odd]).findings["六"]?.map(\.fix) ?? [] }
        let sixteen = fix(Self.fragment("六", bandwidth: 7_100, sampleRate: 16_000))
        #expect(sixteen.count == 1)
        let said = try #require(sixteen.first)
        #expect(
            said.hasPrefix(
                "its file is at 16000 Hz, which holds nothing over 8.0 kHz: export it again from a recording at the pack's rate, or re-record it (resampling this file up does not bring the band back)"
            ), "\(said)")
        let phone = fix(Self.fragment("六", bandwidth: 3_400))
        #expect(phone.count == 1 && phone.first?.hasPrefix("re-record or re-export it at the pack's quality") == true)
    }

    /// A band cut as a telephone line cuts it leaves the tracker a harmonic (3/2 of the pitch): the band is
    /// said, not another voice as well; the same register in a full band is another voice.
    @Test func aNarrowBandIsNotAlsoReportedAsAnotherVoice() {
        let harmonic = 200 * 1.5
        #expect(
            Self.findings(Self.usual + [Self.fragment("六", register: harmonic, bandwidth: 3_400)]) == ["六": [.band]])
        #expect(Self.findings(Self.usual + [Self.fragment("六", register: harmonic)]) == ["六": [.voice]])
    }

    /// Against a pack of digital silence (120 dB), noise 45 dB under the voice is not heard in a notification;
    /// 20 dB is. A pack whose own noise is audible sets a fragment apart only by being `noiseDB` noisier.
    @Test func noiseIsJudgedByWhetherItIsAudible() {
        let digital = ["一", "二", "三", "四", "七"].map { Self.fragment($0, snr: 120) }
        #expect(Self.findings(digital + [Self.fragment("六", snr: 45)]) == [:])
        #expect(Self.findings(digital + [Self.fragment("六", snr: 31)]) == [:])
        #expect(Self.findings(digital + [Self.fragment("六", snr: 20)]) == ["六": [.noise]])
        let noisy = ["一", "二", "三", "四", "七"].map { Self.fragment($0, snr: 32) }
        #expect(Self.findings(noisy + [Self.fragment("六", snr: 26)]) == [:])
        #expect(Self.findings(noisy + [Self.fragment("六", snr: 12)]) == ["六": [.noise]])
    }

    /// A third tone's register sits 5–11 semitones under a first tone's in a real voice: it is compared with
    /// where its tone reaches (an anchor 7 under the high register, or its own tone's median when it has three
    /// syllables), not with the first tones. Said in full, its final rise reaches back to the high register, and
    /// so may its register: only past that is it over where its tone reaches.
    @Test func aSyllableIsComparedWithItsOwnTone() {
        let low = { (token: String, semitones: Double) in Self.fragment(token, register: 200 * pow(2, semitones / 12)) }
        #expect(Self.findings(Self.usual + [low("五", -8)]) == [:])
        #expect(Self.findings(Self.usual + [low("五", -13)]) == ["五": [.voice]])
        #expect(Self.findings(Self.usual + [low("五", -1)]) == [:])
        #expect(Self.findings(Self.usual + [low("五", 5)]) == ["五": [.voice]])
        // Three third tones make a group of their own: one 5 semitones under the other two stands out; one
        // said in full, up at the high register, does not.
        #expect(Self.findings(Self.usual + [low("五", -7), low("九", -7.5), low("百", -13)]) == ["百": [.voice]])
        #expect(Self.findings(Self.usual + [low("五", -9), low("九", -10), low("百", -11)]) == [:])
        #expect(Self.findings(Self.usual + [low("五", -7), low("九", -7.5), low("百", -0.5)]) == [:])
        #expect(Self.findings(Self.usual + [low("五", -7), low("九", -7.5), low("百", 5)]) == ["百": [.voice]])
    }

    /// A phrase reaches over the voice's high register in its several syllables (0 to 4.3 semitones in real
    /// packs): it is compared with that, however many phrases there are, so phrases all recorded in another,
    /// lower voice (a real pack's, 4 to 6.5 semitones under its syllables) do not pass as a group of their own.
    @Test func phrasesAreComparedWithTheSyllablesHighRegisterHoweverManyThereAre() {
        let phrases = { (semitones: Double) in
            ["微信收款", "支付宝到账", "现金收款"].map { Self.fragment($0, register: 200 * pow(2, semitones / 12)) }
        }
        #expect(Self.findings(Self.usual + phrases(2.5)) == [:])
        #expect(Self.findings(Self.usual + phrases(-0.3)) == [:])
        #expect(
            Self.findings(Self.usual + phrases(-5))
                == ["微信收款": [.voice], "支付宝到账": [.voice], "现金收款": [.voice]])
        // One phrase among them in another voice is still its own finding.
        let one = phrases(2.5).dropLast() + [Self.fragment("现金收款", register: 200 * pow(2, -4.0 / 12))]
        #expect(Self.findings(Self.usual + one) == ["现金收款": [.voice]])
    }

    /// Two phrases are too few for a pace of their own: they are held to the single syllables', a phrase's
    /// syllables about 0.7 of theirs; a register a Mandarin tone moves (3 semitones) is no finding.
    @Test func fewPhrasesAreComparedWithTheSyllables() {
        let phrases = [Self.fragment("微信收款", voiceMs: 4 * 280), Self.fragment("支付宝到账", voiceMs: 5 * 300)]
        let lowTone = Self.fragment("六", register: 200 * pow(2, -3.0 / 12))
        #expect(Self.findings(Self.usual + phrases + [lowTone]) == [:])
        #expect(Self.findings(Self.usual + [Self.fragment("微信收款", voiceMs: 4 * 150)]) == [:])
        #expect(Self.findings(Self.usual + [Self.fragment("微信收款", voiceMs: 4 * 1_000)]) == ["微信收款": [.pace]])
        #expect(Self.findings(Self.usual + [Self.fragment("六", register: 200 * pow(2, -6.0 / 12))]) == ["六": [.voice]])
    }

    /// A recording delivered another way than more than half the pack (another format, rate or channel count) is
    /// said, and only of a recording nothing else sets apart; a pack with no usual way says it of none.
    @Test func aRecordingDeliveredApartIsSaidWhenNothingElseIs() throws {
        let mp3 = { (token: String) in Self.fragment(token, sampleRate: 16_000, format: "mpeg/mp3") }
        let apart = Self.consistency(Self.usual + [mp3("六")])
        #expect(apart.findings.mapValues { $0.map(\.kind) } == ["六": [.delivery]])
        let message = try #require(apart.findings["六"]?.first?.message)
        #expect(
            message
                == "六: delivered apart from the rest: mpeg/mp3, 16000 Hz, where 5 of the pack's 6 recordings are wav/pcm16, 44100 Hz",
            "\(message)")
        #expect(!VoiceConsistency.Kind.delivery.isMismatch && VoiceConsistency.Kind.voice.isMismatch)
        // Another voice delivered apart is said once, for its voice.
        #expect(Self.findings(Self.usual + [Self.fragment("六", register: 300, format: "mpeg/mp3")]) == ["六": [.voice]])
        // Three of six is no usual way; a designer's accepted recording is compared with nothing.
        #expect(Self.findings(Array(Self.usual.prefix(3)) + ["六", "八", "九"].map(mp3)) == [:])
        var accepting = Settings.Consistency()
        accepting.accept = ["raw-audio/六.wav"]
        #expect(Self.findings(Self.usual + [mp3("六")], accepting) == [:])
    }

    /// A real pack held six syllables of another app's voice among eleven of its own, two of them in its group of
    /// three second tones, whose median they then set: its own 零 was called another voice. The voice's
    /// typical is taken over the recordings delivered the usual way, so the intruders are compared with it.
    @Test func recordingsDeliveredApartDoNotSetTheVoicesTypical() {
        let rising = { (token: String, semitones: Double, format: String) in
            Self.fragment(token, register: 200 * pow(2, (semitones - 4) / 12), format: format)
        }
        let own = Self.usual + [Self.fragment("八"), rising("零", 0, "wav/pcm16")]
        let intruders = [rising("十", 6, "mpeg/mp3"), rising("元", 6, "mpeg/mp3")]
        #expect(Self.findings(own + intruders) == ["十": [.voice], "元": [.voice]])
        // Delivered the same way, nothing tells the intruders from the pack: the group of three takes its median
        // from them, as before.
        let same = [rising("十", 6, "wav/pcm16"), rising("元", 6, "wav/pcm16")]
        #expect(Self.findings(own + same) == ["零": [.voice]])
    }
}
