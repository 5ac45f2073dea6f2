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
        ("", "1:1: the file is empty"),
        (" \n", "2:1: the file is empty"),
        ("[1,]", "1:4: a comma before ']': JSON allows none after the last item, remove it"),
        ("{\"a\": 1,\n}", "2:1: a comma before '}': JSON allows none after the last member, remove it"),
        ("{'a': 1}", "1:2: expected a key in double quotes, not '''"),
        ("{styles: 1}", "1:2: expected a key in double quotes, not 's'"),
        ("{\"a\": 1,", "1:9: the document ends inside an object"),
        ("[1, ", "1:5: the document ends where a value should be"),
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

    /// One key spelt NFC and NFD is one key twice: the parser refuses it, so no reader of its values must.
    @Test func aKeyInTwoNormalizationsIsADuplicate() {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONNode.parse("{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}")
        }
        #expect(error?.message.contains("appears twice in one object") == true, "\(String(describing: error))")
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
