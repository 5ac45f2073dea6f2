import Foundation

/// Whether the pack's first-tone syllables said with i (一 七) and with a (八 三) sound like their own vowel's: a
/// recording under another token's name that neither its tone nor its onset gives away — 一 and 八 are first tones
/// that start with their voice, 七 and 三 first tones that start with a consonant.
///
/// Each syllable's vowel envelope (`Manifest.Analysis.vowelMFCC`) is compared with the others' of the same voice
/// only: two voices' i differ as much as one voice's i and a. The syllables are split into two groups of the sizes
/// the names give (two and two: 一 七 against 八 三) every way they can be, and the split whose groups lie tightest
/// against their distance apart (the mean distance within the groups over the mean distance between them) is the
/// one the voice makes. Where that split is clear — at most `clearRatio`, the next best `clearMargin` or more above
/// it, and its groups `distinctVowels` or more apart — and it is not the names' split, each syllable it puts with
/// the other vowel is said to sound like it. Two recordings swapped move one syllable each way; the voice's split
/// stays what it is.
///
/// - Syllables of one tone only: a tone moves the envelope too (its harmonics move under the formants), and a
///   voice that says every vowel alike would be split by its tones (亿 and 万, fourth tones, against the rest).
/// - `distinctVowels`: an i and an a lie 2.6–8.4 apart in the twenty-one real voices; a tone or a consonant's hiss
///   before the vowel moves syllables made by code with one vowel 0.3 and 0.03.
/// - Which group is the voice's i is read from its 亿 and 万 (fourth tones, i and a): the group nearer 亿 and further
///   from 万. A pack with neither goes by the names, and where a swap leaves that a tie (一 and 八 swapped split the
///   four as 七 and 三 swapped do), says nothing.
///
/// On the twenty-one packs real apps shipped and the stand-ins, every voice's split was the names' (BENCHMARKS.md),
/// at 0.18–0.71 against 1.06–1.69 for the next best; one pack's (yukai: 0.83 against 1.06) is not clear enough to
/// judge.
struct VowelGroups {
    /// The first-tone tokens said with each of the two vowels, in every reading style.
    static let withI: Set<String> = Set("一壹七柒".map(String.init))
    static let withA: Set<String> = Set("八捌三叁".map(String.init))
    /// Fourth tones said with i and with a, which say which group is which.
    static let referenceI: Set<String> = Set("亿億".map(String.init))
    static let referenceA: Set<String> = Set("万萬".map(String.init))
    static let clearRatio = 0.75
    static let clearMargin = 0.3
    static let distinctVowels = 1.5

    /// A syllable in the group of the other vowel, the syllables of that group it sounds like, and the syllables
    /// of its own vowel it does not.
    struct Misplaced: Equatable {
        let soundsLike: [String]
        let unlike: [String]
        let vowel: String
        let ownVowel: String
    }

    /// By token; empty where the split is the names' or is not clear.
    private(set) var misplaced: [String: Misplaced]

    init(_ envelopes: [(token: String, mfcc: [Double])]) {
        misplaced = [:]
        let syllables = envelopes.filter { Self.withI.contains($0.token) || Self.withA.contains($0.token) }
        let named = Set(syllables.indices.filter { Self.withI.contains(syllables[$0].token) })
        guard named.count >= 2, syllables.count - named.count >= 2, Set(envelopes.map(\.mfcc.count)).count == 1
        else { return }
        let splits = Self.splits(count: syllables.count, size: named.count).map { group in
            (group: group, spread: Self.spread(group, syllables.map(\.mfcc)))
        }.sorted { $0.spread.ratio < $1.spread.ratio }
        let best = splits[0]
        let other = Set(syllables.indices).subtracting(best.group)
        guard best.spread.ratio <= Self.clearRatio, splits[1].spread.ratio - best.spread.ratio >= Self.clearMargin,
            best.spread.between >= Self.distinctVowels,
            best.group != named, other != named,
            let iGroup = Self.saidWithI(best.group, other, syllables.map(\.mfcc), named: named, envelopes)
        else { return }
        for index in syllables.indices where named.contains(index) != iGroup.contains(index) {
            let saidWithI = named.contains(index)
            let sameSide = syllables.indices.filter { $0 != index && iGroup.contains($0) == iGroup.contains(index) }
            let ownVowel = syllables.indices.filter { $0 != index && named.contains($0) == saidWithI }
            misplaced[syllables[index].token] = Misplaced(
                soundsLike: sameSide.filter { named.contains($0) != saidWithI }.map { syllables[$0].token },
                unlike: ownVowel.filter { iGroup.contains($0) == saidWithI }.map { syllables[$0].token },
                vowel: saidWithI ? "a" : "i", ownVowel: saidWithI ? "i" : "a")
        }
    }

    /// Which of the two groups is said with i: the one nearer the pack's 亿 and further from its 万, or, with
    /// neither, the one holding more of the syllables named so; nil on a tie.
    static func saidWithI(
        _ first: Set<Int>, _ second: Set<Int>, _ syllables: [[Double]], named: Set<Int>,
        _ envelopes: [(token: String, mfcc: [Double])]
    ) -> Set<Int>? {
        let iReferences = envelopes.filter { referenceI.contains($0.token) }.map(\.mfcc)
        let aReferences = envelopes.filter { referenceA.contains($0.token) }.map(\.mfcc)
        func leaning(_ group: Set<Int>) -> Double {
            guard !iReferences.isEmpty || !aReferences.isEmpty else { return -Double(group.intersection(named).count) }
            func mean(_ references: [[Double]]) -> Double {
                let distances = group.flatMap { index in references.map { distance(syllables[index], $0) } }
                return distances.isEmpty ? 0 : distances.reduce(0, +) / Double(distances.count)
            }
            return mean(iReferences) - mean(aReferences)
        }
        let (firstLeaning, secondLeaning) = (leaning(first), leaning(second))
        guard firstLeaning != secondLeaning else { return nil }
        return firstLeaning < secondLeaning ? first : second
    }

    static func distance(_ first: [Double], _ second: [Double]) -> Double {
        sqrt(zip(first, second).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) })
    }

    /// Every way to choose `size` of `count` syllables, each split once (with two groups of one size, the
    /// group holding the first syllable).
    static func splits(count: Int, size: Int) -> [Set<Int>] {
        var splits: [Set<Int>] = []
        func choose(from start: Int, _ chosen: [Int]) {
            if chosen.count == size {
                if size * 2 != count || chosen.first == 0 { splits.append(Set(chosen)) }
                return
            }
            guard start < count else { return }
            for next in start..<count { choose(from: next + 1, chosen + [next]) }
        }
        choose(from: 0, [])
        return splits
    }

    /// The mean distance between syllables in different groups, and the mean distance between syllables in one
    /// group over it.
    static func spread(_ group: Set<Int>, _ envelopes: [[Double]]) -> (ratio: Double, between: Double) {
        var within: [Double] = []
        var between: [Double] = []
        for first in envelopes.indices {
            for second in envelopes.indices where second > first {
                let distance = Self.distance(envelopes[first], envelopes[second])
                if group.contains(first) == group.contains(second) {
                    within.append(distance)
                } else {
                    between.append(distance)
                }
            }
        }
        let meanBetween = between.reduce(0, +) / Double(max(1, between.count))
        let meanWithin = within.reduce(0, +) / Double(max(1, within.count))
        return (meanBetween > 0 ? meanWithin / meanBetween : 1, meanBetween)
    }
}
