import Foundation
import SpeechText

/// Which token a recording's file name stands for.
///
/// A stem names a token when `assets.json` maps it (`stems`, `phrases`), when it is one of the default
/// stems (`digit_1`, `unit_yuan`…), or when it is the token itself (`億.wav`, `壹.flac`, `〇.caf`).
public struct Naming: Sendable {
    /// The default stems, after the seed project's `digit_0` / `unit_yuan` convention.
    public static let defaultStems: [(stem: String, token: Token)] = [
        ("digit_0", "零"), ("digit_1", "一"), ("digit_2", "二"), ("digit_3", "三"), ("digit_4", "四"),
        ("digit_5", "五"), ("digit_6", "六"), ("digit_7", "七"), ("digit_8", "八"), ("digit_9", "九"),
        ("digit_liang", "两"), ("unit_shi", "十"), ("unit_bai", "百"), ("unit_qian", "千"), ("unit_wan", "万"),
        ("unit_yi", "亿"), ("unit_yuan", "元"), ("unit_jiao", "角"), ("unit_fen", "分"), ("unit_zheng", "整"),
        ("unit_dian", "点"),
    ]

    private let stemToToken: [String: Token]
    /// Each made when first asked for: a build whose recordings all have mapped stems needs neither, and
    /// each is thousands of entries in a pack of thousands of phrases.
    private let tokenToStem: Lazy<[Token: String]>
    private let known: Lazy<Set<Token>>
    /// The enabled styles: which of a digit's tokens (一 or 壹) a name like `sound1` likely says.
    let styles: [ReadingStyle]

    /// Tokens a file may be named after directly.
    public var knownTokens: Set<Token> { known.value }

    public init(settings: Settings) {
        var stemToToken: [String: Token] = [:]
        stemToToken.reserveCapacity(Naming.defaultStems.count + settings.phrases.count + settings.stems.count)
        for (stem, token) in Naming.defaultStems { stemToToken[stem] = token }
        for (stem, text) in settings.phrases { stemToToken[stem] = Token(text) }
        for (stem, token) in settings.stems { stemToToken[stem] = token }
        self.stemToToken = stemToToken
        styles = settings.styles
        tokenToStem = Lazy { [stemToToken] in
            // The first stem in scalar order, when several name one token; found without sorting them all.
            var tokenToStem: [Token: String] = [:]
            tokenToStem.reserveCapacity(stemToToken.count)
            for (stem, token) in stemToToken {
                if let chosen = tokenToStem[token], !Token.inScalarOrder(stem, chosen) { continue }
                tokenToStem[token] = stem
            }
            return tokenToStem
        }
        known = Lazy {
            var known = SpeechConverter.alphabet(styles: ReadingStyle.allCases, forms: AmountForm.allCases)
            known.formUnion(settings.phrases.values.map { Token($0) })
            known.formUnion(settings.aliases.keys)
            known.formUnion(settings.aliases.values)
            let phrases = Set(settings.phrases.values)
            for (name, text) in settings.templates {
                known.formUnion(Template(name: name, text: text).ownTokens(phrases: phrases))
            }
            return known
        }
    }

    /// The token a file stem stands for, or nil. Stems compare in NFC, so NFD names from macOS match.
    public func token(forStem stem: String) -> Token? {
        // ASCII is its own NFC: most stems skip Foundation's normalization.
        let normalized = stem.utf8.allSatisfy { $0 < 0x80 } ? stem : stem.precomposedStringWithCanonicalMapping
        if let token = stemToToken[normalized] { return token }
        let token = Token(normalized)
        return known.value.contains(token) ? token : nil
    }

    /// The stem (default or mapped) nearest to one that names no token, and its token: `digit_4` for `digt_4`
    /// or `DIGIT_4`; nil when none is close, or when stems of two tokens are as near (`digit_6v2`: digit_6 and
    /// digit_2), since a guess between them could make the pack say another number.
    public func nearestStem(to stem: String) -> (stem: String, token: Token)? {
        let candidates = stemToToken.keys.sorted(by: Token.inScalarOrder)
        let nearest = Suggestion.allNearest(to: stem, in: candidates)
        guard let first = nearest.first, let token = stemToToken[first],
            nearest.allSatisfy({ stemToToken[$0] == token })
        else { return nil }
        return (first, token)
    }

    /// The file stem that would provide `token`: its named stem, or the token itself.
    public func stem(for token: Token) -> String {
        tokenToStem.value[token] ?? token.text
    }
}

/// A value made the first time it is asked for, once, on whichever thread asks.
final class Lazy<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Value?
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
