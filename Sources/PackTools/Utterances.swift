import AudioPipeline
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// One thing the pack will say, as the audit plays it.
public struct PlannedUtterance: Sendable {
    /// Why it is in the audit: `cover spoken/yuan`, `longest`, `template alipay`.
    public let purpose: String
    public let amount: Amount
    public let style: ReadingStyle
    public let form: AmountForm
    public let template: String?
    public let text: String
    public let tokens: [Token]
    /// Tokens no fragment plays (directly or through an alias): the utterance cannot be played.
    public let missing: [Token]
}

/// The utterances the audit plays, so that every fragment is heard in context before an app is built:
///
/// - for each enabled style × form, a few amounts whose readings together use every token of its alphabet,
///   chosen greedily from a fixed list (each next amount the one that adds the most tokens not heard yet;
///   ties to the shorter text, then the smaller amount), so the same pack always gets the same amounts;
/// - the longest utterance, the one `check` measures against iOS's 30 s;
/// - one amount in each template: 88, or `maximumAmount` when that is less.
public enum UtterancePlan {
    /// Amounts that together say every token of every style and form: 零 and 〇 in gaps, 两 before 百千万亿,
    /// 十 alone and after a digit, 角 and 分, 点, 整, 万 and 亿 — and every digit under any `maximumAmount`
    /// from 10 (2.2, 3.06 and 4.59 say what otherwise comes only in larger amounts: 二 after 两, 三 and 六, 零 in
    /// a gap, 四, 五 and 九).
    static let pool: [Amount] = [
        "0", "0.05", "1.5", "2", "2.2", "3.06", "4.59", "7.8", "10", "12", "20.4", "36", "102", "200", "1010",
        "2000.09", "3456.78",
        "20000", "98765.43", "100010", "200000000", "123456789.12", "600000000000",
    ].map { try! Amount(parsing: $0) }

    /// What each template is heard saying (八十八元整), or `maximumAmount` when the app says less.
    static let templateAmount = try! Amount(parsing: "88")

    public static func plan(settings: Settings, pack: SoundPack?, longest: Utterance?) -> [PlannedUtterance] {
        plan(
            settings: settings, available: Set((pack?.manifest.fragments ?? []).map { Token($0.token) }),
            longest: longest)
    }

    /// The same, for a pack whose fragments play `available`.
    static func plan(settings: Settings, available: Set<Token>, longest: Utterance?) -> [PlannedUtterance] {
        let phrases = Set(settings.phrases.values)
        let aliases = AliasResolver(settings.aliases)
        func missing(_ tokens: [Token]) -> [Token] {
            var seen: Set<Token> = []
            return tokens.filter { token in
                guard aliases.player(of: token, hasFragment: available.contains) == nil else { return false }
                return seen.insert(token).inserted
            }
        }
        func utterance(
            _ purpose: String, _ amount: Amount, _ style: ReadingStyle, _ form: AmountForm, _ template: Template?
        )
            -> PlannedUtterance
        {
            let reading = SpeechConverter(style: style, form: form).reading(of: amount)
            let tokens = template?.tokens(around: reading, phrases: phrases) ?? reading.tokens
            return PlannedUtterance(
                purpose: purpose, amount: amount, style: style, form: form, template: template?.name,
                text: template?.text(around: reading) ?? reading.text, tokens: tokens, missing: missing(tokens))
        }

        var planned: [PlannedUtterance] = []
        for style in settings.styles {
            for form in settings.forms {
                for amount in cover(SpeechConverter(style: style, form: form), upTo: settings.amountBound) {
                    planned.append(utterance("cover \(style.name)/\(form.name)", amount, style, form, nil))
                }
            }
        }
        if let longest {
            let template = longest.template.flatMap { name in
                settings.templates[name].map { Template(name: name, text: $0) }
            }
            planned.append(utterance("longest", longest.amount, longest.style, longest.form, template))
        }
        if let style = settings.styles.first, let form = settings.forms.first {
            for (name, text) in settings.templates.sorted(by: { $0.key < $1.key }) {
                planned.append(
                    utterance(
                        "template \(name)", min(templateAmount, settings.amountBound), style, form,
                        Template(name: name, text: text)))
            }
        }
        return planned
    }

    /// The amounts, in the order chosen, whose readings together say every token of `converter`'s alphabet.
    static func cover(_ converter: SpeechConverter, upTo bound: Amount = .maximum) -> [Amount] {
        var unheard = converter.alphabet(upTo: bound)
        var chosen: [Amount] = []
        let readings = pool.filter { $0 <= bound }.map { ($0, converter.reading(of: $0)) }
        while !unheard.isEmpty {
            let best = readings.max { a, b in
                let (gainA, gainB) = (unheard.intersection(a.1.tokens).count, unheard.intersection(b.1.tokens).count)
                if gainA != gainB { return gainA < gainB }
                if a.1.tokens.count != b.1.tokens.count { return a.1.tokens.count > b.1.tokens.count }
                return a.0 > b.0
            }
            guard let best, !unheard.intersection(best.1.tokens).isEmpty else { break }
            chosen.append(best.0)
            unheard.subtract(best.1.tokens)
        }
        return chosen
    }
}

/// A planned utterance spliced by the `Splicer` module, as the app will, and measured.
public struct SplicedUtterance: Sendable {
    public struct Join: Sendable {
        /// Where the next piece starts in the spliced sound.
        public let atMs: Double
        public let left: Token
        public let right: Token
        /// The louder of the left piece's end and the right piece's start against the quieter (manifest's
        /// `tailDBFS` and `headDBFS`).
        public let stepDB: Double
        /// The join jumps by more, from one sample to the next, than either piece does anywhere: a click the
        /// crossfade did not hide.
        public let click: Bool
    }

    public let audio: PCMAudio
    public let durationMs: Double
    /// BS.1770 integrated loudness of the whole utterance.
    public let loudnessLUFS: Double
    public let joins: [Join]

    /// The level step at the join of `left` and `right`, from the manifest alone.
    public static func stepDB(_ left: Manifest.Fragment, _ right: Manifest.Fragment) -> Double {
        Manifest.rounded(abs(left.tailDBFS - right.headDBFS))
    }

    public static func splice(_ tokens: [Token], with splicer: Splicer) throws(SpliceError) -> SplicedUtterance {
        let audio = try splicer.splice(tokens)
        let fragments = tokens.compactMap { splicer.pack.fragment(for: $0) }
        let starts = splicer.pieceStarts(lengths: fragments.map(\.frames))
        let rate = Double(audio.sampleRate)
        var joins: [Join] = []
        for index in 1..<max(1, tokens.count) {
            let (left, right) = (fragments[index - 1], fragments[index])
            let own = max(
                try largestStep(splicer.pack.audio(for: tokens[index - 1]).samples[...]),
                try largestStep(splicer.pack.audio(for: tokens[index]).samples[...]))
            let around =
                max(0, starts[index] - 44)..<min(audio.samples.count, starts[index] + splicer.crossfadeFrames + 44)
            joins.append(
                Join(
                    atMs: Manifest.rounded(Double(starts[index]) * 1000 / rate), left: tokens[index - 1],
                    right: tokens[index], stepDB: stepDB(left, right),
                    click: largestStep(audio.samples[around]) > own + 1e-6))
        }
        let loudness = LoudnessMeter.integratedLoudness(Signal(samples: audio.samples, sampleRate: audio.sampleRate))
        return SplicedUtterance(
            audio: audio, durationMs: Manifest.rounded(Double(audio.samples.count) * 1000 / rate),
            loudnessLUFS: Manifest.rounded(loudness), joins: joins)
    }

    static func largestStep(_ samples: ArraySlice<Float>) -> Float {
        zip(samples, samples.dropFirst()).reduce(0) { max($0, abs($1.1 - $1.0)) }
    }
}
