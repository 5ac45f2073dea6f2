import SpeechText

/// One thing the app can say, and how long it lasts when spliced.
public struct Utterance: Equatable, Sendable {
    public let amount: Amount
    public let style: ReadingStyle
    public let form: AmountForm
    /// The template it is said in, or nil for the amount alone.
    public let template: String?
    public let text: String
    public let tokens: [Token]
    public let frames: Int
    public let durationMs: Double
}

extension Splicer {
    /// The longest utterance the styles, forms and templates can produce with this pack's fragments.
    ///
    /// The amount is found by coordinate ascent over its 14 digits (9999亿… to the 分), from every
    /// all-one-digit start: each digit in turn takes the value that makes the utterance longest, until no
    /// digit changes. Reading rules couple digits only weakly (零, 十, 两), so this reaches the longest
    /// amount; tokens without a fragment count as silent (`check` reports them on their own).
    public func longestUtterance(
        styles: [ReadingStyle], forms: [AmountForm], templates: [Template], phrases: Set<String>,
        upTo bound: Amount = .maximum
    ) -> Utterance? {
        let rate = pack.manifest.format.sampleRate
        let lengthOf: [Token: Int] = Dictionary(
            uniqueKeysWithValues: Set(
                pack.manifest.fragments.map { Token($0.token) } + pack.manifest.aliases.keys.map { Token($0) }
            )
            .compactMap { token in pack.fragment(for: token).map { (token, $0.frames) } })
        let gap = gapFrames
        let crossfade = crossfadeFrames
        func frames(_ tokens: [Token]) -> Int {
            Splicer.frames(lengths: tokens.compactMap { lengthOf[$0] }, gap: gap, crossfade: crossfade)
        }
        let sentences: [Template?] = [nil] + templates.sorted { $0.name < $1.name }.map { Optional($0) }
        var best: Utterance?
        for style in styles {
            for form in forms {
                let converter = SpeechConverter(style: style, form: form)
                let amount = Splicer.longestAmount(upTo: bound) { frames(converter.reading(of: $0).tokens) }
                let reading = converter.reading(of: amount)
                for template in sentences {
                    let tokens = template?.tokens(around: reading, phrases: phrases) ?? reading.tokens
                    let length = frames(tokens)
                    if length > best?.frames ?? -1 {
                        best = Utterance(
                            amount: amount, style: style, form: form, template: template?.name,
                            text: template?.text(around: reading) ?? reading.text, tokens: tokens, frames: length,
                            durationMs: Double(length) * 1000 / Double(rate))
                    }
                }
            }
        }
        return best
    }

    /// The amount up to `bound` that maximizes `length`, by coordinate ascent over its digits (as many as the
    /// bound has), no step passing the bound.
    static func longestAmount(upTo bound: Amount = .maximum, _ reading: (Amount) -> Int) -> Amount {
        func amount(_ digits: [Int64]) -> Amount { Amount(fen: digits.reduce(0) { $0 * 10 + $1 })! }
        // The ascents from the nine starts meet the same amounts again and again: each is read once.
        var lengths: [Int64: Int] = [:]
        func length(_ amount: Amount) -> Int {
            if let known = lengths[amount.fen] { return known }
            let length = reading(amount)
            lengths[amount.fen] = length
            return length
        }
        let places = String(bound.fen).count
        let boundDigits = String(bound.fen).map { Int64(String($0))! }
        var best = (digits: boundDigits, length: length(bound))
        for start in Int64(1)...9 {
            var digits = [Int64](repeating: start, count: places)
            if amount(digits) > bound { digits = boundDigits }
            var current = length(amount(digits))
            var improved = true
            while improved {
                improved = false
                for position in digits.indices {
                    for digit in Int64(0)...9 where digit != digits[position] {
                        var candidate = digits
                        candidate[position] = digit
                        guard amount(candidate) <= bound else { continue }
                        let candidateLength = length(amount(candidate))
                        if candidateLength > current {
                            digits = candidate
                            current = candidateLength
                            improved = true
                        }
                    }
                }
            }
            if current > best.length { best = (digits, current) }
        }
        return amount(best.digits)
    }
}
