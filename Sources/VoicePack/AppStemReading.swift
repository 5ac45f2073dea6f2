import SpeechText

/// What a recording's name likely says when it names no token: the names payment apps ship their recordings
/// under — a digit (`tts_5`, `media5`, `sound5`, `_5`, `5_`), an English or pinyin word (`five`, `wu`,
/// `tts_ten_thousand`, `wan`, `tts_dot`, `dian`), a number (`media100`), pinyin with its tone's number (`wan4`,
/// `yi1`, as recordings of syllables are named). A guess for a person to confirm by ear, never a mapping the build
/// makes itself: apps name alike what they say differently (`yi` is 一 in two real packs and 亿 in a third, so it
/// reads as either; `yi1` is 一 and `yi4` 亿, and `shi4`, not 十's tone, nothing).
enum AppStemReading {
    /// Prefixes apps put before the word, tried longest first.
    static let prefixes = ["digit", "media", "sound", "voice", "unit", "tts"]

    /// The word or number a stem holds, each character 0-9 or a-z: lowercased, the prefixes and separators gone.
    static func word(of stem: String) -> String {
        var word = stem.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        while let prefix = prefixes.first(where: { word.hasPrefix($0) && word.count > $0.count }) {
            word.removeFirst(prefix.count)
        }
        return word
    }

    /// What a stem likely says: each number or word it may be (one, but for `yi`), as the spoken style's token
    /// and the characters other styles write for it (一: 壹; 万: 萬; `SpeechConverter.soundsAs`).
    static func readings(ofStem stem: String) -> [[Token]] {
        let word = word(of: stem)
        let said = Int(word).flatMap { numbers[$0] }.map { [$0] } ?? words[word] ?? toned(word)
        return said.map { token in [token] + SpeechConverter.soundsAs.filter { $0.value == token }.keys.sorted() }
    }

    /// The tokens a pinyin word followed by its tone's number (1–4) may say: those of the word whose citation tone
    /// that is.
    static func toned(_ word: String) -> [Token] {
        guard let last = word.last, let tone = Int(String(last)).flatMap(Tone.init(rawValue:)),
            let syllable = pinyin[String(word.dropLast())]
        else { return [] }
        return syllable.filter { Tone.citation(of: $0) == tone }
    }

    /// The spoken style's token for each number a name may hold.
    static let numbers: [Int: Token] = {
        var numbers: [Int: Token] = [10: "十", 100: "百", 1000: "千", 10_000: "万", 100_000_000: "亿"]
        for (digit, token) in "零一二三四五六七八九".enumerated() { numbers[digit] = Token(String(token)) }
        return numbers
    }()

    /// The spoken style's tokens each word may say: English, pinyin, and the words apps make up.
    static let words: [String: [Token]] = {
        var words = pinyin
        let english = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        for digit in 0..<10 { words[english[digit]] = [numbers[digit]!] }
        for (names, number) in [
            (["ten"], 10), (["hundred"], 100), (["thousand"], 1000), (["tenthousand"], 10_000),
            // The apps that name 亿 in English call it ten million or a billion as often as a hundred million.
            (["hundredmillion", "tenmillion", "billion", "yii"], 100_000_000),
        ] {
            for name in names { words[name] = [numbers[number]!] }
        }
        for name in ["dot", "point"] { words[name] = ["点"] }
        return words
    }()

    /// The pinyin words, whose tone a name may write after them (`wan4`).
    static let pinyin: [String: [Token]] = {
        var words: [String: [Token]] = [:]
        for (digit, name) in ["ling", "", "er", "san", "si", "wu", "liu", "qi", "ba", "jiu"].enumerated()
        where !name.isEmpty {  // yi: below
            words[name] = [numbers[digit]!]
        }
        for (name, number) in [("shi", 10), ("bai", 100), ("qian", 1000), ("wan", 10_000)] {
            words[name] = [numbers[number]!]
        }
        words["yi"] = [numbers[1]!, numbers[100_000_000]!]  // yī and yì: apart by their tones, which names do not write
        for (name, token) in [
            ("liang", "两"), ("dian", "点"), ("yuan", "元"), ("jiao", "角"), ("fen", "分"), ("zheng", "整"),
        ] {
            words[name] = [Token(token)]
        }
        return words
    }()
}

extension Naming {
    /// What a stem that names no token likely says by its name, as apps name their recordings: one token
    /// (`tts_yuan`: 元; `sound1`: 一, or 壹 when the enabled styles say 壹 and not 一), the tokens it may be
    /// (`yi`: 一 or 亿), or none. See `AppStemReading`.
    public func readings(ofStem stem: String) -> [Token] {
        let readings = AppStemReading.readings(ofStem: stem)
        guard !readings.isEmpty else { return [] }
        let said = SpeechConverter.alphabet(styles: styles, forms: AmountForm.allCases)
        return readings.map { variants in variants.first(where: said.contains) ?? variants[0] }
    }
}
