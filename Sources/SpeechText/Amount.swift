/// An amount of money in 分 (hundredths of a yuan), from 0 up to 999,999,999,999.99 yuan.
public struct Amount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 9999亿9999万9999元9角9分: the largest amount the reading styles can say.
    public static let maximum = Amount(uncheckedFen: 999_999_999_999_99)

    /// The whole amount in 分.
    public let fen: Int64

    /// Nil when `fen` is negative or above `Amount.maximum`.
    public init?(fen: Int64) {
        guard fen >= 0, fen <= Amount.maximum.fen else { return nil }
        self.fen = fen
    }

    /// Nil when `yuan` is negative or above `Amount.maximum`.
    public init?(yuan: Int64, jiao: Int = 0, fen: Int = 0) {
        guard (0...9).contains(jiao), (0...9).contains(fen), yuan >= 0, yuan <= Amount.maximum.yuan else {
            return nil
        }
        self.fen = yuan * 100 + Int64(jiao * 10 + fen)
    }

    private init(uncheckedFen: Int64) { self.fen = uncheckedFen }

    public var yuan: Int64 { fen / 100 }
    /// The 角 digit, 0…9.
    public var jiao: Int { Int(fen / 10 % 10) }
    /// The 分 digit, 0…9.
    public var fenDigit: Int { Int(fen % 10) }

    /// `1234.56`, `0.05`: digits, a point and always two decimals.
    public var description: String {
        let cents = fen % 100
        return "\(yuan).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// `1010`, `0.05`, `1234.5`: as a person writes it.
    public var plain: String {
        var text = description
        while text.hasSuffix("0") && text.contains(".") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public static func < (lhs: Amount, rhs: Amount) -> Bool { lhs.fen < rhs.fen }
}

extension Amount {
    /// Reads an amount as people and payment payloads write it.
    ///
    /// Accepted: `1234.56`, `¥1,234.56`, `￥88`, `88元`, `0.01`, ` 12 ` (spaces around), `007`, and the
    /// full-width digits, point and comma that a Chinese input method types (`１２．５`). Digits past 分 are
    /// cut, never rounded up: `0.019` is 1 分.
    ///
    /// Refused with an `AmountError`: empty, negative, signed, exponents (`12e3`), `NaN` and `inf`, two
    /// points, commas that do not group by three (`1,23`), a point with no digit on either side (`12.`,
    /// `.5`), any other character, and anything from 10^12 yuan up.
    public init(parsing input: String) throws(AmountError) {
        var text = Substring(input.trimmingSpaces())
        if text.isEmpty { throw AmountError(input: input, problem: .empty) }
        if let first = text.first, first == "¥" || first == "￥" { text = text.dropFirst() }
        if text.last == "元" { text = text.dropLast() }
        let body = String(text).trimmingSpaces().map(Amount.asciiEquivalent)
        if body.isEmpty { throw AmountError(input: input, problem: .noDigits) }

        switch body.first! {
        case "-", "−": throw AmountError(input: input, problem: .negative)
        case "+": throw AmountError(input: input, problem: .signed)
        default: break
        }
        let lowered = String(body).lowercased()
        if ["nan", "inf", "infinity"].contains(lowered) {
            throw AmountError(input: input, problem: .notANumber)
        }

        var integerGroups: [String] = [""]
        var fraction: String? = nil
        for character in body {
            // Only a lone ASCII digit is a digit: "0" with a combining mark sorts among the digits too.
            let isDigit = character.unicodeScalars.count == 1 && ("0"..."9").contains(character.unicodeScalars.first!)
            switch character {
            case _ where isDigit:
                if fraction != nil {
                    fraction!.append(character)
                } else {
                    integerGroups[integerGroups.count - 1].append(character)
                }
            case ",":
                if fraction != nil { throw AmountError(input: input, problem: .commaInFraction) }
                integerGroups.append("")
            case ".":
                if fraction != nil { throw AmountError(input: input, problem: .twoPoints) }
                fraction = ""
            case "e", "E":
                throw AmountError(input: input, problem: .exponent)
            default:
                throw AmountError(input: input, problem: .unexpectedCharacter(character))
            }
        }

        if integerGroups.count > 1 {
            let first = integerGroups[0]
            let groupedByThree = (1...3).contains(first.count) && integerGroups.dropFirst().allSatisfy { $0.count == 3 }
            if !groupedByThree { throw AmountError(input: input, problem: .misplacedComma) }
        }
        let integerDigits = integerGroups.joined()
        if integerDigits.isEmpty { throw AmountError(input: input, problem: .noDigitBeforePoint) }
        if let fraction, fraction.isEmpty { throw AmountError(input: input, problem: .noDigitAfterPoint) }

        self = try Amount.fen(integer: integerDigits, fraction: fraction ?? "", input: input)
    }

    /// The amount of the digits before and after the point: fen past the second decimal are cut.
    private static func fen(integer: String, fraction: String, input: String) throws(AmountError) -> Amount {
        let significant = integer.drop { $0 == "0" }
        if significant.count > 12 { throw AmountError(input: input, problem: .tooLarge) }
        var fen = Int64(significant.isEmpty ? "0" : String(significant))! * 100
        let cents = Array(fraction.prefix(2))
        if cents.count > 0 { fen += Int64(cents[0].wholeNumberValue!) * 10 }
        if cents.count > 1 { fen += Int64(cents[1].wholeNumberValue!) }
        guard let amount = Amount(fen: fen) else { throw AmountError(input: input, problem: .tooLarge) }
        return amount
    }

    /// Full-width digits, point and comma as their ASCII counterparts; everything else unchanged.
    private static func asciiEquivalent(_ character: Character) -> Character {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else {
            return character
        }
        switch scalar.value {
        case 0xFF10...0xFF19: return Character(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
        case 0xFF0E: return "."
        case 0xFF0C: return ","
        default: return character
        }
    }
}

/// Why a text is not an amount. `description` names the text, says what is wrong and what to write.
public struct AmountError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case empty
        case noDigits
        case negative
        case signed
        case notANumber
        case exponent
        case twoPoints
        case commaInFraction
        case misplacedComma
        case noDigitBeforePoint
        case noDigitAfterPoint
        case unexpectedCharacter(Character)
        case tooLarge
    }

    public let input: String
    public let problem: Problem

    public init(input: String, problem: Problem) {
        self.input = input
        self.problem = problem
    }

    public var description: String {
        let quoted = "'\(input)'"
        switch problem {
        case .empty:
            return "the amount is empty: give a number of yuan such as 88 or 1234.56"
        case .noDigits:
            return "\(quoted) has no digits: give a number of yuan such as 88 or 1234.56"
        case .negative:
            return "\(quoted) is negative: amounts are from 0 to 999999999999.99 yuan"
        case .signed:
            return "\(quoted) has a sign: write the number without '+'"
        case .notANumber:
            return "\(quoted) is not a number: give a number of yuan such as 88 or 1234.56"
        case .exponent:
            return "\(quoted) uses exponent notation: write the digits out (12e3 is 12000)"
        case .twoPoints:
            return "\(quoted) has more than one decimal point: write one, as in 1234.56"
        case .commaInFraction:
            return "\(quoted) has a comma after the decimal point: commas only group the yuan digits"
        case .misplacedComma:
            return "\(quoted) has a comma that does not separate groups of three digits: write 1,234 or 1234"
        case .noDigitBeforePoint:
            return "\(quoted) has no digit before the decimal point: write 0.5, not .5"
        case .noDigitAfterPoint:
            return "\(quoted) has no digit after the decimal point: write 12 or 12.0"
        case .unexpectedCharacter(let character):
            let code = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
            return
                "\(quoted) contains '\(character)' (\(code.joined(separator: " "))), which is not part of an amount: use digits, one point and commas"
        case .tooLarge:
            return "\(quoted) is too large: the largest amount is 999999999999.99 yuan (9999亿)"
        }
    }
}
