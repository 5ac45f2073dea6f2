import Foundation
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
