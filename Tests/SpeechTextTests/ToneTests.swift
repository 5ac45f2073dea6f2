import Testing

@testable import SpeechText

@Suite struct ToneTests {
    /// Every token any style and form can say has its citation tone, so a token added to an alphabet cannot be
    /// compared with the wrong tone's syllables by the voice check.
    @Test func everyTokenTheConverterSaysHasATone() {
        let alphabet = SpeechConverter.alphabet(styles: ReadingStyle.allCases, forms: AmountForm.allCases)
        let toneless = alphabet.filter { Tone.citation(of: $0) == nil }.map(\.text).sorted()
        #expect(toneless.isEmpty, "no tone for \(toneless)")
        #expect(alphabet.count >= 37)
    }

    @Test func variantsCarryTheToneOfWhatTheySay() {
        let pairs: [(Token, Token)] = [
            ("零", "〇"), ("一", "壹"), ("二", "贰"), ("五", "伍"), ("万", "萬"), ("亿", "億"), ("点", "點"),
        ]
        for (plain, variant) in pairs {
            #expect(Tone.citation(of: plain) == Tone.citation(of: variant), "\(plain) \(variant)")
        }
        #expect(Tone.citation(of: "五") == .low && Tone.citation(of: "三") == .high)
        #expect(Tone.citation(of: "十") == .rising && Tone.citation(of: "四") == .falling)
        #expect(Tone.citation(of: "微信收款") == nil)
    }

    /// Every token the converter says begins either with its voice or with a consonant, and every variant as
    /// what it says: a financial or traditional character begins as its plain one.
    @Test func everyTokenHasItsOnsetAndVariantsShareIt() {
        let alphabet = SpeechConverter.alphabet(styles: ReadingStyle.allCases, forms: AmountForm.allCases)
        #expect(alphabet.allSatisfy { Onset.of($0) != nil })
        let voiceFirst = alphabet.filter { Onset.of($0) == .voice }.map(\.text).sorted()
        #expect(voiceFirst == ["〇", "一", "万", "两", "二", "五", "亿", "伍", "億", "元", "六", "壹", "萬", "贰", "陆", "零"])
        let pairs: [(Token, Token)] = [
            ("三", "叁"), ("四", "肆"), ("六", "陆"), ("七", "柒"), ("八", "捌"), ("九", "玖"), ("十", "拾"), ("百", "佰"),
            ("千", "仟"), ("零", "〇"), ("一", "壹"), ("二", "贰"), ("五", "伍"), ("万", "萬"), ("亿", "億"), ("点", "點"),
        ]
        for (plain, variant) in pairs {
            #expect(Onset.of(plain) == Onset.of(variant), "\(plain) \(variant)")
        }
        let long = alphabet.filter { Onset.of($0) == .longConsonant }.map(\.text).sorted()
        #expect(long == ["七", "仟", "十", "千", "拾", "柒"])
        let s = alphabet.filter { Onset.of($0) == .s }.map(\.text).sorted()
        #expect(s == ["三", "叁", "四", "肆"])
        #expect(Onset.of("八") == .consonant && Onset.of("一") == .voice)
        #expect(Onset.of("微信收款") == nil)
    }
}
