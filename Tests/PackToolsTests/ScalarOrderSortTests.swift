import SpeechText
import TestSupport
import Testing

@testable import PackTools

@Suite struct ScalarOrderSortTests {
    static let alphabet: [Character] = ["a", "z", "é", "ÿ", "一", "元", "億", "\u{FFFD}", "😀", "𝄞"]

    /// Random words, half of them after a long shared prefix, so that the comparison of whole 8-byte words
    /// and the byte-by-byte tail both decide some pairs.
    @Test func sortsAsTokenOrderDoes() {
        var generator = SeededRandom(seed: 11)
        for size in [0, 1, 2, 17, 500, 3000] {
            let words = (0..<size).map { _ in
                let prefix = Bool.random(using: &generator) ? "phrase_00元0_" : ""
                return prefix
                    + String(
                        (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                            ScalarOrderSortTests.alphabet.randomElement(using: &generator)!
                        })
            }
            let expected = words.sorted(by: Token.inScalarOrder)
            #expect(words.sorted(inScalarOrderOf: { $0 }) == expected, "\(size) words")
        }
    }

    /// Keys that end inside, at or just past the 16 bytes the sort compares as two numbers, some with a NUL
    /// in them: a key that stops short must still come before its longer equals.
    @Test func keysEndingAroundTheFirstSixteenBytes() {
        var generator = SeededRandom(seed: 12)
        let alphabet: [Character] = ["\u{0}", "a", "b", "元"]
        let stems = ["", "0123456", "01234567", "0123456789abcde", "0123456789abcdef", "0123456789abcdef0"]
        let words = (0..<2000).map { _ in
            stems.randomElement(using: &generator)!
                + String(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
                    })
        }
        #expect(words.sorted(inScalarOrderOf: { $0 }) == words.sorted(by: Token.inScalarOrder))
    }

    /// Equal keys keep the order they came in, as the build's bookkeeping relies on for a stable result.
    @Test func equalKeysKeepTheirOrder() {
        let pairs = [("元", 1), ("一", 2), ("元", 3), ("一", 4), ("元", 5), ("", 6)]
        let sorted = pairs.sorted(inScalarOrderOf: \.0)
        #expect(sorted.map(\.1) == [6, 2, 4, 1, 3, 5])
    }
}
