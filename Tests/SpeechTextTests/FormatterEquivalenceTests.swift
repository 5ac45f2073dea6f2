import Foundation
import SpeechText
import TestSupport
import Testing

/// The `formatter` styles must write exactly what Foundation's spell-out writes for the integer part,
/// because an app that follows the seed project builds its text with `NumberFormatter`.
@Suite struct FormatterEquivalenceTests {
    static func spellOut(_ localeIdentifier: String) -> NumberFormatter {
        let formatter = NumberFormatter()
        formatter.numberStyle = .spellOut
        formatter.locale = Locale(identifier: localeIdentifier)
        return formatter
    }

    /// The integer part as the converter says it: the decimal form of a whole amount is that part and 元.
    static func integerText(_ converter: SpeechConverter, _ yuan: Int64) -> String {
        let text = converter.reading(of: Amount(yuan: yuan)!).text
        #expect(text.hasSuffix("元"))
        return String(text.dropLast())
    }

    static func compare(style: ReadingStyle, locale: String) {
        let formatter = spellOut(locale)
        let converter = SpeechConverter(style: style, form: .decimal)
        var mismatches: [String] = []
        func check(_ n: Int64) {
            let expected = formatter.string(from: NSNumber(value: n))!
            let actual = integerText(converter, n)
            if actual != expected && mismatches.count < 20 { mismatches.append("\(n): \(actual) ≠ \(expected)") }
        }
        for n in Int64(0)...TestScale.wholeYuan { check(n) }
        var random = SeededRandom(seed: 0x5EED_0001)
        for _ in 0..<TestScale.randomAmounts { check(Int64.random(in: 0..<1_000_000_000_000, using: &random)) }
        // Every order of magnitude with gaps in each place, where the grammar's branches meet.
        for exponent in 0..<12 {
            let power = Int64(pow(10.0, Double(exponent)))
            for tail in [Int64(0), 1, 10, 11, 19, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000] where tail < power
            {
                check(power + tail)
                check(power * 9 + tail)
            }
        }
        #expect(mismatches.isEmpty, "\(style.name) differs from \(locale): \(mismatches.joined(separator: "; "))")
    }

    @Test func formatterMatchesZhCN() { Self.compare(style: .formatter, locale: "zh_CN") }

    @Test func formatterHantMatchesZhHant() { Self.compare(style: .formatterHant, locale: "zh_Hant") }
}
