import SpeechText
import Testing

@Suite struct AmountParsingTests {
    static let accepted: [(String, Int64)] = [
        ("1234.56", 123_456), ("¥1,234.56", 123_456), ("￥88", 8800), ("88元", 8800), ("0.01", 1), (" 12 ", 1200),
        ("¥ 12.5 ", 1250), ("007", 700), ("0", 0), ("0.019", 1), ("0.999", 99), ("12.3456", 1234),
        ("999999999999.99", 99_999_999_999_999), ("999,999,999,999.999", 99_999_999_999_999),
        ("１２", 1200), ("１２．５", 1250), ("1,000", 100_000), ("12.0", 1200), ("000000000000001", 100),
    ]

    static let refused: [(String, AmountError.Problem)] = [
        ("", .empty), ("   ", .empty), ("-5", .negative), ("−5", .negative), ("+5", .signed), ("¥", .noDigits),
        ("元", .noDigits), ("1.2.3", .twoPoints), ("1,23", .misplacedComma), ("1234,567", .misplacedComma),
        (",123", .misplacedComma), ("1,234.5,6", .commaInFraction), ("12e3", .exponent), ("NaN", .notANumber),
        ("inf", .notANumber), ("12.", .noDigitAfterPoint), (".5", .noDigitBeforePoint),
        ("1000000000000", .tooLarge), ("99999999999999999999999", .tooLarge), ("12abc", .unexpectedCharacter("a")),
        ("1 2", .unexpectedCharacter(" ")), ("0x10", .unexpectedCharacter("x")), ("一百", .unexpectedCharacter("一")),
        // Found by fuzzing: a digit with a combining mark sorts among the digits but is not one.
        ("0\u{035A}9", .unexpectedCharacter("0\u{035A}")),
    ]

    @Test(arguments: accepted) func accepts(input: String, fen: Int64) throws {
        #expect(try Amount(parsing: input).fen == fen)
    }

    @Test(arguments: refused) func refuses(input: String, problem: AmountError.Problem) {
        #expect(throws: AmountError(input: input, problem: problem)) { try Amount(parsing: input) }
    }

    @Test func errorsNameTheInputAndTheFix() {
        do {
            _ = try Amount(parsing: "1,23")
            Issue.record("1,23 was accepted")
        } catch {
            #expect(error.description.contains("'1,23'"))
            #expect(error.description.contains("1,234"))
        }
    }

    @Test func boundsOfTheValue() {
        #expect(Amount(fen: -1) == nil)
        #expect(Amount(fen: Amount.maximum.fen + 1) == nil)
        #expect(Amount(yuan: 1_000_000_000_000) == nil)
        #expect(Amount(yuan: 12, jiao: 3, fen: 4)?.description == "12.34")
        #expect(Amount.maximum.description == "999999999999.99")
    }
}
