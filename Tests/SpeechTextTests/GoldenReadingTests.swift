import SpeechText
import Testing

/// The cases people get wrong, written out by hand. The rules behind them are in the README.
@Suite struct GoldenReadingTests {
    static func read(_ input: String, _ style: ReadingStyle, _ form: AmountForm = .yuan) -> String {
        try! SpeechConverter(style: style, form: form).reading(of: input).text
    }

    static let spoken: [(String, String)] = [
        // 零 placement: one 零 for a run of zeros, none for zeros that end a group.
        ("1010", "一千零一十元整"), ("100010", "十万零一十元整"), ("1000001", "一百万零一元整"),
        ("100000001", "一亿零一元整"), ("100.05", "一百元零五分"), ("101000", "十万一千元整"),
        ("100100", "十万零一百元整"), ("100001000", "一亿零一千元整"), ("100100000", "一亿零一十万元整"),
        // 十 vs 一十: bare 十 only when nothing comes before it.
        ("10", "十元整"), ("110", "一百一十元整"), ("15", "十五元整"), ("100000", "十万元整"),
        ("1000000000", "十亿元整"), ("1000000010", "十亿零一十元整"),
        // 两 vs 二.
        ("2", "两元整"), ("20", "二十元整"), ("200", "两百元整"), ("2000", "两千元整"), ("20000", "两万元整"),
        ("200000000", "两亿元整"), ("220000", "二十二万元整"), ("0.2", "两角"), ("12", "十二元整"),
        ("102", "一百零二元整"), ("2222", "两千二百二十二元整"), ("22000", "两万二千元整"),
        ("1200", "一千二百元整"), ("20002", "两万零二元整"), ("2000000", "两百万元整"), ("100020000", "一亿零二万元整"),
        ("0.22", "两角两分"), ("2.2", "两元两角"),
        // 整 only when there are no 角 and no 分.
        ("100", "一百元整"), ("100.5", "一百元五角"), ("0.05", "五分"), ("0", "零元整"), ("0.55", "五角五分"),
        ("1234.56", "一千二百三十四元五角六分"), ("999999999999.99", "九千九百九十九亿九千九百九十九万九千九百九十九元九角九分"),
    ]

    static let financial: [(String, String)] = [
        ("1010", "壹仟零壹拾元整"), ("100010", "壹拾万零壹拾元整"), ("1000001", "壹佰万零壹元整"),
        ("100000001", "壹亿零壹元整"), ("100.05", "壹佰元零伍分"), ("10", "壹拾元整"), ("110", "壹佰壹拾元整"),
        ("2", "贰元整"), ("200000000", "贰亿元整"), ("220000", "贰拾贰万元整"), ("0.2", "贰角"),
        ("100", "壹佰元整"), ("100.5", "壹佰元伍角"), ("0.05", "伍分"), ("1234.56", "壹仟贰佰叁拾肆元伍角陆分"),
        ("0", "零元整"),
    ]

    static let decimal: [(String, ReadingStyle, String)] = [
        ("0.5", .spoken, "零点五元"), ("12.05", .spoken, "十二点零五元"), ("100.10", .spoken, "一百点一元"),
        ("0.2", .spoken, "零点二元"), ("2.5", .spoken, "二点五元"), ("2", .spoken, "两元"), ("200.5", .spoken, "两百点五元"),
        ("100", .spoken, "一百元"), ("100.05", .spoken, "一百点零五元"), ("0", .spoken, "零元"),
        ("0.5", .formatter, "〇点五元"), ("12.05", .formatter, "十二点〇五元"), ("1010.1", .formatter, "一千〇一十点一元"),
        ("0.05", .formatterHant, "零點〇五元"), ("0", .formatterHant, "〇元"), ("100010", .formatterHant, "十萬零一十元"),
        ("12.05", .financial, "壹拾贰点零伍元"),
    ]

    @Test(arguments: spoken) func spokenYuan(input: String, expected: String) {
        #expect(Self.read(input, .spoken) == expected)
    }

    @Test(arguments: financial) func financialYuan(input: String, expected: String) {
        #expect(Self.read(input, .financial) == expected)
    }

    @Test(arguments: decimal) func decimalForm(input: String, style: ReadingStyle, expected: String) {
        #expect(Self.read(input, style, .decimal) == expected)
    }

    @Test func formatterYuanFormUsesTheStyleGap() {
        #expect(Self.read("100010", .formatter) == "十万〇一十元整")
        #expect(Self.read("1.05", .formatter) == "一元〇五分")
        #expect(Self.read("1.05", .formatterHant) == "一元零五分")
        #expect(Self.read("0", .formatter) == "〇元整")
    }

    @Test func tokensAreOneCharacterEach() {
        let reading = try! SpeechConverter(style: .spoken, form: .yuan).reading(of: "1234.56")
        #expect(reading.tokens.map(\.text) == ["一", "千", "二", "百", "三", "十", "四", "元", "五", "角", "六", "分"])
        #expect(reading.text == "一千二百三十四元五角六分")
    }
}
