import PackManifest
import SpeechText

/// Which tokens a pack must have: every token of the enabled styles' and forms' alphabets and every
/// token a template says, each served by a fragment of its own or through an alias.
public struct Coverage: Sendable {
    public struct Need: Hashable, Sendable {
        public let token: Token
        /// `spoken/yuan`, `template wechat`: who needs it.
        public let neededBy: [String]
    }

    public let settings: Settings

    public init(settings: Settings) { self.settings = settings }

    public var phrases: Set<String> { Set(settings.phrases.values) }

    /// Every token needed, with who needs it, sorted by token.
    public var needs: [Need] {
        var neededBy: [Token: [String]] = [:]
        for style in settings.styles {
            for form in settings.forms {
                for token in SpeechConverter(style: style, form: form).alphabet {
                    neededBy[token, default: []].append("\(style.name)/\(form.name)")
                }
            }
        }
        for (name, text) in settings.templates.sorted(by: { $0.key < $1.key }) {
            for token in Set(Template(name: name, text: text).ownTokens(phrases: phrases)) {
                neededBy[token, default: []].append("template \(name)")
            }
        }
        return neededBy.keys.sorted().map { Need(token: $0, neededBy: neededBy[$0]!) }
    }

    /// The aliases, and the rule by which a token finds the fragment that plays it.
    public var aliases: AliasResolver { AliasResolver(settings.aliases) }

    /// The needs that no fragment in `available` serves, by its own or through an alias.
    public func missing(from available: Set<Token>) -> [Need] {
        let aliases = aliases
        return needs.filter { aliases.player(of: $0.token, hasFragment: available.contains) == nil }
    }

    /// The smallest amount above zero (to the 分, up to 1000 yuan, then powers of ten) that the enabled
    /// styles and forms say with `token`, with the style, form and text, for a message that shows why it
    /// is needed.
    public func witness(for token: Token) -> (amount: Amount, style: ReadingStyle, form: AmountForm, text: String)? {
        var best: (amount: Amount, style: ReadingStyle, form: AmountForm, text: String)?
        for style in settings.styles {
            for form in settings.forms {
                let converter = SpeechConverter(style: style, form: form)
                guard converter.alphabet.contains(token) else { continue }
                for amount in Coverage.candidates {
                    if let best, best.amount <= amount { break }
                    let reading = converter.reading(of: amount)
                    if reading.tokens.contains(token) {
                        best = (amount, style, form, reading.text)
                        break
                    }
                }
            }
        }
        return best
    }

    /// Amounts in increasing order: every 分 from 0.01 to 999.99 yuan, then 10^3…10^11 yuan — where every
    /// token of every style first appears (万 at 10^4, 亿 at 10^8).
    static let candidates: [Amount] =
        (Int64(1)..<100_000).map { Amount(fen: $0)! } + (3...11).map { Amount(yuan: Int64(pow10($0)))! }

    private static func pow10(_ exponent: Int) -> Int64 { (0..<exponent).reduce(1) { value, _ in value * 10 } }
}
