/// Turns an amount into the text and tokens one reading style and amount form say.
public struct SpeechConverter: Sendable, Hashable {
    public let style: ReadingStyle
    public let form: AmountForm
    private let numerals: Numerals

    public init(style: ReadingStyle, form: AmountForm) {
        self.style = style
        self.form = form
        self.numerals = Numerals.of(style)
    }

    public static func == (lhs: SpeechConverter, rhs: SpeechConverter) -> Bool {
        lhs.style == rhs.style && lhs.form == rhs.form
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(style)
        hasher.combine(form)
    }

    /// Parses `input` (see `Amount(parsing:)`) and reads it.
    public func reading(of input: String) throws(AmountError) -> Reading {
        reading(of: try Amount(parsing: input))
    }

    public func reading(of amount: Amount) -> Reading {
        switch form {
        case .yuan: return Reading(tokens: yuanForm(amount))
        case .decimal: return Reading(tokens: decimalForm(amount))
        }
    }

    /// Exactly the tokens this style and form can emit, for some amount from 0 to `Amount.maximum`.
    public var alphabet: Set<Token> {
        switch form {
        case .yuan:
            return numerals.integerAlphabet.union([MoneyWord.yuan, MoneyWord.jiao, MoneyWord.fen, MoneyWord.exact])
        case .decimal:
            return numerals.integerAlphabet.union([numerals.point, numerals.zeroBeforePoint, MoneyWord.yuan])
        }
    }

    /// Exactly the tokens this style and form can emit for some amount from 0 to `bound`: those whose first
    /// amount is not over it (万 from 10,000 yuan, 亿 from 10^8; spoken 二 in the yuan form from 12, 十二).
    public func alphabet(upTo bound: Amount) -> Set<Token> {
        // Every token is said by 10^11 yuan: an unbounded pack never needs the table.
        guard bound < Self.witnessAmounts[Self.witnessAmounts.count - 1] else { return alphabet }
        return Set(firstAmounts.filter { $0.value <= bound }.keys)
    }

    /// The smallest amount that says each token of the alphabet.
    public var firstAmounts: [Token: Amount] {
        switch (style, form) {
        case (.spoken, .yuan): FirstAmounts.spokenYuan
        case (.spoken, .decimal): FirstAmounts.spokenDecimal
        case (.formatter, .yuan): FirstAmounts.formatterYuan
        case (.formatter, .decimal): FirstAmounts.formatterDecimal
        case (.formatterHant, .yuan): FirstAmounts.hantYuan
        case (.formatterHant, .decimal): FirstAmounts.hantDecimal
        case (.financial, .yuan): FirstAmounts.financialYuan
        case (.financial, .decimal): FirstAmounts.financialDecimal
        }
    }

    /// Each style and form's table, worked out the first time it is asked for (a few thousand readings).
    private enum FirstAmounts {
        static let spokenYuan = firstAmounts(.spoken, .yuan)
        static let spokenDecimal = firstAmounts(.spoken, .decimal)
        static let formatterYuan = firstAmounts(.formatter, .yuan)
        static let formatterDecimal = firstAmounts(.formatter, .decimal)
        static let hantYuan = firstAmounts(.formatterHant, .yuan)
        static let hantDecimal = firstAmounts(.formatterHant, .decimal)
        static let financialYuan = firstAmounts(.financial, .yuan)
        static let financialDecimal = firstAmounts(.financial, .decimal)

        static func firstAmounts(_ style: ReadingStyle, _ form: AmountForm) -> [Token: Amount] {
            let converter = SpeechConverter(style: style, form: form)
            var first: [Token: Amount] = [:]
            for amount in [Amount(fen: 0)!] + witnessAmounts where first.count < converter.alphabet.count {
                for token in converter.reading(of: amount).tokens where first[token] == nil { first[token] = amount }
            }
            return first
        }
    }

    /// Amounts in increasing order: every 分 up to 99.99 yuan, every yuan up to 999, then 10^3…10^11 yuan —
    /// where every token of every style first appears (the tests prove it against every amount under four
    /// bounds).
    public static let witnessAmounts: [Amount] =
        (Int64(1)..<10_000).map { Amount(fen: $0)! } + (Int64(100)..<1_000).map { Amount(yuan: $0)! }
        + (3...11).map { Amount(yuan: power(of: 10, $0))! }

    private static func power(of base: Int64, _ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { value, _ in value * base }
    }

    /// The union of the alphabets of every style × form given, for amounts up to `bound`.
    public static func alphabet(
        styles: [ReadingStyle], forms: [AmountForm], upTo bound: Amount = .maximum
    ) -> Set<Token> {
        var tokens: Set<Token> = []
        for style in styles {
            for form in forms { tokens.formUnion(SpeechConverter(style: style, form: form).alphabet(upTo: bound)) }
        }
        return tokens
    }

    /// Every token of every style, in the order a voice talent reads them: zero (零 〇), the digits (一 … 九 两,
    /// 壹 … 玖), the units from ten to thousand (十 百 千, 拾 佰 仟), then 万 亿 萬 億, the point, and the money
    /// words (元 角 分 整). One style's tokens, taken alone, keep that order.
    public static let readingOrder: [Token] = {
        let styles = ReadingStyle.allCases.map(Numerals.of)
        let zeros = styles.flatMap { [$0.digits[0], $0.gap, $0.zeroBeforePoint] }
        let digits = styles.flatMap { $0.digits.dropFirst() + ($0.liang.map { [$0] } ?? []) }
        let units = styles.flatMap { [$0.ten, $0.hundred, $0.thousand] }
        let largeUnits = styles.flatMap { [$0.tenThousand, $0.hundredMillion] }
        let money = [MoneyWord.yuan, MoneyWord.jiao, MoneyWord.fen, MoneyWord.exact]
        var order: [Token] = []
        for token in zeros + digits + units + largeUnits + styles.map(\.point) + money where !order.contains(token) {
            order.append(token)
        }
        return order
    }()

    /// The spoken style's token that sounds as each other style's character does: 〇 as 零, 壹 as 一, 拾 as 十,
    /// 萬 as 万, 點 as 点 — the same word written otherwise, so one recording can say both (an alias).
    public static let soundsAs: [Token: Token] = {
        let spoken = Numerals.of(.spoken)
        var soundsAs: [Token: Token] = [:]
        for style in ReadingStyle.allCases where style != .spoken {
            let numerals = Numerals.of(style)
            let pairs =
                zip(numerals.digits, spoken.digits).map { ($0, $1) }
                + [
                    (numerals.gap, spoken.gap), (numerals.ten, spoken.ten), (numerals.hundred, spoken.hundred),
                    (numerals.thousand, spoken.thousand), (numerals.tenThousand, spoken.tenThousand),
                    (numerals.hundredMillion, spoken.hundredMillion), (numerals.point, spoken.point),
                ]
            for (token, said) in pairs where token != said { soundsAs[token] = said }
        }
        return soundsAs
    }()

    /// `tokens` as a person reads a list of them: those of `readingOrder` in its order, then the others
    /// (phrases) by Unicode scalar value.
    public static func inReadingOrder(_ tokens: Set<Token>) -> [Token] {
        let numerals = readingOrder.filter(tokens.contains)
        return numerals + tokens.subtracting(numerals).sorted()
    }

    /// 一百二十三元四角五分; 一百元零五分; 五角; 一百元整.
    private func yuanForm(_ amount: Amount) -> [Token] {
        let (yuan, jiao, fen) = (amount.yuan, amount.jiao, amount.fenDigit)
        var tokens: [Token] = []
        let hasCents = jiao > 0 || fen > 0
        if yuan > 0 || !hasCents {
            tokens += numerals.integer(yuan, countsYuan: true)
            tokens.append(MoneyWord.yuan)
        }
        guard hasCents else { return tokens + [MoneyWord.exact] }
        if jiao > 0 {
            tokens += [numerals.countingDigit(jiao), MoneyWord.jiao]
        } else if yuan > 0 {
            tokens.append(numerals.gap)
        }
        if fen > 0 { tokens += [numerals.countingDigit(fen), MoneyWord.fen] }
        return tokens
    }

    /// 一百二十三点四五元; 十二点零五元; 一百元. Trailing zeros after the point are not said.
    private func decimalForm(_ amount: Amount) -> [Token] {
        let (yuan, jiao, fen) = (amount.yuan, amount.jiao, amount.fenDigit)
        guard jiao > 0 || fen > 0 else { return numerals.integer(yuan, countsYuan: true) + [MoneyWord.yuan] }
        var tokens = yuan == 0 ? [numerals.zeroBeforePoint] : numerals.integer(yuan, countsYuan: false)
        tokens += [numerals.point, numerals.digits[jiao]]
        if fen > 0 { tokens.append(numerals.digits[fen]) }
        return tokens + [MoneyWord.yuan]
    }
}

/// The money words every style shares.
public enum MoneyWord {
    public static let yuan: Token = "元"
    public static let jiao: Token = "角"
    public static let fen: Token = "分"
    /// 整: said when there are no 角 and no 分.
    public static let exact: Token = "整"
}
