import AudioPipeline
import Checksum
import Foundation
import PackManifest
import PackTools
import SpeechText
import Splicer
import TestSupport
import Testing
import VoicePack

/// A pack built by `assets build` from recordings made by code: every spoken token, the other styles'
/// characters by alias, and one phrase.
final class BuiltPack: @unchecked Sendable {
    let pack = TestPack()

    static let aliases: [Token: Token] = [
        "〇": "零", "壹": "一", "贰": "二", "叁": "三", "肆": "四", "伍": "五", "陆": "六", "柒": "七", "捌": "八", "玖": "九",
        "拾": "十", "佰": "百", "仟": "千", "萬": "万", "億": "亿", "點": "点",
    ]

    init(_ format: AudioFormat = AudioFormat()) throws {
        pack.settings.format = format
        pack.settings.aliases = Self.aliases
        pack.settings.phrases = ["phrase_wechat": "微信收款"]
        pack.settings.templates = ["wechat": "微信收款，{amount}"]
        for (index, (stem, _)) in Naming.defaultStems.enumerated() {
            try pack.deliver(
                "\(stem).wav", .init(levelDB: -20 - Double(index % 5), vowelSeconds: 0.15 + Double(index % 4) * 0.05))
        }
        try pack.deliver("phrase_wechat.wav", .init(vowelSeconds: 0.9))
        let outcome = try pack.build()
        precondition(outcome.failures.isEmpty, "\(outcome.failures)")
    }

    var manifestURL: URL { pack.url("manifest.json") }

    func open() throws -> SoundPack { try SoundPack(manifestAt: manifestURL, digest: { SHA256.hex(of: $0) }) }
}

@Suite struct SplicerTests {
    static let amounts = [
        "0", "0.05", "2", "10", "12.34", "100.05", "1010", "20000", "100010", "1234.56", "100000001", "999999999999.99",
    ]

    /// Per format the pack writes: the frame count is exact and every fragment's samples are there, in order.
    @Test(arguments: SampleFormat.allCases.flatMap { format in Container.allCases.map { (format, $0) } })
    func splicesEveryFragmentInOrderToTheSample(sampleFormat: SampleFormat, container: Container) throws {
        let built = try BuiltPack(AudioFormat(sampleFormat: sampleFormat, container: container))
        let pack = try built.open()
        let splicer = Splicer(pack: pack, gapMs: 0, crossfadeMs: 5)
        let crossfade = 221  // 5 ms at 44.1 kHz
        for text in Self.amounts {
            for style in ReadingStyle.allCases {
                for form in AmountForm.allCases {
                    let tokens = try SpeechConverter(style: style, form: form).reading(of: text).tokens
                    let sound = try splicer.splice(tokens)
                    let fragments = try tokens.map { token in
                        let fragment = try #require(pack.fragment(for: token))
                        return try Self.readWithLibsndfile(built.pack.url(fragment.file).path)
                    }
                    let overlaps: [Int] = zip(fragments, fragments.dropFirst()).map {
                        min(crossfade, $0.count / 2, $1.count / 2)
                    }
                    let expected: Int = fragments.map(\.count).reduce(0, +) - overlaps.reduce(0, +)
                    #expect(sound.samples.count == expected)
                    #expect(try splicer.frames(for: tokens) == sound.samples.count)
                    #expect(sound.sampleFormat == sampleFormat && sound.sampleRate == 44_100)
                    // Outside the joins the samples are the fragment's own, exactly.
                    var start = 0
                    for (index, samples) in fragments.enumerated() {
                        let head = index == 0 ? 0 : overlaps[index - 1]
                        let tail = index == fragments.count - 1 ? 0 : overlaps[index]
                        let own = Array(samples[head..<(samples.count - tail)])
                        let spliced = Array(sound.samples[(start + head)..<(start + samples.count - tail)])
                        #expect(
                            own == spliced,
                            "\(text) \(style.name)/\(form.name): fragment \(index) (\(tokens[index])) differs")
                        start += samples.count - tail
                    }
                }
            }
        }
        // The written file reads back, with libsndfile, as the same samples in the manifest's format.
        let sound = try splicer.splice(try SpeechConverter(style: .spoken, form: .yuan).reading(of: "1234.56").tokens)
        for output in [Container.wav, .caf, .aiff] {
            let path = built.pack.url("out.\(output.rawValue)").path
            try splicer.fileData(sound, container: output).write(to: URL(fileURLWithPath: path))
            let file = try SoundFile.open(reading: path, name: path)
            #expect(file.info.format == FileFormat(sampleFormat, in: output))
            #expect(file.info.channels == 1 && file.info.sampleRate == 44_100)
            #expect(try file.readChannels(name: path, maxFrames: .max)[0] == sound.samples)
        }
    }

    static func readWithLibsndfile(_ path: String) throws -> [Float] {
        let file = try SoundFile.open(reading: path, name: path)
        return try file.readChannels(name: path, maxFrames: .max)[0]
    }

    @Test func gapsInsteadOfCrossfades() throws {
        let built = try BuiltPack()
        let pack = try built.open()
        let splicer = Splicer(pack: pack, gapMs: 30, crossfadeMs: 5)
        let tokens: [Token] = ["一", "百", "元"]
        let lengths = tokens.map { pack.fragment(for: $0)!.frames }
        let sound = try splicer.splice(tokens)
        #expect(sound.samples.count == lengths.reduce(0, +) + 2 * 1323)
        #expect(sound.samples[lengths[0]..<(lengths[0] + 1323)].allSatisfy { $0 == 0 })
    }

    @Test func templatesSpeakTheirPhrases() throws {
        let built = try BuiltPack()
        let splicer = Splicer(pack: try built.open())
        let reading = try SpeechConverter(style: .spoken, form: .yuan).reading(of: "88")
        let template = Template(name: "wechat", text: "微信收款，{amount}")
        let tokens = template.tokens(around: reading, phrases: ["微信收款"])
        #expect(tokens == ["微信收款", "八", "十", "八", "元", "整"])
        #expect(template.text(around: reading) == "微信收款，八十八元整")
        #expect(try splicer.splice(tokens).samples.count == splicer.frames(for: tokens))
    }

    @Test func theLongestUtteranceIsAtLeastAsLongAsAnyOther() throws {
        let built = try BuiltPack()
        let pack = try built.open()
        let splicer = Splicer(pack: pack)
        let templates = [Template(name: "wechat", text: "微信收款，{amount}")]
        let longest = try #require(
            splicer.longestUtterance(
                styles: ReadingStyle.allCases, forms: AmountForm.allCases, templates: templates, phrases: ["微信收款"]))
        #expect(longest.template == "wechat")
        #expect(longest.frames == (try splicer.frames(for: longest.tokens)))
        #expect(longest.durationMs == Double(longest.frames) / 44.1)
        var generator = SeededRandom(seed: 2_000)
        for _ in 0..<2000 {
            let amount = Amount(fen: Int64.random(in: 0...Amount.maximum.fen, using: &generator))!
            for style in ReadingStyle.allCases {
                for form in AmountForm.allCases {
                    let reading = SpeechConverter(style: style, form: form).reading(of: amount)
                    let frames = try splicer.frames(for: templates[0].tokens(around: reading, phrases: ["微信收款"]))
                    #expect(frames <= longest.frames, "\(amount) \(style.name)/\(form.name) is longer than the longest")
                }
            }
        }
    }
}

extension SplicerTests {
    /// Under `maximumAmount` the longest utterance is the longest of the amounts up to it: none larger, and no
    /// seeded random amount under the bound is longer.
    @Test func theLongestUtteranceStaysUnderTheBound() throws {
        let pack = try BuiltPack().open()
        let splicer = Splicer(pack: pack)
        let bound = try Amount(parsing: "99999999.99")
        let longest = try #require(
            splicer.longestUtterance(
                styles: [.spoken], forms: AmountForm.allCases, templates: [], phrases: [], upTo: bound))
        #expect(longest.amount <= bound)
        #expect(!longest.tokens.contains("亿"))
        var generator = SeededRandom(seed: 36)
        for _ in 0..<2000 {
            let amount = Amount(fen: Int64(generator.unit() * Double(bound.fen + 1)))!
            for form in AmountForm.allCases {
                let tokens = SpeechConverter(style: .spoken, form: form).reading(of: amount).tokens
                #expect(try splicer.frames(for: tokens) <= longest.frames, "\(amount) \(form.name)")
            }
        }
    }
}

/// A pack that is not what it claims is refused, with a message naming what is wrong.
@Suite struct SplicerRefusalTests {
    static func refusal(_ body: () throws -> Void) -> SpliceError? {
        do {
            try body()
            return nil
        } catch let error as SpliceError {
            return error
        } catch {
            return nil
        }
    }

    static func rewriteManifest(_ built: BuiltPack, _ edit: (inout Manifest) -> Void) throws {
        var manifest = try built.pack.manifest()
        edit(&manifest)
        try manifest.canonicalData().write(to: built.manifestURL)
    }

    @Test func pathsThatLeaveThePack() throws {
        let built = try BuiltPack()
        for path in ["../outside.wav", "/etc/passwd", "normalized/../../outside.wav", ""] {
            try Self.rewriteManifest(built) { $0.fragments[0].file = path }
            let error = Self.refusal { _ = try built.open() }
            #expect(error?.kind == .pathOutsidePack, "\(path): \(String(describing: error))")
        }
        // A link inside the pack that points outside it.
        try FileManager.default.createSymbolicLink(
            atPath: built.pack.url("normalized/link.wav").path, withDestinationPath: "/tmp")
        try Self.rewriteManifest(built) { $0.fragments[0].file = "normalized/link.wav/x.wav" }
        #expect(Self.refusal { _ = try built.open() }?.kind == .pathOutsidePack)
    }

    @Test func aNewerSchemaVersion() throws {
        let built = try BuiltPack()
        var text = try String(contentsOf: built.manifestURL, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 2")
        try text.write(to: built.manifestURL, atomically: true, encoding: .utf8)
        let error = Self.refusal { _ = try built.open() }
        #expect(error?.kind == .manifest)
        #expect(error?.message.contains("newer than this assets reads") == true)
    }

    @Test func fragmentBytesThatDoNotMatch() throws {
        let built = try BuiltPack()
        let pack = try built.open()
        let fragment = try #require(pack.fragment(for: "五"))
        var bytes = try Data(contentsOf: built.pack.url(fragment.file))
        bytes[bytes.count - 10] ^= 0x01
        try bytes.write(to: built.pack.url(fragment.file))
        let error = Self.refusal { _ = try pack.audio(for: "五") }
        #expect(error?.kind == .checksumMismatch)
        #expect(error?.subject == fragment.file)
        // Other fragments still play.
        #expect(throws: Never.self) { _ = try pack.audio(for: "六") }
    }

    /// An app built from a clone that kept its fragments in Git LFS and did not fetch them ships pointers: the
    /// splicer says so, and what fetches them, where a digest mismatch would send the team to rebuild the pack.
    @Test func aFragmentThatIsAGitLFSPointer() throws {
        let built = try BuiltPack()
        let pack = try built.open()
        let fragment = try #require(pack.fragment(for: "五"))
        let bytes = try Data(contentsOf: built.pack.url(fragment.file))
        let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:\(fragment.sha256)\nsize \(bytes.count)\n"
        try Data(pointer.utf8).write(to: built.pack.url(fragment.file))
        let error = try #require(Self.refusal { _ = try pack.audio(for: "五") })
        #expect(error.kind == .notFetched)
        #expect(
            error.description
                == "\(fragment.file): it is a Git LFS pointer, not the audio: this copy of the pack did not fetch it: run `git lfs pull`"
        )
        let read = try #require(GitLFSPointer(Data(pointer.utf8)))
        #expect(read.oid == fragment.sha256 && read.size == bytes.count)
        #expect(GitLFSPointer(bytes) == nil)
        #expect(GitLFSPointer(Data(pointer.replacingOccurrences(of: "sha256:", with: "sha1:").utf8)) == nil)
        #expect(throws: Never.self) { _ = try pack.audio(for: "六") }
    }

    @Test func aFormatOtherThanTheManifests() throws {
        let built = try BuiltPack()
        try Self.rewriteManifest(built) { $0.format.sampleFormat = .pcm24 }
        let error = Self.refusal { _ = try built.open().audio(for: "一") }
        #expect(error?.kind == .formatMismatch)
    }

    @Test func aTokenWithNoFragment() throws {
        let built = try BuiltPack()
        let splicer = Splicer(pack: try built.open())
        let error = Self.refusal { _ = try splicer.splice(["一", "兆"]) }
        #expect(
            error
                == SpliceError(
                    .missingFragment, "兆", "no fragment plays this token: add one, or an alias, and run `assets build`")
        )
        #expect(Self.refusal { _ = try splicer.frames(for: ["兆"]) }?.kind == .missingFragment)
    }
}

/// The extension's folder of spliced sounds stays small: the newest few are kept, by content name, and the
/// folder's other files are left alone.
@Suite struct NotificationSoundsTests {
    @Test func theNewestSoundsAreKeptAndNothingElseIsRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sounds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sounds = NotificationSounds(folder: folder, keeping: 3)
        let digest: FragmentDigest = { SHA256.hex(of: $0) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("the app's own".utf8).write(to: folder.appendingPathComponent("chime.caf"))

        var names: [String] = []
        for index in 0..<5 {
            names.append(try sounds.write(Data("sound \(index)".utf8), digest: digest, extension: "wav"))
        }
        #expect(names[0] == Splicer.contentName(of: Data("sound 0".utf8), digest: digest, extension: "wav"))
        func present() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        }
        #expect(try present() == Set(names[2...] + ["chime.caf"]))
        // The same sound again: not written twice, and now the newest, so the oldest other one goes next.
        #expect(try sounds.write(Data("sound 2".utf8), digest: digest, extension: "wav") == names[2])
        let sixth = try sounds.write(Data("sound 5".utf8), digest: digest, extension: "wav")
        #expect(try present() == Set([names[4], names[2], sixth, "chime.caf"]))
        #expect(try Data(contentsOf: folder.appendingPathComponent(sixth)) == Data("sound 5".utf8))
    }
}
