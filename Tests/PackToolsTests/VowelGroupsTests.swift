import Foundation
import Testing

@testable import PackTools

/// How the pack's first-tone syllables said with i (一 七) and with a (八 三) are grouped by their vowels' envelopes.
@Suite struct VowelGroupsTests {
    /// An i and an a 5 apart (as a real voice's are: 2.6–8.4), each syllable a little off its vowel.
    static let i = [3.0, 3.0, -1.0, 0.5]
    static let a = [3.0, -1.0, 1.0, -1.0]

    static func near(_ vowel: [Double], _ offset: Double) -> [Double] {
        vowel.enumerated().map { $0.element + ($0.offset == 3 ? offset : 0) }
    }

    /// The pack's syllables: 一 七 八 三 with the vowels given (in that order), and 亿 (i) and 万 (a) unless
    /// `references` is false.
    static func groups(_ vowels: [[Double]], references: Bool = true, scale: Double = 1) -> VowelGroups {
        let tokens = ["一", "七", "八", "三"]
        var envelopes = zip(tokens, vowels).enumerated().map { index, pair in
            (token: pair.0, mfcc: near(pair.1, 0.3 * Double(index % 2)).map { $0 * scale })
        }
        if references {
            envelopes += [("亿", near(i, -0.4).map { $0 * scale }), ("万", near(a, -0.4).map { $0 * scale })]
        }
        return VowelGroups(envelopes)
    }

    @Test func syllablesThatSoundLikeTheirNamesSayNothing() {
        #expect(Self.groups([Self.i, Self.i, Self.a, Self.a]).misplaced.isEmpty)
        #expect(Self.groups([Self.i, Self.i, Self.a, Self.a], references: false).misplaced.isEmpty)
    }

    /// 一 and 八 swapped, or 七 and 三: the two are said, each with the syllables it sounds like and those of its
    /// own vowel it does not; 亿 and 万 tell the one swap from the other.
    @Test func twoSyllablesSwappedAreEachSaidToSoundLikeTheOtherVowel() {
        let swapped = Self.groups([Self.a, Self.i, Self.i, Self.a]).misplaced
        #expect(Set(swapped.keys) == ["一", "八"])
        #expect(swapped["一"] == .init(soundsLike: ["三"], unlike: ["七"], vowel: "a", ownVowel: "i"))
        #expect(swapped["八"] == .init(soundsLike: ["七"], unlike: ["三"], vowel: "i", ownVowel: "a"))
        #expect(Set(Self.groups([Self.i, Self.a, Self.a, Self.i]).misplaced.keys) == ["七", "三"])
    }

    /// Without 亿 and 万, 一 and 八 swapped split the four as 七 and 三 swapped would: nothing is said.
    @Test func aSwapTheNamesCannotPlaceSaysNothing() {
        #expect(Self.groups([Self.a, Self.i, Self.i, Self.a], references: false).misplaced.isEmpty)
    }

    /// 二's recording (er, neither vowel) under 七's name in a real pack (caifenglei's envelopes) splits the four as
    /// 一 三 against 七 八: 三 still leans to a by itself, and is not blamed; 七 is said to sound like a.
    @Test func aSyllableAnOddOnePushedIntoTheOtherGroupIsNotBlamed() {
        let envelopes: [(token: String, mfcc: [Double])] = [
            ("一", [4.53, 1.88, -0.42, 0.14, -1.15, -0.42, -0.98, -0.28, -0.82, -0.21, -0.26, 0.27]),
            ("七", [1.39, -0.35, 0.55, 0.1, 0.23, 0.18, -0.45, -0.15, 0, -0.4, -0.41, -0.25]),
            ("八", [2.11, -0.77, 1.07, -0.21, 0.04, -0.34, -0.76, -0.42, -0.44, -0.71, -0.67, -0.6]),
            ("三", [2.96, 0.05, 0.55, -1.46, 0.24, -0.45, -0.96, -0.6, -0.67, -0.85, -0.17, -0.11]),
            ("亿", [4.71, 1.84, -0.28, 0.19, -1.15, -0.25, -0.87, -0.18, -0.92, -0.27, -0.64, 0.03]),
            ("万", [3.42, -0.13, 0.66, -0.1, 0.01, -0.33, -0.7, -0.29, -0.54, -0.56, -0.56, -0.36]),
        ]
        let misplaced = VowelGroups(envelopes).misplaced
        #expect(Set(misplaced.keys) == ["七"], "\(misplaced)")
    }

    /// Vowels as close as a tone or a consonant's hiss make them (a tenth of the distance), or no clear split,
    /// say nothing.
    @Test func vowelsTooAlikeOrNoClearSplitSayNothing() {
        #expect(Self.groups([Self.a, Self.i, Self.i, Self.a], scale: 0.1).misplaced.isEmpty)
        let middle = zip(Self.i, Self.a).map { ($0 + $1) / 2 }
        #expect(Self.groups([Self.a, middle, middle, Self.i]).misplaced.isEmpty)
    }

    /// Two and two, each split once; three and three, the ten ways.
    @Test func everySplitIsTriedOnce() {
        #expect(VowelGroups.splits(count: 4, size: 2) == [[0, 1], [0, 2], [0, 3]])
        #expect(VowelGroups.splits(count: 6, size: 3).count == 10)
        #expect(VowelGroups.splits(count: 5, size: 2).count == 10)
    }
}
