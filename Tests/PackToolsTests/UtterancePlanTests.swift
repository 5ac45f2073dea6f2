import Foundation
import SpeechText
import Splicer
import TestSupport
import Testing
import VoicePack

@testable import PackTools

@Suite struct UtterancePlanTests {
    /// The greedy cover says every token of every style and form, with the same amounts every time.
    @Test(arguments: ReadingStyle.allCases)
    func theCoverSaysEveryTokenOfTheAlphabet(style: ReadingStyle) {
        for form in AmountForm.allCases {
            let converter = SpeechConverter(style: style, form: form)
            let amounts = UtterancePlan.cover(converter)
            let said = Set(amounts.flatMap { converter.reading(of: $0).tokens })
            #expect(said == converter.alphabet, "\(style.name)/\(form.name): \(converter.alphabet.subtracting(said))")
            #expect(amounts.count <= 4)
            #expect(UtterancePlan.cover(converter) == amounts)
        }
    }

    /// Under a `maximumAmount` the cover still says every token the bounded alphabet has: every digit is heard
    /// in the audit, whatever amounts the app is limited to.
    @Test(arguments: ["10", "99", "999", "9999.99", "99999999.99"])
    func theCoverSaysEveryTokenUnderABound(bound: String) throws {
        let bound = try Amount(parsing: bound)
        for style in ReadingStyle.allCases {
            for form in AmountForm.allCases {
                let converter = SpeechConverter(style: style, form: form)
                let amounts = UtterancePlan.cover(converter, upTo: bound)
                #expect(amounts.allSatisfy { $0 <= bound })
                let said = Set(amounts.flatMap { converter.reading(of: $0).tokens })
                let alphabet = converter.alphabet(upTo: bound)
                #expect(said == alphabet, "\(style.name)/\(form.name) ≤ \(bound.plain): \(alphabet.subtracting(said))")
            }
        }
    }

    /// Every amount the audit plays is one the app says: under a `maximumAmount` of 50 a template says 50,
    /// not 88.
    @Test func everyPlannedAmountIsUnderTheBound() throws {
        var settings = Settings()
        settings.maximumAmount = try Amount(parsing: "50")
        settings.templates = ["wechat": "微信收款，{amount}"]
        let planned = UtterancePlan.plan(settings: settings, pack: nil, longest: nil)
        #expect(!planned.isEmpty && planned.allSatisfy { $0.amount <= settings.amountBound })
        #expect(planned.first { $0.template == "wechat" }?.text == "微信收款，五十元整")
    }

    /// An amount is playable when every token it says has a fragment (or an alias to one): the build measures
    /// the pack's splices only then, so a pack of phrases alone is never opened for it.
    @Test func anAmountIsPlayableOnlyWhenEveryTokenHasAFragment() {
        var settings = Settings()
        settings.styles = [.spoken]
        settings.forms = [.decimal]
        let playable = { (tokens: String) in
            UtterancePlan.plan(settings: settings, available: Set(tokens.map { Token(String($0)) }), longest: nil)
                .filter(\.missing.isEmpty).map(\.text)
        }
        #expect(playable("").isEmpty)
        #expect(playable("零一二三四五六七八九十百千万亿点").isEmpty, "no 元: no amount ends")
        #expect(!playable("零一二三四五六七八九十百千万亿点元").isEmpty)
    }

    /// A level step at a join is what every good fragment's decay makes (a tail faded to −47 dBFS against the
    /// next one's onset), so it is no finding; a settings file that still sets the retired step rule is told so.
    @Test func aLevelStepAtAJoinIsNoFindingAndItsSettingIsRetired() throws {
        let pack = TestPack()
        pack.settings.styles = [.spoken]
        pack.settings.forms = [.yuan]
        for stem in ["digit_1", "digit_2", "unit_shi", "unit_yuan", "unit_zheng", "digit_liang", "unit_bai"] {
            try pack.deliver("\(stem).wav")
        }
        #expect(try pack.build().failures.isEmpty)
        var manifest = try pack.manifest()
        let index = try #require(manifest.fragments.firstIndex { $0.token == "元" })
        manifest.fragments[index].headDBFS -= 30
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let findings = PackChecker.check(paths: pack.paths, settings: pack.settings).findings
        #expect(!findings.contains { $0.message.contains("starts") }, "\(findings)")
        #expect(!Diagnostic.Category.allCases.map(\.rawValue).contains("splice"))

        let file = pack.url("assets.json")
        try Data(#"{"splice": {"maximumStepDB": 10, "stepSeverity": "error"}}"#.utf8).write(to: file)
        #expect {
            try Settings.load(contentsOf: file, name: "assets.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains("splice.maximumStepDB") && text.contains("splice.stepSeverity")
                && text.contains("no longer a setting") && text.contains("voice is cut")
        }
    }
}
