/// The characters a reading style writes numbers with, and the grammar that puts them together.
struct Numerals: Sendable {
    enum Grammar: Sendable {
        /// Standard Chinese: one gap character for a run of zeros between non-zero digits (also across
        /// 万 and 亿), none for zeros that end a group.
        case standard(bareTenAtStart: Bool)
        /// ICU's `zh` / `zh_Hant` spell-out rules, quirks included (一亿十万, 一亿一万: no gap before a
        /// remainder of 万 or more after 亿).
        case icu
    }

    /// 0…9. `digits[0]` is zero said on its own (零元整) and after the point (〇点〇五).
    let digits: [Token]
    /// Stands for a run of zeros between non-zero digits (一千零一十).
    let gap: Token
    /// 两, for styles that say it: only where it opens an amount and counts a unit (两百, 两万, 两元), and
    /// for 角 and 分 (两角).
    let liang: Token?
    let ten: Token
    let hundred: Token
    let thousand: Token
    let tenThousand: Token
    let hundredMillion: Token
    /// The decimal point (点, 點).
    let point: Token
    /// The whole-yuan zero before the point (零点五, 〇点五, 零點五).
    let zeroBeforePoint: Token
    let grammar: Grammar

    static func of(_ style: ReadingStyle) -> Numerals {
        switch style {
        case .spoken:
            return Numerals(
                digits: ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"], gap: "零", liang: "两",
                ten: "十", hundred: "百", thousand: "千", tenThousand: "万", hundredMillion: "亿",
                point: "点", zeroBeforePoint: "零", grammar: .standard(bareTenAtStart: true))
        case .formatter:
            return Numerals(
                digits: ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"], gap: "〇", liang: nil,
                ten: "十", hundred: "百", thousand: "千", tenThousand: "万", hundredMillion: "亿",
                point: "点", zeroBeforePoint: "〇", grammar: .icu)
        case .formatterHant:
            return Numerals(
                digits: ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"], gap: "零", liang: nil,
                ten: "十", hundred: "百", thousand: "千", tenThousand: "萬", hundredMillion: "億",
                point: "點", zeroBeforePoint: "零", grammar: .icu)
        case .financial:
            return Numerals(
                digits: ["零", "壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖"], gap: "零", liang: nil,
                ten: "拾", hundred: "佰", thousand: "仟", tenThousand: "万", hundredMillion: "亿",
                point: "点", zeroBeforePoint: "零", grammar: .standard(bareTenAtStart: false))
        }
    }

    /// Every token the integer grammar can write, zero included.
    var integerAlphabet: Set<Token> {
        Set(digits + [gap, ten, hundred, thousand, tenThousand, hundredMillion] + (liang.map { [$0] } ?? []))
    }

    /// The digit that counts 角 or 分 (两角 in the spoken style).
    func countingDigit(_ digit: Int) -> Token {
        if digit == 2, let liang { return liang }
        return digits[digit]
    }

    /// The tokens for a whole number of yuan, 0 ≤ n < 10^12.
    ///
    /// `countsYuan` is true when 元 follows directly, which lets the spoken style say 两元 for 2.
    func integer(_ n: Int64, countsYuan: Bool) -> [Token] {
        precondition(n >= 0 && n < 1_000_000_000_000, "integer part out of range: \(n)")
        switch grammar {
        case .standard(let bareTenAtStart):
            return standard(n, bareTenAtStart: bareTenAtStart, countsYuan: countsYuan)
        case .icu:
            return icu(n)
        }
    }

    private func standard(_ n: Int64, bareTenAtStart: Bool, countsYuan: Bool) -> [Token] {
        if n == 0 { return [digits[0]] }
        let groups: [(value: Int64, unit: Token?)] = [
            (n / 100_000_000, hundredMillion), (n / 10_000 % 10_000, tenThousand), (n % 10_000, nil),
        ]
        var tokens: [Token] = []
        var gapPending = false
        for (value, unit) in groups {
            if value == 0 {
                if !tokens.isEmpty { gapPending = true }
                continue
            }
            let places: [(digit: Int, unit: Token?)] = [
                (Int(value / 1000), thousand), (Int(value / 100 % 10), hundred), (Int(value / 10 % 10), ten),
                (Int(value % 10), nil),
            ]
            for (digit, placeUnit) in places {
                if digit == 0 {
                    if !tokens.isEmpty { gapPending = true }
                    continue
                }
                if gapPending {
                    tokens.append(gap)
                    gapPending = false
                }
                let isTen = placeUnit == ten
                if isTen && digit == 1 && tokens.isEmpty && bareTenAtStart {
                    // 十元, 十万: nothing before it, so no 一.
                } else if digit == 2, tokens.isEmpty, !isTen, placeUnit != nil || unit != nil || countsYuan,
                    let liang
                {
                    // 两 opens an amount when it counts 百, 千, 万, 亿 or 元: 两百, 两万, 两元.
                    tokens.append(liang)
                } else {
                    tokens.append(digits[digit])
                }
                if let placeUnit { tokens.append(placeUnit) }
            }
            if let unit { tokens.append(unit) }
            // Zeros that end a group are covered by its unit: 十万一千, not 十万零一千.
            gapPending = false
        }
        return tokens
    }

    private func icu(_ n: Int64) -> [Token] {
        switch n {
        case 0..<10:
            return [digits[Int(n)]]
        case 10..<20:
            return [ten] + (n % 10 == 0 ? [] : [digits[Int(n % 10)]])
        case 20..<100:
            return [digits[Int(n / 10)], ten] + (n % 10 == 0 ? [] : [digits[Int(n % 10)]])
        case 100..<1000:
            return [digits[Int(n / 100)], hundred] + icuRemainder(n % 100, gapBelow: 10)
        case 1000..<10_000:
            return [digits[Int(n / 1000)], thousand] + icuRemainder(n % 1000, gapBelow: 100)
        case 10_000..<100_000_000:
            return icu(n / 10_000) + [tenThousand] + icuRemainder(n % 10_000, gapBelow: 1000)
        default:
            return icu(n / 100_000_000) + [hundredMillion] + icuRemainder(n % 100_000_000, gapBelow: 10_000)
        }
    }

    /// What ICU writes after a unit: nothing for zero, the gap character before a remainder below
    /// `gapBelow`, and 一十 rather than 十 for 10…19 once something has been said.
    private func icuRemainder(_ remainder: Int64, gapBelow: Int64) -> [Token] {
        if remainder == 0 { return [] }
        let withOne = (10..<20).contains(remainder) ? [digits[1]] + icu(remainder) : icu(remainder)
        if remainder < gapBelow { return [gap] + withOne }
        // After 百 the remainder is below 100, so 一百一十; after larger units, 一亿十万 as ICU writes it.
        return gapBelow == 10 ? withOne : icu(remainder)
    }
}
