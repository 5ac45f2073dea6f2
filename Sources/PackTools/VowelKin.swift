import Foundation

/// Two recordings under each other's names that neither their tones nor their onsets give away, told by the
/// pack's syllables said with the same vowel as one of them (its kin): 六 ends in the u of 五 and 九, 零 is said
/// with the i of 一 七 亿 (七 with the i of 一 and 亿), 八 万 and 百 with the a of 三 and of each other, 点 ends in the
/// ian of 千, and 二 with a vowel no other syllable has.
///
/// Each judged pair is one that swap-names missed on the twenty-one packs real apps shipped (BENCHMARKS.md): 二 and 六
/// are fourth tones that start with their voice, 万 and 亿 too; 零 starts low and rises, as a real third tone (九, 五) said
/// alone may, and as a real first tone (八) may read when its b is short; 八 and 六 start alike (a real 八's b is short); 点
/// and 百 are third tones after a stop; 七 and 九 are a first and a third tone, and a third tone said alone may fall or
/// rise (the tone rule does not judge it). Each kin lies nearer one of the two than the other, in the vowel envelopes
/// (`Manifest.Analysis.vowelMFCC`); a pair is said to be swapped when every kin of each of the two lies nearer the
/// other one, by `swappedLeaning` or more as a mean over the kin of each side and over the sides (over one where the
/// other has no kin in the pack, as for 二). Every kin, not their mean: a kin that is another token's take (a swap of
/// its own that no rule caught) would lean as it likes.
///
/// On the twenty-one real voices the pairs lean the names' way by 0.93–4.0 (二/六), 0.21–3.0 (零/九), 0.88–5.3
/// (八/零), 1.5–6.0 (万/亿, thirteen packs), 0.79–3.9 (八/六), 0.05–5.0 (点/百, where every kin agrees in 12 of 19),
/// 1.3–5.4 (零/五) and 0.27–5.5 (七/九, 16 of 20 agreeing); two recordings swapped lean the other way by as much.
/// Sides without kin: 八's against 六 (三 and 万 lean either way), 五's against 零 (六 and 九 start with an i, and lie
/// nearer 零). Pairs left out: 一 and 九 (in caifenglei three of its four kin lean the other way, and a swap of 万
/// and 亿 tipped the fourth), 八 and 九, 元 and 点, which some real voices lean under 0.4 the names' way, or the
/// other way.
struct VowelKin {
    /// The syllables said with one vowel, in every reading style and in the order a message names them, and how
    /// it names the vowel.
    struct Kin {
        let tokens: [String]
        let vowel: String

        init(_ characters: String, _ vowel: String) {
            tokens = characters.map(String.init)
            self.vowel = vowel
        }
    }

    struct Pair {
        let first: Set<String>
        let second: Set<String>
        let firstKin: Kin?
        let secondKin: Kin?
        /// How far the pair must lean the other way to be said.
        let swappedLeaning: Double

        init(
            _ first: String, _ second: String, _ firstKin: Kin?, _ secondKin: Kin?,
            swappedLeaning: Double = VowelKin.swappedLeaning
        ) {
            (self.first, self.second) = (Set(first.map(String.init)), Set(second.map(String.init)))
            (self.firstKin, self.secondKin) = (firstKin, secondKin)
            self.swappedLeaning = swappedLeaning
        }
    }

    static let saidWithI = Kin("一壹七柒亿億零〇", "said with i")
    static let saidWithA = Kin("八捌三叁万萬", "said with a")
    static let endingInU = Kin("五伍六陆九玖", "ending in u")
    static let endingInIan = Kin("千仟", "ending in ian")
    /// The i said alone, without 零's ng: 零 leans either way against 七 and 九.
    static let saidWithOnlyI = Kin("一壹七柒亿億", "said with i")
    static let pairs = [
        Pair("二贰", "六陆", nil, endingInU), Pair("零〇", "九玖", saidWithI, endingInU),
        Pair("八捌", "零〇", saidWithA, saidWithI), Pair("万萬", "亿億", saidWithA, saidWithI),
        Pair("八捌", "六陆", nil, endingInU), Pair("点點", "百佰", endingInIan, saidWithA),
        Pair("零〇", "五伍", saidWithI, nil, swappedLeaning: zeroAndFiveLeaning),
        Pair("七柒", "九玖", saidWithOnlyI, endingInU),
    ]
    /// As far as a tone moves one vowel's envelope in syllables made by code (`VowelGroups`).
    static let swappedLeaning = 0.3
    /// 零 and 五 are judged by 零's kin alone, which in two of espeak-ng's voices (the shipped pack's among them)
    /// lean 0.56–0.58 the other way, every kin agreeing; the real voices' swapped lean 1.3 or more.
    static let zeroAndFiveLeaning = 1.0

    /// One of a pair whose kin lies nearer the other one.
    struct Side: Equatable {
        let token: String
        let kin: [String]
        let vowel: String
    }

    /// A recording that may be under its partner's name, and why: the sides whose kin lies nearer the other.
    struct Swap: Equatable {
        let partner: String
        let evidence: [Side]
    }

    /// By token; empty where every pair leans the names' way or is not judged.
    private(set) var swapped: [String: Swap] = [:]

    /// `envelopes`: the pack's one-syllable recordings (`VoiceConsistency` passes none where another rule sets
    /// one apart). The pair leaning furthest the other way is said first, and its two are no one's kin after: 零
    /// and 九 swapped put an i under 九's name, which 二 and 六 would be judged by.
    init(_ envelopes: [(token: String, mfcc: [Double])]) {
        var pool = Dictionary(envelopes.map { ($0.token, $0.mfcc) }, uniquingKeysWith: { first, _ in first })
        guard Set(pool.values.map(\.count)).count == 1 else { return }
        while let swap = Self.pairs.flatMap({ pair in
            Self.judged(pair, pool).filter { $0.leaning >= pair.swappedLeaning }
        }).max(by: { $0.leaning < $1.leaning }) {
            swapped[swap.first] = Swap(partner: swap.second, evidence: swap.evidence)
            swapped[swap.second] = Swap(partner: swap.first, evidence: swap.evidence)
            pool[swap.first] = nil
            pool[swap.second] = nil
        }
    }

    /// How far each of `pair`'s tokens in `pool` leans the other way against each of the other's, as a mean over
    /// its sides that have kin in `pool`: only where every kin of each side lies nearer the other one (a kin under
    /// another's name, which a swap of its own leaves there, leans as it likes), and its sides.
    static func judged(_ pair: Pair, _ pool: [String: [Double]]) -> [(
        first: String, second: String, leaning: Double, evidence: [Side]
    )] {
        let members = pair.first.union(pair.second)
        func side(_ token: String, _ kin: Kin?) -> Side {
            let present = (kin?.tokens ?? []).filter { !members.contains($0) && pool[$0] != nil }
            return Side(token: token, kin: present, vowel: kin?.vowel ?? "")
        }
        return pair.first.filter { pool[$0] != nil }.sorted().flatMap { first in
            pair.second.filter { pool[$0] != nil }.sorted().compactMap { second in
                let sides = [(side(first, pair.firstKin), second), (side(second, pair.secondKin), first)]
                    .filter { !$0.0.kin.isEmpty }
                let leanings = sides.map { side, other in
                    side.kin.map { nearer(pool[$0]!, named: pool[side.token]!, other: pool[other]!) }
                }
                guard !sides.isEmpty, leanings.allSatisfy({ $0.allSatisfy { $0 < 0 } }) else { return nil }
                let mean = leanings.map { $0.reduce(0, +) / Double($0.count) }.reduce(0, +) / Double(sides.count)
                return (first, second, -mean, sides.map(\.0))
            }
        }
    }

    /// How much nearer `kin` lies to `named` than to `other`: positive where the named one sounds more like it.
    static func nearer(_ kin: [Double], named: [Double], other: [Double]) -> Double {
        VowelGroups.distance(other, kin) - VowelGroups.distance(named, kin)
    }
}
