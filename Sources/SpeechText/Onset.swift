/// How a one-character token's syllable begins, said alone. A recording of one token says it alone, so this is a
/// fact of the token.
public enum Onset: Sendable, CaseIterable {
    /// A vowel, l, or the glides y and w: the voice from the first moment (一 二 五 六 零 两 万 亿 元).
    case voice
    /// q or sh, an aspirated affricate or a retroflex fricative, which holds the voice back a long while (七 十 千).
    case longConsonant
    /// s, which a recording may carry weakly, cut short, or (at 8 kHz, or under noise) over its band or under it
    /// (三 四).
    case s
    /// Any other consonant: the stops and unaspirated affricates b, d, j, zh (八 九 百 点 角 整); f (分).
    case consonant

    /// The onset of a one-character token the converter can say; nil for a phrase or anything else.
    public static func of(_ token: Token) -> Onset? {
        if voiceFirst.contains(token.text) { return .voice }
        if longConsonantFirst.contains(token.text) { return .longConsonant }
        if sFirst.contains(token.text) { return .s }
        return Tone.citation(of: token) != nil ? .consonant : nil
    }

    private static let voiceFirst: Set<String> = Set("〇零一壹二贰五伍六陆两万萬亿億元".map(String.init))
    private static let longConsonantFirst: Set<String> = Set("七柒十拾千仟".map(String.init))
    private static let sFirst: Set<String> = Set("三叁四肆".map(String.init))
}
