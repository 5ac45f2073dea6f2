import Foundation
import PackManifest
import Testing
import VoicePack

@Suite struct JSONTests {
    @Test func parsesAndWritesCanonically() throws {
        let node = try JSONNode.parse(
            #"{"b": [1, 2.50, -3e2], "a": {"z": null, "y": true}, "s": "引号\"\n\u00e9\ud83d\ude00"}"#)
        #expect(
            node.canonicalText == """
                {
                  "a": {
                    "y": true,
                    "z": null
                  },
                  "b": [
                    1,
                    2.50,
                    -3e2
                  ],
                  "s": "引号\\"\\né😀"
                }

                """)
        // Writing what was written gives the same bytes.
        #expect(try JSONNode.parse(node.canonicalText).canonicalText == node.canonicalText)
    }

    @Test(arguments: [
        ("", "1:1: the document ends where a value should be"),
        ("[1,]", "1:4: unexpected ']' where a value should be"),
        ("{\"a\" 1}", "1:6: expected ':' after the key 'a'"),
        ("\"abc", "1:5: the document ends inside a string"),
        ("[01]", "1:3: expected ',' or ']' in a list"),
        ("tru", "1:4: unexpected end in 'true'"),
        ("{} x", "1:4: unexpected 'x' after the end of the document"),
        ("\"\\q\"", "1:2: unknown escape '\\q' in a string"),
    ])
    func reportsWhereTheTextGoesWrong(text: String, expected: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONNode.parse(text) }
        do { _ = try JSONNode.parse(text) } catch { #expect(error.description == expected) }
    }

    /// A string without escapes is read in one piece, one with an escape a scalar at a time: both give the
    /// same text, for scalars of every UTF-8 length and for the empty string.
    @Test func plainAndEscapedStringsReadTheSame() throws {
        let texts = ["", "a", "phrase_0001", "é", "元", "😀", "微信收款，{amount}", String(repeating: "億", count: 300)]
        for text in texts {
            #expect(try JSONNode.parse("\"\(text)\"").value == .string(text))
            // The same text with its first scalar escaped as \uXXXX (a surrogate pair beyond the BMP).
            guard let first = text.unicodeScalars.first else { continue }
            let escaped =
                first.utf16.map { String(format: "\\u%04x", $0) }.joined() + String(text.unicodeScalars.dropFirst())
            #expect(try JSONNode.parse("\"\(escaped)\"").value == .string(text), "\(escaped)")
        }
        // A control character or a line break inside a string is refused where it stands.
        let control = #expect(throws: JSONSyntaxError.self) { try JSONNode.parse("\"ab\u{01}cd\"") }
        #expect(control?.description == "1:4: a control character inside a string")
        let lineBreak = #expect(throws: JSONSyntaxError.self) { try JSONNode.parse("[\"元\ncd\"]") }
        #expect(lineBreak?.description == "1:4: a line break inside a string: close the string with '\"'")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONNode.parse(deep) }
    }
}

@Suite struct JSONLayoutTests {
    /// The fast layout of compact, sorted JSON is exactly the canonical text of the parsed value.
    @Test func layoutEqualsTheCanonicalText() throws {
        let compact = #"{"a":{"y":true,"z":null},"b":[1,2.5,-3e2,[],{}],"e":{},"s":"引号\"\n, : { [ é","t":[]}"#
        let laid = String(decoding: JSONLayout.indented(Data(compact.utf8)), as: UTF8.self)
        #expect(laid == (try JSONNode.parse(compact)).canonicalText)
    }
}

@Suite struct ManifestTextTests {
    static func fragment(_ token: String, warnings: [String] = []) -> Manifest.Fragment {
        Manifest.Fragment(
            token: token, file: "normalized/\(token).wav", frames: 44_100, durationMs: 1000, sha256: "ab", loudnessPhon: 89.01,
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(Self.manifest.canonicalData() == JSONLayout.indented(try encoder.encode(Self.manifest)))
        var empty = Self.manifest
        empty.fragments = []
        #expect(empty.canonicalData() == JSONLayout.indented(try encoder.encode(empty)))
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
