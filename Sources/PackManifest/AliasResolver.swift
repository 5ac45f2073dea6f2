import SpeechText

/// Which token's fragment plays for a token — the one rule that coverage, `check`, `audit`, `say` and the
/// splicer all follow: the token's own fragment when it has one; otherwise its alias's, and so on along the
/// chain (〇 → 零), to the first token that has a fragment. A chain that comes back on itself, or ends at a
/// token without a fragment, plays nothing.
public struct AliasResolver: Sendable {
    public let aliases: [Token: Token]

    public init(_ aliases: [Token: Token]) { self.aliases = aliases }

    /// The token whose fragment plays for `token`, or nil when none does.
    public func player(of token: Token, hasFragment: (Token) -> Bool) -> Token? {
        var current = token
        var seen: Set<Token> = [token]
        while !hasFragment(current) {
            guard let next = aliases[current], seen.insert(next).inserted else { return nil }
            current = next
        }
        return current
    }

    /// The chain from `token`: the token and each alias in turn, up to a repeat (then `cycle` is true).
    public func chain(from token: Token) -> (tokens: [Token], cycle: Bool) {
        var tokens = [token]
        var seen: Set<Token> = [token]
        while let next = aliases[tokens.last!] {
            guard seen.insert(next).inserted else { return (tokens, true) }
            tokens.append(next)
        }
        return (tokens, false)
    }
}
