import Foundation
import Testing

@testable import PackTools

/// Pairs that neither tone nor onset tells apart (二 六, 零 九, 八 零, 万 亿, 八 六, 点 百, 零 五, 七 九), told by the
/// syllables said with one's vowel.
@Suite struct VowelKinTests {
    /// Four vowels 4–5 apart (as a real voice's i and a are: 2.6–8.4), each syllable a little off its own; ai
    /// near a, ian between i and er.
    static let vowels: [String: [Double]] = [
        "i": [3, 3, -1, 0.5], "a": [3, -1, 1, -1], "u": [0, 1, 3, 0], "er": [1, 0, -1, 3],
        "ai": [3, -0.5, 0.5, -1], "ian": [2, 2, -1, 2],
    ]
    static let said: [String: String] = [
        "一": "i", "七": "i", "亿": "i", "零": "i", "八": "a", "三": "a", "万": "a", "五": "u", "六": "u", "九": "u",
        "二": "er", "百": "ai", "千": "ian", "点": "ian",
    ]

    /// The pack's syllables, each said with its own vowel unless `saidAs` gives another token's, and a little off
    /// it (by a tenth × its place in the list, modulo 3); `leaving` out some.
    static func kin(saidAs: [String: String] = [:], leaving: Set<String> = []) -> VowelKin {
        let envelopes = said.keys.sorted().filter { !leaving.contains($0) }.enumerated().map { index, token in
            let vowel = vowels[said[saidAs[token] ?? token]!]!
            return (token: token, mfcc: vowel.map { $0 + 0.1 * Double(index % 3) })
        }
        return VowelKin(envelopes)
    }

    @Test func syllablesSaidWithTheirOwnVowelsSayNothing() {
        #expect(Self.kin().swapped.isEmpty)
    }

    /// 二 or 八 swapped with 六: 六's kin 五 and 九 lie nearer the partner's name; both are said, with 六 as the side
    /// that shows it (二 has no kin; 八's, 三 and 万, lean either way against 六 in real voices).
    @Test(arguments: ["二", "八"]) func sixsPartnerIsToldBySixesKin(partner: String) {
        let swapped = Self.kin(saidAs: [partner: "六", "六": partner]).swapped
        let evidence = [VowelKin.Side(token: "六", kin: ["五", "九"], vowel: "ending in u")]
        #expect(
            swapped == [
                partner: .init(partner: "六", evidence: evidence), "六": .init(partner: partner, evidence: evidence),
            ]
        )
    }

    /// Two swapped whose sides both have kin show it on both, each with its kin:
    /// - 零 and 九: what 九's name holds then (零's i) is no kin of 六: 二 and 六, judged by it, would lean the other way
    ///   (1.0), and are not blamed;
    /// - 点 and 百, both third tones after a stop: 千 lies nearer 百's name, 八 三 万 nearer 点's;
    /// - 七 and 九: 七's kin are the i of 一 and 亿 (not 零's, which leans either way on real voices).
    @Test(arguments: [
        ("零", "九", ["一", "七", "亿"], "said with i", ["五", "六"], "ending in u"),
        ("点", "百", ["千"], "ending in ian", ["八", "三", "万"], "said with a"),
        ("七", "九", ["一", "亿"], "said with i", ["五", "六"], "ending in u"),
    ])
    func bothSidesShowIt(
        first: String, second: String, firstKin: [String], firstVowel: String, secondKin: [String], secondVowel: String
    ) {
        let swapped = Self.kin(saidAs: [first: second, second: first]).swapped
        #expect(Set(swapped.keys) == [first, second])
        let evidence = [
            VowelKin.Side(token: first, kin: firstKin, vowel: firstVowel),
            VowelKin.Side(token: second, kin: secondKin, vowel: secondVowel),
        ]
        #expect(swapped[first]?.evidence == evidence)
    }

    /// 零 and 五 are judged by 零's kin alone, and said only from `zeroAndFiveLeaning` (1.0): espeak-ng's voices lean
    /// up to 0.6 the other way. 零 0.8 farther from 一 than 五 is says nothing (it would at 0.3); 1.2 farther says
    /// both, and a full swap too.
    @Test func zeroAndFiveAreSaidOnlyWhenTheyLeanFar() {
        func leaning(_ farther: Double) -> VowelKin {
            VowelKin([("一", [0, 0, 0, 0]), ("五", [2, 0, 0, 0]), ("零", [0, 2 + farther, 0, 0])])
        }
        #expect(leaning(0.8).swapped.isEmpty)
        #expect(Set(leaning(1.2).swapped.keys) == ["零", "五"])
        let swapped = Self.kin(saidAs: ["零": "五", "五": "零"]).swapped
        #expect(
            swapped["零"]
                == .init(partner: "五", evidence: [.init(token: "零", kin: ["一", "七", "亿"], vowel: "said with i")]))
    }

    /// Without 六's kin (五 九), 二 and 六 swapped cannot be told; pairs not in the list (一 and 八, said with i and a) are
    /// not judged here (`VowelGroups` does).
    @Test func aPairWithoutKinOrNotListedIsNotJudged() {
        #expect(Self.kin(saidAs: ["二": "六", "六": "二"], leaving: ["五", "九"]).swapped.isEmpty)
        #expect(Self.kin(saidAs: ["一": "八", "八": "一"]).swapped.isEmpty)
    }

    /// A pair is said only where it leans `swappedLeaning` (0.3) or more the other way: 二 0.2 nearer 六's kin 九
    /// than 六 is says nothing, 0.4 nearer says both.
    @Test func aPairLeaningLittleTheOtherWaySaysNothing() {
        func leaning(_ nearer: Double) -> VowelKin {
            VowelKin([("九", [0, 0, 0, 0]), ("六", [1, 0, 0, 0]), ("二", [0, 1 - nearer, 0, 0])])
        }
        #expect(leaning(0.2).swapped.isEmpty)
        #expect(Set(leaning(0.4).swapped.keys) == ["二", "六"])
    }

    /// Every kin must lean the other way: 九 nearer 二's name but 五 nearer 六's (a take under 五's name that is not
    /// 五's, as a swap of its own leaves it) says nothing; both nearer 二's says both.
    @Test func aKinLeaningTheNamesWayStopsThePair() {
        let (near, far): ([Double], [Double]) = ([0, 0.5, 0, 0], [1.5, 0, 0, 0])
        let split = VowelKin([("九", [0, 0, 0, 0]), ("五", [1.5, 0, 0.3, 0]), ("二", near), ("六", far)])
        #expect(split.swapped.isEmpty)
        let both = VowelKin([("九", [0, 0, 0, 0]), ("五", [0, 0.6, 0, 0]), ("二", near), ("六", far)])
        #expect(Set(both.swapped.keys) == ["二", "六"])
    }

    /// A financial pack's 贰 and 陆 are judged as 二 and 六, and 零 against 玖 as against 九.
    @Test func everyReadingStyleIsJudged() {
        let envelopes: [(token: String, mfcc: [Double])] = [
            ("贰", Self.vowels["u"]!), ("陆", Self.vowels["er"]!), ("玖", Self.vowels["u"]!),
        ]
        #expect(Set(VowelKin(envelopes).swapped.keys) == ["贰", "陆"])
    }
}
