/// A sentence around an amount, such as `微信收款{amount}`: what the app says when money arrives.
///
/// Its text outside `{amount}` is spoken as phrases where a phrase matches (longest first) and character
/// by character elsewhere; punctuation and spaces are not spoken.
public struct Template: Hashable, Sendable {
    public static let placeholder = "{amount}"

    public let name: String
    public let text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// The template's text with the amount's text in place of `{amount}`.
    public func text(around reading: Reading) -> String {
        text.replacing(Template.placeholder, with: reading.text)
    }

    /// The tokens of the whole sentence: the template's own, with the amount's in place of `{amount}`.
    public func tokens(around reading: Reading, phrases: Set<String>) -> [Token] {
        var tokens: [Token] = []
        let parts = text.split(separator: Template.placeholder, omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            tokens += Template.tokenize(String(part), phrases: phrases)
            if index < parts.count - 1 { tokens += reading.tokens }
        }
        return tokens
    }

    /// The tokens the template says besides the amount.
    public func ownTokens(phrases: Set<String>) -> [Token] {
        tokens(around: Reading(tokens: []), phrases: phrases)
    }

    /// Greedy longest match against the phrases; otherwise one character a token.
    static func tokenize(_ text: String, phrases: Set<String>) -> [Token] {
        let characters = Array(text)
        let longest = phrases.map(\.count).max() ?? 0
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            var matched = false
            for length in stride(from: min(longest, characters.count - index), through: 2, by: -1) {
                let candidate = String(characters[index..<(index + length)])
                if phrases.contains(candidate) {
                    tokens.append(Token(candidate))
                    index += length
                    matched = true
                    break
                }
            }
            if matched { continue }
            let character = characters[index]
            if !character.isPunctuation && !character.isWhitespace && !character.isSymbol {
                tokens.append(Token(String(character)))
            }
            index += 1
        }
        return tokens
    }
}
