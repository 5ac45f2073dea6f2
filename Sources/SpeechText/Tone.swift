/// The four tones of Mandarin, as a syllable carries them said alone (its citation form). A recording of one
/// token is said alone, so its tone is a fact of the token: 一 and 不 change tone only beside other syllables.
public enum Tone: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Tone 1, high and level (一 三 七 八 千 分).
    case high = 1
    /// Tone 2, rising from the middle of the voice to its top (零 十 元).
    case rising
    /// Tone 3, low and dipping, its rise short when said alone (五 九 百 点 两 角 整).
    case low
    /// Tone 4, falling from the top (二 四 六 万 亿).
    case falling

    public var description: String {
        switch self {
        case .high: "first (high)"
        case .rising: "second (rising)"
        case .low: "third (low)"
        case .falling: "fourth (falling)"
        }
    }

    /// The citation tone of a one-character token the converter can say; nil for a phrase or anything else.
    public static func citation(of token: Token) -> Tone? { citations[token.text] }

    private static let citations: [String: Tone] = {
        let groups: [(String, Tone)] = [
            ("一壹三叁七柒八捌千仟分", .high),
            ("零〇十拾元", .rising),
            ("五伍九玖百佰点點两角整", .low),
            ("二贰四肆六陆万萬亿億", .falling),
        ]
        var table: [String: Tone] = [:]
        for (characters, tone) in groups {
            for character in characters { table[String(character)] = tone }
        }
        return table
    }()
}
