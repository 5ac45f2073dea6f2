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

    /// Every token needed, with who needs it, in reading order (`SpeechConverter.inReadingOrder`): 零 一 … 九
    /// before 十 百 千, phrases last.
    public var needs: [Need] {
        var neededBy: [Token: [String]] = [:]
        for style in settings.styles {
            for form in settings.forms {
                for token in SpeechConverter(style: style, form: form).alphabet(upTo: settings.amountBound) {
                    neededBy[token, default: []].append("\(style.name)/\(form.name)")
                }
            }
        }
        for (name, text) in settings.templates.sorted(by: { $0.key < $1.key }) {
            for token in Set(Template(name: name, text: text).ownTokens(phrases: phrases)) {
                neededBy[token, default: []].append("template \(name)")
            }
        }
        return SpeechConverter.inReadingOrder(Set(neededBy.keys)).map { Need(token: $0, neededBy: neededBy[$0]!) }
    }

    /// The aliases, and the rule by which a token finds the fragment that plays it.
    public var aliases: AliasResolver { AliasResolver(settings.aliases) }

    /// The needs that no fragment in `available` serves, by its own or through an alias.
    public func missing(from available: Set<Token>) -> [Need] {
        let aliases = aliases
        return needs.filter { aliases.player(of: $0.token, hasFragment: available.contains) == nil }
    }

    /// What a voice talent records for the pack, one recording a token: each need that no recording in
    /// `recorded` serves (its own, or through an alias), as the token its aliases end at — 〇 with an alias to
    /// 零 is recorded as 零 — the numerals and money words in reading order (`SpeechConverter.readingOrder`),
    /// then the phrases.
    public func toRecord(besides recorded: Set<Token> = []) -> [Token] {
        let aliases = aliases
        var tokens: Set<Token> = []
        for need in needs where aliases.player(of: need.token, hasFragment: recorded.contains) == nil {
            tokens.insert(aliases.chain(from: need.token).tokens.last!)
        }
        return SpeechConverter.inReadingOrder(tokens)
    }

    /// The smallest amount above zero (to the 分, up to 1000 yuan, then powers of ten) that the enabled
    /// styles and forms say with `token`, with the style, form and text, for a message that shows why it
    /// is needed.
    public func witness(for token: Token) -> (amount: Amount, style: ReadingStyle, form: AmountForm, text: String)? {
        var best: (amount: Amount, style: ReadingStyle, form: AmountForm, text: String)?
        for style in settings.styles {
            for form in settings.forms {
                let converter = SpeechConverter(style: style, form: form)
                guard converter.alphabet(upTo: settings.amountBound).contains(token) else { continue }
                for amount in SpeechConverter.witnessAmounts where amount <= settings.amountBound {
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

}
