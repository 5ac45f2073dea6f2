import SpeechText
import TestSupport
import Testing

/// Each style × form's alphabet is proved, not sampled: every token said over all whole amounts up to a
/// million and 200,000 random amounts with 角 and 分 is in it, and every token in it is said.
@Suite struct AlphabetTests {
    static let cases: [(ReadingStyle, AmountForm)] = ReadingStyle.allCases.flatMap { style in
        AmountForm.allCases.map { (style, $0) }
    }

    @Test(arguments: cases)
    func alphabetIsExact(style: ReadingStyle, form: AmountForm) {
        let converter = SpeechConverter(style: style, form: form)
        let alphabet = converter.alphabet
        var emitted: Set<Token> = []
        var strays: [String] = []
        func say(_ amount: Amount) {
            for token in converter.reading(of: amount).tokens where !emitted.contains(token) {
                emitted.insert(token)
                if !alphabet.contains(token) { strays.append("\(token) in \(amount)") }
            }
        }
        for yuan in Int64(0)...TestScale.wholeYuan { say(Amount(yuan: yuan)!) }
        for fen in Int64(0)..<10_000 { say(Amount(fen: fen)!) }
        var random = SeededRandom(seed: 0x5EED_0002)
        for _ in 0..<TestScale.randomAmounts {
            say(Amount(fen: Int64.random(in: 0...Amount.maximum.fen, using: &random))!)
        }
        say(Amount.maximum)

        #expect(strays.isEmpty, "tokens outside the alphabet: \(strays.prefix(10))")
        let dead = alphabet.subtracting(emitted).sorted()
        #expect(dead.isEmpty, "alphabet entries no amount says: \(dead)")
    }

    @Test func namedVariantsAreWhereTheyBelong() {
        func alphabet(_ styles: [ReadingStyle], _ forms: [AmountForm] = [.yuan]) -> Set<Token> {
            SpeechConverter.alphabet(styles: styles, forms: forms)
        }
        #expect(alphabet([.formatter]).contains("〇"))
        #expect(!alphabet([.formatter]).contains("零"))
        #expect(alphabet([.formatterHant]).isSuperset(of: ["億", "萬", "〇", "零"]))
        #expect(alphabet([.financial]).isSuperset(of: ["壹", "仟", "拾", "佰", "贰", "零"]))
        #expect(!alphabet([.financial]).contains("两"))
        #expect(alphabet([.spoken]).isSuperset(of: ["两", "二", "零", "整", "角", "分"]))
        #expect(!alphabet([.spoken]).contains("点"))
        #expect(alphabet([.spoken], [.decimal]).contains("点"))
        #expect(!alphabet([.spoken], [.decimal]).contains("整"))
        #expect(alphabet([.formatterHant], [.decimal]).contains("點"))
    }
}

/// The alphabet under a bound is exact too: every token said by an amount up to the bound is in it, and every
/// token in it is said by one (every 分 to 100 yuan, whole amounts to 5,000, 3,000 seeded random amounts).
@Suite struct BoundedAlphabetTests {
    @Test(arguments: ["9.99", "150", "9999.99", "99999999.99"])
    func alphabetUpToABoundIsExact(bound text: String) throws {
        let bound = try Amount(parsing: text)
        var amounts = (Int64(0)...min(bound.fen, 10_000)).map { Amount(fen: $0)! }
        amounts += stride(from: Int64(0), through: min(bound.yuan, 5_000), by: 1).map { Amount(yuan: $0)! }
        var generator = SeededRandom(seed: 7)
        amounts += (0..<3_000).map { _ in Amount(fen: Int64.random(in: 0...bound.fen, using: &generator))! }
        amounts.append(bound)
        for style in ReadingStyle.allCases {
            for form in AmountForm.allCases {
                let converter = SpeechConverter(style: style, form: form)
                let said = Set(amounts.flatMap { converter.reading(of: $0).tokens })
                #expect(said == converter.alphabet(upTo: bound), "\(text) \(style.name)/\(form.name)")
            }
        }
    }
}

/// The order a voice talent reads the tokens in: digits, then units, then money words, each token once.
@Suite struct ReadingOrderTests {
    @Test func eachStyleReadsDigitsThenUnitsThenMoneyWords() {
        func order(_ style: ReadingStyle) -> String {
            let alphabet = SpeechConverter.alphabet(styles: [style], forms: AmountForm.allCases)
            return SpeechConverter.readingOrder.filter(alphabet.contains).map(\.text).joined()
        }
        #expect(order(.spoken) == "零一二三四五六七八九两十百千万亿点元角分整")
        #expect(order(.formatter) == "〇一二三四五六七八九十百千万亿点元角分整")
        #expect(order(.formatterHant) == "零〇一二三四五六七八九十百千萬億點元角分整")
        #expect(order(.financial) == "零壹贰叁肆伍陆柒捌玖拾佰仟万亿点元角分整")
        #expect(SpeechConverter.inReadingOrder(["微信收款", "元", "八", "支付宝到账"]) == ["八", "元", "微信收款", "支付宝到账"])
    }

    @Test func everyTokenOfEveryAlphabetOnce() {
        let order = SpeechConverter.readingOrder
        #expect(Set(order).count == order.count)
        #expect(Set(order) == SpeechConverter.alphabet(styles: ReadingStyle.allCases, forms: AmountForm.allCases))
        // Each other style's own characters follow in its order: the financial digits from 壹 to 玖.
        let financial = "壹贰叁肆伍陆柒捌玖拾佰仟".map { Token(String($0)) }
        let positions = financial.map { order.firstIndex(of: $0)! }
        #expect(positions == positions.sorted())
        #expect(order.firstIndex(of: "玖")! < order.firstIndex(of: "十")!)
    }

    /// Each other style's own character sounds as a spoken one: an alias from one to the other says the same.
    @Test func otherStylesCharactersSoundAsSpokenOnes() {
        let soundsAs = SpeechConverter.soundsAs
        #expect(soundsAs.count == 16)
        #expect(soundsAs["〇"] == "零" && soundsAs["壹"] == "一" && soundsAs["玖"] == "九" && soundsAs["拾"] == "十")
        #expect(soundsAs["萬"] == "万" && soundsAs["億"] == "亿" && soundsAs["點"] == "点" && soundsAs["仟"] == "千")
        let spoken = SpeechConverter.alphabet(styles: [.spoken], forms: AmountForm.allCases)
        #expect(Set(soundsAs.values).isSubset(of: spoken) && Set(soundsAs.keys).isDisjoint(with: spoken))
    }
}
