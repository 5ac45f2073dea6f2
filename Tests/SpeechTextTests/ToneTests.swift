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
}
