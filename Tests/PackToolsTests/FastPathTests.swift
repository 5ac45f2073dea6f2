import Foundation
import PackManifest
import Testing
import VoicePack

@testable import PackTools

/// The build's shortcut (FastPaths.swift): a manifest split into its fragments' texts and put back together.
@Suite struct FastPathTests {
    static func fragment(_ token: String, warnings: [String] = []) -> Manifest.Fragment {
        Manifest.Fragment(
            token: token, file: "normalized/\(token).wav", frames: 44_100, durationMs: 1000, sha256: "ab",
            loudnessPhon: 89.01,
            loudnessLUFS: -16, truePeakDBTP: -1.12, gainDB: 3.456, limiterReductionDB: 0, trimmedHeadMs: 10.5,
            trimmedTailMs: 0, headDBFS: -12.5, tailDBFS: -14, warnings: warnings,
            source: Manifest.Source(
                file: "raw-audio/\(token).flac", sha256: "cd", size: 1234, sampleRate: 48_000, channels: 2,
                format: "flac/pcm24", frames: 48_000, durationMs: 1000, loudnessLUFS: -20.5, truePeakDBTP: -3,
                noiseFloorDBFS: -.infinity, clippedSamples: 0, channelDecision: "mixed channels 1+2"))
    }

    /// Tokens and warnings with quotes, backslashes, line breaks, slashes and the list's own opening in them.
    static let manifest = Manifest(
        format: AudioFormat(), loudness: Manifest.LoudnessTarget(targetLUFS: -16, truePeakCeilingDBTP: -1),
        processing: Manifest.Processing(Settings()), styles: ["spoken"], forms: ["yuan"],
        aliases: ["億": "亿", "〇": "零"], templates: ["alipay": "支付宝到账{amount}", "odd": "a/b \"c\"\n  \"fragments\": ["],
        fragments: [
            fragment("一"), fragment("元", warnings: ["noisy: \"quoted\"\nand\\slashed/"]),
            fragment("say \"hi\""), fragment("back\\slash"), fragment("\n    }"),
        ])

    /// Written fragment by fragment, a manifest is the same bytes as encoding it whole.
    @Test func fragmentByFragmentIsTheWholeEncoding() throws {
        let texts = Self.manifest.fragments.map { Manifest.canonicalText(of: $0)[...] }
        #expect(Manifest.canonicalData(header: Self.manifest, fragmentTexts: texts) == Self.manifest.canonicalData())
        var empty = Self.manifest
        empty.fragments = []
        #expect(Manifest.canonicalData(header: empty, fragmentTexts: []) == empty.canonicalData())
    }

    /// The texts split from a manifest are its fragments, by token, and put back give the same bytes.
    @Test func splitsIntoFragmentTextsAndBack() throws {
        let data = [UInt8](Self.manifest.canonicalData())
        let texts = try #require(Manifest.fragmentTexts(in: data))
        #expect(Set(texts.keys) == Set(Self.manifest.fragments.map(\.token)))
        for fragment in Self.manifest.fragments {
            #expect(try Manifest.decodeFragment(texts[fragment.token]!) == fragment)
        }
        let again = Manifest.canonicalData(
            header: Self.manifest, fragmentTexts: Self.manifest.fragments.map { texts[$0.token]! })
        #expect([UInt8](again) == data)
    }

    /// Text not laid out as assets writes it is not split: the build decodes it instead.
    @Test func otherLayoutsAreNotSplit() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(Manifest.fragmentTexts(in: [UInt8](try encoder.encode(Self.manifest))) == nil)
        var data = [UInt8](Self.manifest.canonicalData())
        let shifted = [UInt8](
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n    }", with: "\n   }").utf8)
        #expect(Manifest.fragmentTexts(in: shifted) == nil)
        // Cut short inside the list.
        let listEnd = try #require(String(decoding: data, as: UTF8.self).range(of: "\n  ],")).lowerBound
        data.removeLast(String(decoding: data, as: UTF8.self)[listEnd...].utf8.count + 3)
        #expect(Manifest.fragmentTexts(in: data) == nil)
    }
}
