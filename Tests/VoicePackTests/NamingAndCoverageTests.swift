import SpeechText
import Testing
import VoicePack

@Suite struct NamingTests {
    @Test func defaultStemsTokensAndSettings() {
        var settings = Settings()
        settings.stems = ["yuan_alt": "元"]
        settings.phrases = ["phrase_wechat": "微信收款"]
        let naming = Naming(settings: settings)
        #expect(naming.token(forStem: "digit_0") == "零")
        #expect(naming.token(forStem: "digit_liang") == "两")
        #expect(naming.token(forStem: "unit_dian") == "点")
        #expect(naming.token(forStem: "yuan_alt") == "元")
        #expect(naming.token(forStem: "phrase_wechat") == "微信收款")
        #expect(naming.token(forStem: "億") == "億")
        #expect(naming.token(forStem: "壹") == "壹")
        #expect(naming.token(forStem: "〇") == "〇")
        #expect(naming.token(forStem: "微信收款") == "微信收款")
        #expect(naming.token(forStem: "hello") == nil)
        #expect(naming.token(forStem: "Digit_1") == nil)
        #expect(naming.stem(for: "一") == "digit_1")
        #expect(naming.stem(for: "億") == "億")
    }

    /// When several stems name one token, the one a missing-fragment warning suggests is the first in
    /// scalar order, whatever order the settings' dictionaries iterate in.
    @Test func theSuggestedStemIsTheFirstOfSeveral() {
        let all = ["yuan_b", "yuan_a", "unit_yuan_2", "yuan_c", "元_take2"]
        for shift in all.indices {
            var settings = Settings()
            let names = Array(all[shift...] + all[..<shift])
            settings.stems = Dictionary(uniqueKeysWithValues: names.map { ($0, Token("元")) })
            settings.phrases = ["phrase_b": "微信收款", "phrase_a": "微信收款"]
            let naming = Naming(settings: settings)
            #expect(naming.stem(for: "元") == "unit_yuan", "rotation \(shift)")
            #expect(naming.stem(for: "微信收款") == "phrase_a", "rotation \(shift)")
        }
    }

    @Test func everyDefaultStemIsASpokenToken() {
        let spoken = SpeechConverter.alphabet(styles: [.spoken], forms: AmountForm.allCases)
        let stems = Naming.defaultStems
        #expect(Set(stems.map(\.token)) == spoken)
        #expect(Set(stems.map(\.stem)).count == stems.count)
    }
}

/// Names as payment apps ship their recordings, read as the tokens they say: the conventions of eighteen real
/// apps' packs (the names only), where a guess is checked against what each app's code plays.
@Suite struct AppStemReadingTests {
    @Test func appNamesReadAsTheirTokens() {
        let naming = Naming(settings: Settings())
        let cases: [(String, Token?)] = [
            ("tts_0", "零"), ("tts_9", "九"), ("tts_ten", "十"), ("tts_hundred", "百"), ("tts_thousand", "千"),
            ("tts_ten_thousand", "万"), ("tts_ten_million", "亿"), ("tts_billion", "亿"), ("tts_dot", "点"),
            ("tts_yuan", "元"), ("media100", "百"), ("media1000", "千"), ("media5", "五"), ("sound7", "七"),
            ("soundzheng", "整"), ("_3", "三"), ("3_", "三"), ("unitthousand_", "千"),
            ("unithundredmillion_", "亿"), ("dian_", "点"), ("zero", "零"), ("seven", "七"), ("ten_thousand", "万"),
            ("point", "点"), ("ling", "零"), ("er", "二"), ("qi", "七"), ("yii", "亿"), ("wan", "万"), ("bai", "百"),
            ("jiao", "角"), ("fen", "分"), ("Digit_05", "五"), ("4", "四"),
            // Phrases and anything else: no guess.
            ("tts_success", nil), ("tts_ali_start", nil), ("digit_1 copy", nil), ("sound", nil),
            ("media42", nil), ("t0", nil),
        ]
        for (stem, token) in cases { #expect(naming.readings(ofStem: stem) == (token.map { [$0] } ?? []), "\(stem)") }
        // 一 in two apps, 亿 in a third: either.
        #expect(naming.readings(ofStem: "yi") == ["一", "亿"])
        // Pinyin with its tone's number, as a bank of syllables names them (a real one: QYLove/Listener's 1,002):
        // the tone tells 一 from 亿, and a syllable in another tone is another word.
        for (stem, token) in [
            ("yi1", "一"), ("yi4", "亿"), ("ling2", "零"), ("er4", "二"), ("wu3", "五"), ("shi2", "十"), ("bai3", "百"),
            ("qian1", "千"), ("wan4", "万"), ("liang3", "两"), ("dian3", "点"), ("yuan2", "元"), ("jiao3", "角"),
            ("fen1", "分"), ("zheng3", "整"), ("tts_qi1", "七"),
        ] {
            #expect(naming.readings(ofStem: stem) == [Token(token)], "\(stem)")
        }
        for stem in ["yi2", "shi4", "qian2", "er2", "wu5", "five5", "ten2"] {
            #expect(naming.readings(ofStem: stem).isEmpty, "\(stem)")
        }
        #expect(naming.readings(ofStem: "soundyi") == ["一", "亿"])
    }

    /// A digit's name in a pack that writes it in the financial style reads as the financial character.
    @Test func digitsFollowTheEnabledStyles() {
        var settings = Settings()
        settings.styles = [.financial]
        let financial = Naming(settings: settings)
        #expect(financial.readings(ofStem: "sound1") == ["壹"])
        #expect(financial.readings(ofStem: "soundshi") == ["拾"])
        #expect(financial.readings(ofStem: "sound0") == ["零"])
        #expect(financial.readings(ofStem: "yi") == ["壹", "亿"])
        #expect(financial.readings(ofStem: "soundwan") == ["万"])
        settings.styles = [.spoken, .financial]
        #expect(Naming(settings: settings).readings(ofStem: "sound1") == ["一"])
    }
}

@Suite struct CoverageTests {
    @Test func needsAreTheAlphabetsAndTheTemplates() {
        var settings = Settings()
        settings.styles = [.spoken]
        settings.forms = [.yuan]
        settings.phrases = ["phrase_wechat": "微信收款"]
        settings.templates = ["wechat": "微信收款，{amount}", "thanks": "谢谢{amount}"]
        let coverage = Coverage(settings: settings)
        let needs = Set(coverage.needs.map(\.token))
        #expect(needs == SpeechConverter(style: .spoken, form: .yuan).alphabet.union(["微信收款", "谢", "谢"]))
        #expect(coverage.needs.first { $0.token == "谢" }?.neededBy == ["template thanks"])
        #expect(coverage.needs.first { $0.token == "元" }?.neededBy == ["spoken/yuan"])
    }

    /// `maximumAmount` bounds what must be covered: under 1亿 neither 亿 nor 億 is needed, in any style.
    @Test func theBoundNarrowsTheNeeds() throws {
        var settings = Settings()
        settings.maximumAmount = try Amount(parsing: "99999999.99")
        let needs = Set(Coverage(settings: settings).needs.map(\.token))
        #expect(
            needs
                == SpeechConverter.alphabet(styles: ReadingStyle.allCases, forms: AmountForm.allCases).subtracting([
                    "亿", "億",
                ]))
        settings.maximumAmount = try Amount(parsing: "9.99")
        let small = Set(Coverage(settings: settings).needs.map(\.token))
        #expect(small.isDisjoint(with: ["十", "拾", "百", "佰", "千", "仟", "万", "萬", "亿", "億"]))
        #expect(small.isSuperset(of: ["零", "〇", "九", "玖", "两", "元", "角", "分", "整", "点", "點"]))
    }

    @Test func aliasesServeAndCyclesDoNot() {
        var settings = Settings()
        settings.styles = [.formatter]
        settings.forms = [.yuan]
        settings.aliases = ["〇": "零", "甲": "乙", "乙": "甲"]
        let coverage = Coverage(settings: settings)
        let spoken = Set(SpeechConverter(style: .spoken, form: .yuan).alphabet)
        #expect(coverage.missing(from: spoken).isEmpty)
        #expect(coverage.missing(from: spoken.subtracting(["零"])).map(\.token) == ["〇"])
        #expect(coverage.aliases.player(of: "〇", hasFragment: spoken.contains) == "零")
        #expect(coverage.aliases.player(of: "甲") { _ in false } == nil)
        #expect(coverage.aliases.chain(from: "甲").cycle)
    }

    /// The list a voice talent reads: what the settings need, an alias's token left to the token it names,
    /// in reading order, phrases last; with recordings, only what none of them serves.
    @Test func whatToRecordFollowsTheSettings() throws {
        var settings = Settings()
        settings.styles = [.formatter]
        settings.forms = [.yuan]
        settings.maximumAmount = try Amount(parsing: "99999999.99")
        settings.aliases = ["〇": "零"]
        settings.phrases = ["phrase_wechat": "微信收款"]
        settings.templates = ["wechat": "微信收款，{amount}"]
        let coverage = Coverage(settings: settings)
        #expect(coverage.toRecord().map(\.text) == "零一二三四五六七八九十百千万元角分整".map(String.init) + ["微信收款"])
        #expect(coverage.toRecord(besides: ["零", "一", "元", "微信收款", "亿"]).map(\.text).joined() == "二三四五六七八九十百千万角分整")
        let everything = Set(coverage.toRecord())
        #expect(coverage.toRecord(besides: everything).isEmpty)
        #expect(coverage.missing(from: everything).isEmpty)
    }

    @Test func witnessesAreTheSmallestAmounts() throws {
        var settings = Settings()
        settings.styles = [.formatter, .formatterHant]
        let coverage = Coverage(settings: settings)
        let gap = try #require(coverage.witness(for: "〇"))
        #expect(gap.amount.description == "0.01" && gap.form == .decimal && gap.text == "〇点〇一元")
        let hundredMillion = try #require(coverage.witness(for: "億"))
        #expect(hundredMillion.amount.description == "100000000.00" && hundredMillion.text == "一億元整")
        #expect(coverage.witness(for: "两") == nil)
    }
}
