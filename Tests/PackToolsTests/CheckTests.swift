import Foundation
import PackManifest
import PackTools
import SpeechText
import TestSupport
import Testing
import VoicePack

/// A pack covering spoken/yuan and one template, built from recordings made by code.
func coveredPack() throws -> TestPack {
    let pack = TestPack()
    pack.settings.styles = [.spoken]
    pack.settings.forms = [.yuan]
    pack.settings.phrases = ["phrase_wechat": "微信收款"]
    pack.settings.templates = ["wechat": "微信收款{amount}"]
    for (stem, token) in Naming.defaultStems where token != "点" {
        try pack.deliver("\(stem).wav", .init(vowelSeconds: 0.2))
    }
    try pack.deliver("phrase_wechat.wav", .init(vowelSeconds: 0.8))
    let outcome = try pack.build()
    precondition(outcome.failures.isEmpty, "\(outcome.failures)")
    return pack
}

@Suite struct CheckTests {
    func check(_ pack: TestPack) -> CheckReport { PackChecker.check(paths: pack.paths, settings: pack.settings) }

    /// `check.errors` names kinds of finding as `category/kind`: each one a category and a kind `check` has.
    @Test func everyKindCheckErrorsNamesIsOneCheckReports() {
        for named in Settings.WarningKind.allCases {
            let parts = named.rawValue.split(separator: "/").map(String.init)
            #expect(
                parts.count == 2 && Diagnostic.Category(rawValue: parts[0]) != nil
                    && Diagnostic.Kind(rawValue: parts[1]) != nil, "\(named.rawValue)")
        }
    }

    @Test func aGoodPackPasses() throws {
        let report = check(try coveredPack())
        #expect(report.passed, "\(report.findings)")
        #expect(report.findings.isEmpty)
        #expect(report.fragmentCount == 21)
        #expect(report.longestUtterance?.template == "wechat")
        // A case per fragment file, recording, token, fragment sound, and the budget.
        #expect(report.cases.filter { $0.category == .coverage }.count == 21)
        #expect(report.cases.filter { $0.category == .manifest }.count == 21)
        #expect(report.cases.filter { $0.category == .budget }.count == 1)
    }

    /// Every fragment of the pack is needed: without any one, check names the token and an amount.
    @Test func removingAnyOneFragmentFails() throws {
        let pack = try coveredPack()
        let recordings = try FileManager.default.contentsOfDirectory(atPath: pack.url("raw-audio").path).sorted()
        let held = pack.url("held")
        try FileManager.default.createDirectory(at: held, withIntermediateDirectories: true)
        for name in recordings {
            try FileManager.default.moveItem(at: pack.url("raw-audio/\(name)"), to: held.appendingPathComponent(name))
            _ = try pack.build()
            let report = check(pack)
            let coverage = report.errors.filter { $0.category == .coverage }
            #expect(coverage.count == 1, "\(name): \(report.errors)")
            let token = Naming(settings: pack.settings).token(forStem: (name as NSString).deletingPathExtension)!
            #expect(coverage.first?.subject == .token(token.text))
            if token.text.count == 1 {
                #expect(coverage.first?.message.contains("in style spoken/yuan: ") == true, "\(coverage)")
            } else {
                #expect(coverage.first?.message.contains("template wechat") == true, "\(coverage)")
            }
            #expect(coverage.first?.fix.contains("raw-audio/\((name as NSString).deletingPathExtension).wav") == true)
            try FileManager.default.moveItem(at: held.appendingPathComponent(name), to: pack.url("raw-audio/\(name)"))
        }
        _ = try pack.build()
        #expect(check(pack).passed)
    }

    /// Missing tokens are listed as a person reads them (壹 贰 叁 …), not by code point (仟 伍 佰 …), in check and
    /// in the audit's coverage.
    @Test func missingTokensComeInReadingOrder() throws {
        let pack = try coveredPack()
        pack.settings.styles = [.spoken, .financial]
        let report = check(pack)
        let missing = report.errors.filter { $0.category == .coverage }.map(\.subject.text)
        #expect(missing.joined() == "壹贰叁肆伍陆柒捌玖拾佰仟")
        #expect(report.coverageByStyleForm.map(\.name) == ["spoken/yuan", "financial/yuan"])
        #expect(report.coverageByStyleForm.map { $0.missing.map(\.text).joined() } == ["", "壹贰叁肆伍陆柒捌玖拾佰仟"])
        let audit = PackAuditor.audit(paths: pack.paths, settings: pack.settings)
        let financial = try #require(audit.coverage.first { $0.name == "financial/yuan" })
        #expect(financial.needed.map(\.text).joined() == "零壹贰叁肆伍陆柒捌玖拾佰仟万亿元角分整")
    }

    @Test func theMessageShowsTheSmallestAmountThatNeedsIt() throws {
        let pack = try coveredPack()
        pack.settings.styles = [.spoken, .formatter]
        let report = check(pack)
        let gap = try #require(report.errors.first { $0.category == .coverage && $0.subject.text == "〇" })
        #expect(gap.message.contains("e.g. 1.01 in style formatter/yuan: 一元〇一分"))
        #expect(
            gap.fix
                == #"add raw-audio/〇.wav, or let 零 say it, which sounds the same ("aliases": {"〇": "零"} in assets.json), and run `assets build`"#
        )
        // With the alias, 零's fragment serves it.
        pack.settings.aliases = ["〇": "零"]
        let aliased = check(pack)
        #expect(!aliased.errors.contains { $0.category == .coverage })
        // The settings changed since the build: the pack is stale until it is built again.
        #expect(aliased.errors.map(\.category) == [.stale])
        _ = try pack.build()
        #expect(check(pack).passed)
    }

    /// A pack without 两 is offered the alias apps without a 两 use, 二, while it has a 二; then only the recording.
    @Test func aMissingTokenIsOfferedTheTokenThatSaysIt() throws {
        let pack = try coveredPack()
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_liang.wav"))
        _ = try pack.build()
        let liang = try #require(check(pack).errors.first { $0.subject.text == "两" })
        #expect(
            liang.fix
                == #"add raw-audio/digit_liang.wav, or let 二 say it, as apps without a 两 do, 二百 for 两百 ("aliases": {"两": "二"} in assets.json), and run `assets build`"#
        )
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_2.wav"))
        _ = try pack.build()
        let alone = try #require(check(pack).errors.first { $0.subject.text == "两" })
        #expect(alone.fix == "add raw-audio/digit_liang.wav, or an alias in assets.json, and run `assets build`")
    }

    @Test func aChangedByteInAFragment() throws {
        let pack = try coveredPack()
        let url = pack.url("normalized/digit_5.wav")
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 3] ^= 0x40
        try bytes.write(to: url)
        let errors = check(pack).errors
        #expect(errors.count == 1)
        #expect(errors.first?.subject.text == "normalized/digit_5.wav")
        #expect(errors.first?.message.contains("do not match the manifest's sha256") == true)
    }

    /// A clone whose Git LFS audio was not fetched (a CI checkout without LFS): check and build say that, and how
    /// to fetch it, where they would say "changed since the build" and "format not recognised".
    @Test func aCloneWithoutItsLFSAudioSaysSo() throws {
        let pack = try coveredPack()
        let pointer = Data(
            "version https://git-lfs.github.com/spec/v1\noid sha256:\(String(repeating: "ab", count: 32))\nsize 41000\n"
                .utf8)
        try pointer.write(to: pack.url("raw-audio/digit_5.wav"))
        try pointer.write(to: pack.url("normalized/digit_7.wav"))
        let errors = check(pack).errors
        #expect(
            errors.map(\.description).sorted() == [
                "normalized/digit_7.wav: error: [manifest/file] it is a Git LFS pointer, not the audio itself: this clone did not fetch it: run `git lfs pull` (on GitHub Actions, check out with `lfs: true`)",
                "raw-audio/digit_5.wav: error: [audio/unreadable] it is a Git LFS pointer, not the audio itself: this clone did not fetch it: run `git lfs pull` (on GitHub Actions, check out with `lfs: true`)",
            ])

        let before = pack.snapshot()
        let outcome = try pack.build()
        #expect(
            outcome.failures.map(\.description) == [
                "raw-audio/digit_5.wav: error: [audio/unreadable] it is a Git LFS pointer, not the audio itself: this clone did not fetch it: run `git lfs pull` (on GitHub Actions, check out with `lfs: true`)"
            ])
        #expect(pack.snapshot() == before)
    }

    /// The manifest says how the app joins fragments; one written before it did joins as the splicer's defaults
    /// do, so it is stale only where the settings join otherwise.
    @Test func aManifestWithoutItsJoinsIsStaleOnlyWhereTheSettingsJoinOtherwise() throws {
        let pack = try coveredPack()
        #expect(try pack.manifest().splice == Manifest.Splice(gapMs: 0, crossfadeMs: 5))
        var older = try pack.manifest()
        older.splice = nil
        try older.canonicalData().write(to: pack.paths.manifest)
        #expect(!String(decoding: try Data(contentsOf: pack.paths.manifest), as: UTF8.self).contains("splice"))
        #expect(check(pack).errors.isEmpty, "\(check(pack).errors)")
        pack.settings.splice.gapMs = 30
        #expect(
            check(pack).errors.map(\.message) == [
                "stale pack: the settings changed since the build (splice.gapMs 0 → 30)"
            ])
    }

    @Test func aMissingFragmentFile() throws {
        let pack = try coveredPack()
        try FileManager.default.removeItem(at: pack.url("normalized/digit_5.wav"))
        let errors = check(pack).errors
        #expect(
            errors.map(\.description) == [
                "normalized/digit_5.wav: error: [manifest/file] listed in the manifest, but missing: run `assets build`"
            ])
    }

    @Test func aChangedRecording() throws {
        let pack = try coveredPack()
        try pack.deliver("digit_7.wav", .init(levelDB: -10, vowelSeconds: 0.2))
        let errors = check(pack).errors
        #expect(
            errors.map(\.description) == [
                "raw-audio/digit_7.wav: error: [stale/recording] stale pack: the recording changed since the build: run `assets build`"
            ])
    }

    @Test func newAndRemovedRecordings() throws {
        let pack = try coveredPack()
        try pack.deliver("億.wav")
        try FileManager.default.removeItem(at: pack.url("raw-audio/digit_9.wav"))
        let messages = check(pack).errors.map(\.description)
        #expect(
            messages.contains(
                "raw-audio/億.wav: error: [stale/recording] stale pack: a new recording, not built yet: run `assets build`"
            ))
        #expect(
            messages.contains(
                "raw-audio/digit_9.wav: error: [stale/recording] stale pack: the recording of 九 was removed: run `assets build`, or put it back"
            ))
    }

    @Test func aManifestWhoseFormatIsNotTheFiles() throws {
        let pack = try coveredPack()
        var manifest = try pack.manifest()
        manifest.format.sampleFormat = .pcm24
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let errors = check(pack).errors
        let manifestErrors = errors.filter { $0.category == .manifest }
        #expect(manifestErrors.count == 21)
        #expect(manifestErrors.first?.message.contains("the manifest's format is wav/pcm24") == true)
        // The stale message names the field, the manifest's value and the settings'.
        #expect(
            errors.contains {
                $0.category == .stale
                    && $0.message.hasSuffix(
                        #"the settings changed since the build (format.sampleFormat "pcm24" → "pcm16")"#)
            }, "\(errors)")
    }

    @Test func aChangedSettingIsNamedFieldByField() throws {
        let pack = try coveredPack()
        pack.settings.loudness.targetLUFS = -20
        pack.settings.templates["shop"] = "收款{amount}"
        let stale = check(pack).errors.filter { $0.category == .stale }
        #expect(stale.count == 1)
        // The fragments' target is the settings' plus the gain the build measured for this pack (not a setting,
        // so not named as one).
        let built = try pack.manifest().loudness.measure.targetPhon
        let target = "\(built) → \(built - 4)"
        #expect(
            stale.first?.message
                == #"stale pack: the settings changed since the build (loudness.measure.targetPhon "#
                + target + #"; loudness.targetLUFS -16 → -20; templates.shop none → "收款{amount}")"#
        )
    }

    @Test func namingProblems() throws {
        let pack = try coveredPack()
        try pack.deliver("hello.wav")
        try pack.deliver("一.flac", .init(container: "flac", encoding: "pcm16"))
        pack.settings.aliases = ["〇": "甲", "甲": "〇", "壹": "贰"]
        let messages = check(pack).errors.filter { $0.category == .naming }.map(\.description)
        #expect(
            messages.contains { $0.hasPrefix("raw-audio/hello.wav: error: [naming/unnamed] 'hello' names no token") })
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "raw-audio/digit_1.wav, raw-audio/一.flac: error: [naming/duplicate] 2 files for the token 一")
            })
        #expect(messages.contains { $0.contains("the aliases go round in a cycle") })
        #expect(messages.contains { $0.hasPrefix("壹 → 贰: error: [naming/alias] an alias to 贰, which has no fragment") })
    }

    @Test func soundOutOfBounds() throws {
        let pack = try coveredPack()
        var manifest = try pack.manifest()
        manifest.fragments[0].loudnessPhon -= 1.2
        manifest.fragments[4].loudnessPhon -= 0.9
        manifest.fragments[5].loudnessPhon += 1.5
        manifest.fragments[5].limiterReductionDB = pack.settings.loudness.maximumLimitingDB
        manifest.fragments[1].truePeakDBTP = -0.5
        manifest.fragments[2].source.clippedSamples = 12
        manifest.fragments[3].durationMs = 20
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let sound = check(pack).findings.filter { $0.category == .sound }
        // 0.9 phon is under the just-noticeable difference (loudness.toleranceLU 1); a fragment the limiter's
        // ceiling held back is a warning, for a designer to hear.
        #expect(sound.count == 5, "\(sound)")
        let quiet = try #require(sound.first { $0.subject.text == manifest.fragments[0].file })
        #expect(quiet.severity == .error && quiet.message.contains("phon quieter than the pack's median"), "\(quiet)")
        #expect(!sound.contains { $0.subject.text == manifest.fragments[4].file })
        let limited = try #require(sound.first { $0.subject.text == manifest.fragments[5].file })
        #expect(limited.severity == .warning && limited.message.hasSuffix("at the limiter's 12.0 dB ceiling"))
        let clipped = try #require(
            sound.first {
                $0.message
                    == "\(manifest.fragments[2].token): it is clipped: 12 samples flat at full scale, cut off when it was recorded or exported"
            })
        #expect(clipped.severity == .warning && clipped.subject.text == manifest.fragments[2].source.file)
    }

    /// At a loud target the limiter's ceiling can hold most of a pack under it (a real pack at −12 LUFS: 9 of its
    /// 16 fragments). The fragments that reached the target are the pack's level: they raise nothing, and the
    /// ones held back are warnings measured against them — not errors on the good ones, "louder" than a median the
    /// held-back fragments pulled down.
    @Test func fragmentsHeldAtTheCeilingDoNotSetThePacksLevel() throws {
        let pack = try coveredPack()
        var manifest = try pack.manifest()
        let held = manifest.fragments.count / 2 + 1
        for index in 0..<held {
            manifest.fragments[index].loudnessPhon -= 2
            manifest.fragments[index].limiterReductionDB = pack.settings.loudness.maximumLimitingDB
        }
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let sound = check(pack).findings.filter { $0.category == .sound }
        #expect(Set(sound.map(\.subject.text)) == Set(manifest.fragments[0..<held].map(\.file)), "\(sound)")
        #expect(sound.allSatisfy { $0.severity == .warning && $0.message.contains("2.0 phon quieter") }, "\(sound)")
        let reached = manifest.fragments.count - held
        #expect(
            sound.allSatisfy {
                $0.message.contains("over the \(reached) fragments the limiter's ceiling did not hold back")
            })

        // All but one held back (the shipped pack at −12 LUFS: 22 of 23): the one that reached the target is right,
        // and the others are measured against the target the build aimed at.
        let all = manifest.fragments.count
        for index in 0..<(all - 1) {
            manifest.fragments[index].loudnessPhon = manifest.loudness.measure.targetPhon - 2
            manifest.fragments[index].limiterReductionDB = pack.settings.loudness.maximumLimitingDB
        }
        manifest.fragments[all - 1].loudnessPhon = manifest.loudness.measure.targetPhon
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let mostlyHeld = check(pack).findings.filter { $0.category == .sound }
        #expect(mostlyHeld.count == all - 1 && mostlyHeld.allSatisfy { $0.severity == .warning }, "\(mostlyHeld)")
        let target = String(format: "%.1f", manifest.loudness.measure.targetPhon)
        #expect(
            mostlyHeld.allSatisfy {
                $0.message.contains(
                    "2.0 phon quieter than the target, \(target) phon (the limiter's ceiling held back \(all - 1) of the \(all) fragments)"
                )
            }, "\(mostlyHeld)")
    }

    @Test func theBudget() throws {
        let pack = try coveredPack()
        pack.settings.limits.utteranceWarningSeconds = 1
        let warning = try #require(check(pack).findings.first { $0.category == .budget })
        #expect(warning.severity == .warning)
        // Thirty seconds of template: iOS would play the default sound.
        pack.settings.templates = ["long": String(repeating: "微信收款", count: 40) + "{amount}"]
        _ = try pack.build()
        let error = try #require(check(pack).errors.first { $0.category == .budget })
        #expect(error.message.contains("iOS plays the default sound instead of one of 30 s or more"))
    }

    @Test func noManifestOrABrokenOne() throws {
        let pack = TestPack()
        #expect(check(pack).errors.map(\.message) == ["there is no manifest"])
        try Data("{\n  \"schemaVersion\": 1,\n".utf8).write(to: pack.url("manifest.json"))
        #expect(check(pack).errors.first?.message.contains("not valid JSON at 3:1") == true)
        try Data(#"{"schemaVersion": 7}"#.utf8).write(to: pack.url("manifest.json"))
        #expect(check(pack).errors.first?.message.contains("newer than this assets reads") == true)
    }
}
