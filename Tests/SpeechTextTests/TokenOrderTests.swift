import SpeechText
import TestSupport
import Testing

/// Tokens (and the stems and paths sorted the same way) are ordered by Unicode scalar values; the order is
/// taken from the UTF-8 bytes.
@Suite struct TokenOrderTests {
    /// Characters of one, two, three and four UTF-8 bytes, so that byte and scalar order could disagree if
    /// the encoding did not keep it; few of them, so that long common prefixes come up.
    static let alphabet: [Character] = ["a", "z", "é", "ÿ", "一", "元", "億", "\u{FFFD}", "😀", "𝄞"]

    @Test func bytesOrderAsScalarsDo() {
        var generator = SeededRandom(seed: 6)
        for _ in 0..<20_000 {
            let lhs = String(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    Self.alphabet.randomElement(using: &generator)!
                })
            let rhs = String(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    Self.alphabet.randomElement(using: &generator)!
                })
            let expected = lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars) { $0.value < $1.value }
            #expect(Token.inScalarOrder(lhs, rhs) == expected, "\(lhs) < \(rhs)")
            #expect((Token(lhs) < Token(rhs)) == expected)
        }
    }

    @Test func equalAndPrefixes() {
        #expect(!Token.inScalarOrder("元", "元"))
        #expect(Token.inScalarOrder("", "元"))
        #expect(!Token.inScalarOrder("元", ""))
        #expect(Token.inScalarOrder("一元", "一元整"))
        #expect(Token.inScalarOrder("z", "é"))
        #expect(Token.inScalarOrder("\u{FFFD}", "😀"))
    }
}
