/// How a one-character token's syllable begins, said alone: with its voice — a vowel, or l and the glides y and w
/// (一 二 五 六 零 两 万 亿 元) — or with a consonant the voice follows: a fricative or an aspirated affricate (s, x,
/// sh, q: 三 四 七 十 千 分) or a stop (b, d, j, zh: 八 九 百 点 角 整). A recording of one token says it alone, so
/// this is a fact of the token.
public enum Onset: Sendable, CaseIterable {
    case voice
    case consonant

    /// The onset of a one-character token the converter can say; nil for a phrase or anything else.
    public static func of(_ token: Token) -> Onset? {
        if voiceFirst.contains(token.text) { return .voice }
        return Tone.citation(of: token) != nil ? .consonant : nil
    }

    private static let voiceFirst: Set<String> = Set("〇零一壹二贰五伍六陆两万萬亿億元".map(String.init))
}
