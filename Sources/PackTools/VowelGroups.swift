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
/// - Which group is the voice's i is read from its 亿 and 万 (fourth tones, i and a): the group nearer 亿 and
///   further from 万. Without them a swap is not told from another (一 and 八 swapped split the four as 七 and 三
///   swapped do), and nothing is said. Each syllable the split moves is said only where it leans, by itself, to
///   the other vowel's side of the two groups: a recording of neither vowel under one's name (二's under 七's) can
///   push one of the others (三) into the wrong group, and it is not blamed.
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
        let references = References(envelopes)
        guard named.count >= 2, syllables.count - named.count >= 2, Set(envelopes.map(\.mfcc.count)).count == 1,
            !references.isEmpty
        else { return }
        let splits = Self.splits(count: syllables.count, size: named.count).map { group in
            (group: group, spread: Self.spread(group, syllables.map(\.mfcc)))
        }.sorted { $0.spread.ratio < $1.spread.ratio }
        let best = splits[0]
        let other = Set(syllables.indices).subtracting(best.group)
        func leaning(_ group: Set<Int>) -> Double { references.leaning(group.map { syllables[$0].mfcc }) }
        guard best.spread.ratio <= Self.clearRatio, splits[1].spread.ratio - best.spread.ratio >= Self.clearMargin,
            best.spread.between >= Self.distinctVowels, best.group != named, other != named,
            leaning(best.group) != leaning(other)
        else { return }
        let iGroup = leaning(best.group) < leaning(other) ? best.group : other
        let aGroup = Set(syllables.indices).subtracting(iGroup)
        for index in syllables.indices where named.contains(index) != iGroup.contains(index) {
            // Confirmed by the references: a syllable an odd one pushed into the other group (a recording of
            // neither vowel under one's name) leans, by itself, to its own vowel's side.
            let midway = (leaning(iGroup.subtracting([index])) + leaning(aGroup.subtracting([index]))) / 2
            let saidWithI = named.contains(index)
            guard (leaning([index]) < midway) != saidWithI else { continue }
            let sameSide = syllables.indices.filter { $0 != index && iGroup.contains($0) == iGroup.contains(index) }
            let ownVowel = syllables.indices.filter { $0 != index && named.contains($0) == saidWithI }
            misplaced[syllables[index].token] = Misplaced(
                soundsLike: sameSide.filter { named.contains($0) != saidWithI }.map { syllables[$0].token },
                unlike: ownVowel.filter { iGroup.contains($0) == saidWithI }.map { syllables[$0].token },
                vowel: saidWithI ? "a" : "i", ownVowel: saidWithI ? "i" : "a")
        }
    }

    /// The pack's 亿 and 万 (fourth tones said with i and with a), which tell which group is which.
    struct References {
        let i: [[Double]]
        let a: [[Double]]

        init(_ envelopes: [(token: String, mfcc: [Double])]) {
            i = envelopes.filter { VowelGroups.referenceI.contains($0.token) }.map(\.mfcc)
            a = envelopes.filter { VowelGroups.referenceA.contains($0.token) }.map(\.mfcc)
        }

        var isEmpty: Bool { i.isEmpty && a.isEmpty }

        /// How far `syllables` lie from 亿, as a mean, less how far from 万: the lower, the more they sound like i.
        func leaning(_ syllables: [[Double]]) -> Double {
            func mean(_ references: [[Double]]) -> Double {
                let distances = syllables.flatMap { syllable in references.map { VowelGroups.distance(syllable, $0) } }
                return distances.isEmpty ? 0 : distances.reduce(0, +) / Double(distances.count)
            }
            return mean(i) - mean(a)
        }
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
