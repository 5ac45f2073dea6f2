/// One thing the splicer plays as one fragment: a character (一, 亿, 億, 〇, 元…) or a phrase (微信收款).
public struct Token: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }

    public var description: String { text }

    /// Ordered by Unicode scalar values, so that sorting gives the same order on every platform.
    public static func < (lhs: Token, rhs: Token) -> Bool { inScalarOrder(lhs.text, rhs.text) }

    /// Whether `lhs` comes before `rhs` by Unicode scalar values: UTF-8 keeps that order byte for byte.
    public static func inScalarOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// What the converter says for one amount: the text, and the tokens that spell it in order.
public struct Reading: Hashable, Sendable {
    public let tokens: [Token]

    public init(tokens: [Token]) { self.tokens = tokens }

    public var text: String { tokens.map(\.text).joined() }
}
