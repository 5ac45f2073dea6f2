import AudioPipeline
import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import Testing

/// `assets say` over a pack built by `assets build`.
@Suite struct SayEndToEndTests {
    static func builtPack() throws -> BuildEndToEndTests.Folder {
        let pack = BuildEndToEndTests.Folder()
        for stem in ["digit_8", "unit_shi", "unit_yuan", "unit_zheng", "phrase_wechat"] {
            try pack.record("\(stem).wav")
        }
        try pack.write(
            "assets.json",
            #"{"phrases": {"phrase_wechat": "微信收款"}, "templates": {"wechat": "微信收款，{amount}"}, "splice": {"crossfadeMs": 0}}"#
        )
        let build = InProcess.run(["build"], in: pack.url)
        precondition(build.status == 0, build.stderr)
        return pack
    }

    @Test func printsTheDurationTheSoundWouldHave() throws {
        let pack = try Self.builtPack()
        let run = InProcess.run(["say", "88", "--template", "wechat"], in: pack.url)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "微信收款，八十八元整")
        #expect(lines[1] == "微信收款 八 十 八 元 整")
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: pack.url.appendingPathComponent("manifest.json")))
            as! [String: Any]
        let frames = Dictionary(
            uniqueKeysWithValues: (manifest["fragments"] as! [[String: Any]]).map {
                ($0["token"] as! String, $0["frames"] as! Int)
            })
        let total = ["微信收款", "八", "十", "八", "元", "整"].map { frames[$0]! }.reduce(0, +)
        #expect(lines[2] == String(format: "%.0f ms", Double(total) / 44.1))
    }

    @Test func writesTheSoundAndNamesItByContent() throws {
        let pack = try Self.builtPack()
        let run = InProcess.run(["say", "88", "-o", "out.caf", "--format", "json"], in: pack.url)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(object["file"] as? String == "out.caf")
        let file = try SoundFile.open(reading: pack.url.appendingPathComponent("out.caf").path, name: "out.caf")
        #expect(file.info.format == FileFormat(container: "caf", encoding: "pcm16") && file.info.channels == 1)
        #expect(abs(Double(file.info.frames) / 44.1 - (object["durationMs"] as! Double)) < 0.05)

        let first = InProcess.run(["say", "88", "-o", "sounds", "--name-by-content"], in: pack.url)
        let second = InProcess.run(["say", "80", "-o", "sounds", "--name-by-content"], in: pack.url)
        let again = InProcess.run(["say", "88", "-o", "sounds", "--name-by-content"], in: pack.url)
        let name = { (run: AssetsProcess.Result) in run.stdout.split(separator: "\n").last.map(String.init) ?? "" }
        #expect(name(first).hasPrefix("wrote sounds/amount-") && name(first).hasSuffix(".wav"))
        #expect(name(first) != name(second))
        #expect(name(first) == name(again))
    }

    /// A pack that covers the decimal form only, up to a maximum amount: `say` reads in the pack's form without
    /// being told, refuses an amount over the bound (exit 2, naming the setting) and says the bound itself.
    @Test func sayFollowsThePacksFormAndBound() throws {
        let pack = BuildEndToEndTests.Folder()
        for stem in ["digit_8", "digit_5", "digit_9", "unit_shi", "unit_yuan", "unit_dian"] {
            try pack.record("\(stem).wav")
        }
        try pack.write("assets.json", #"{"styles": ["spoken"], "forms": ["decimal"], "maximumAmount": "99999999.99"}"#)
        #expect(InProcess.run(["build"], in: pack.url).status == 0)

        let decimal = InProcess.run(["say", "88.5"], in: pack.url)
        #expect(decimal.status == 0, "\(decimal.stderr)")
        #expect(decimal.stdout.hasPrefix("八十八点五元\n八 十 八 点 五 元\n"))
        // A form asked for wins, and this pack has no 角 for it.
        let asked = InProcess.run(["say", "88.5", "--form", "yuan"], in: pack.url)
        #expect(asked.status == 1 && asked.stderr.contains("角"), "\(asked.stderr)")

        let over = InProcess.run(["say", "100000000"], in: pack.url)
        #expect(over.status == 2)
        #expect(over.stdout.isEmpty)
        #expect(over.stderr.contains("maximumAmount in assets.json is 99999999.99"), "\(over.stderr)")
        // The bound itself is said (by the settings alone: this small pack has no 千).
        let settingsOnly = BuildEndToEndTests.Folder()
        try settingsOnly.write("assets.json", #"{"forms": ["decimal"], "maximumAmount": 99999999.99}"#)
        let top = InProcess.run(["say", "99999999.99"], in: settingsOnly.url)
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stdout.hasPrefix("九千九百九十九万九千九百九十九点九九元\n"))
    }

    /// What the app's extension does (README, "Adding it to an app") gives the sound `assets say` writes, byte for
    /// byte, on a pack whose settings are not the splicer's defaults: it reads the pack's form and its joins from
    /// the manifest.
    @Test func theAppSaysWhatSayWrites() throws {
        let pack = BuildEndToEndTests.Folder()
        for stem in ["digit_8", "digit_5", "unit_shi", "unit_yuan", "unit_dian", "phrase_wechat"] {
            try pack.record("\(stem).wav")
        }
        try pack.write(
            "assets.json",
            #"{"styles": ["spoken"], "forms": ["decimal"], "splice": {"gapMs": 40}, "maximumAmount": "99.99", "phrases": {"phrase_wechat": "微信收款"}, "templates": {"wechat": "微信收款，{amount}"}}"#
        )
        #expect(InProcess.run(["build"], in: pack.url).status == 0)
        let said = InProcess.run(["say", "88.5", "--template", "wechat", "-o", "said.wav"], in: pack.url)
        #expect(said.status == 0, "\(said.stderr)")

        // The extension's code, as the README gives it (SHA-256 by OpenSSL here, by CryptoKit on the phone).
        let soundPack = try SoundPack(
            manifestAt: pack.url.appendingPathComponent("manifest.json"), digest: { SHA256.hex(of: $0) })
        #expect(soundPack.manifest.splice == Manifest.Splice(gapMs: 40, crossfadeMs: 5))
        let reading = try soundPack.reading(of: Amount(parsing: "88.5"))
        let template = Template(name: "wechat", text: soundPack.manifest.templates["wechat"] ?? "{amount}")
        let phrases = Set(soundPack.manifest.fragments.map(\.token).filter { $0.count > 1 })
        let splicer = Splicer(pack: soundPack)
        let data = splicer.fileData(try splicer.splice(template.tokens(around: reading, phrases: phrases)))
        #expect(template.text(around: reading) == "微信收款，八十八点五元")
        #expect(data == (try Data(contentsOf: pack.url.appendingPathComponent("said.wav"))))
        // Named as `say --name-by-content` names it.
        let sounds = NotificationSounds(folder: pack.url.appendingPathComponent("Library/Sounds"))
        let name = try sounds.write(data, digest: { SHA256.hex(of: $0) }, extension: "wav")
        let byContent = InProcess.run(
            ["say", "88.5", "--template", "wechat", "-o", "named", "--name-by-content"], in: pack.url)
        #expect(byContent.stdout.contains("named/\(name)"), "\(byContent.stdout)")
        // Over the bound the pack was checked to, the app is told so (and plays its default sound).
        #expect(soundPack.maximumAmount == (try Amount(parsing: "99.99")))
        let hundred = try Amount(parsing: "100")
        let refused = #expect(throws: SpliceError.self) { try soundPack.reading(of: hundred) }
        #expect(refused?.kind == .overMaximumAmount)
        #expect(
            refused?.description == "100: more than the pack says: its maximumAmount is 99.99; play the default sound")
    }

    @Test func aMissingFragmentOrPackIsNamed() throws {
        let pack = try Self.builtPack()
        let missing = InProcess.run(["say", "99", "-o", "out.wav"], in: pack.url)
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "assets say: 九: no fragment plays this token: add one, or an alias, and run `assets build`\n")
        let noPack = InProcess.run(["say", "1", "--manifest", "nowhere.json"], in: pack.url)
        #expect(noPack.status == 1)
        #expect(noPack.stderr.contains("nowhere.json: no such manifest"))
        let template = InProcess.run(["say", "1", "--template", "alipay"], in: pack.url)
        #expect(template.status == 2)
        #expect(template.stderr.contains("unknown template 'alipay': use one of wechat"))
    }

    @Test func withoutAPackItStillReads() throws {
        let run = InProcess.run(["say", "200"])
        #expect(run.status == 0)
        #expect(run.stdout == "两百元整\n两 百 元 整\n")
    }
}
