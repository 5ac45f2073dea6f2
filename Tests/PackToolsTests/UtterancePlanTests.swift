import Foundation
import SpeechText
import Splicer
import TestSupport
import Testing

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

    /// A join whose level step passes splice.maximumStepDB is a splice warning, or an error when set so,
    /// naming both fragments; the manifest is read, nothing decoded.
    @Test func aLevelStepAtAJoinIsReported() throws {
        let pack = TestPack()
        pack.settings.styles = [.spoken]
        pack.settings.forms = [.yuan]
        for stem in [
            "digit_0", "digit_1", "digit_2", "digit_3", "digit_4", "digit_5", "digit_6", "digit_7", "digit_8",
            "digit_9", "digit_liang", "unit_shi", "unit_bai", "unit_qian", "unit_wan", "unit_yi", "unit_yuan",
            "unit_jiao", "unit_fen", "unit_zheng",
        ] {
            try pack.deliver("\(stem).wav")
        }
        #expect(try pack.build().failures.isEmpty)
        func spliceFindings() -> [Diagnostic] {
            PackChecker.check(paths: pack.paths, settings: pack.settings).findings.filter { $0.category == "splice" }
        }
        #expect(spliceFindings().isEmpty)
        var manifest = try pack.manifest()
        let index = try #require(manifest.fragments.firstIndex { $0.token == "元" })
        manifest.fragments[index].headDBFS -= 30
        try manifest.canonicalData().write(to: pack.url("manifest.json"))
        let findings = spliceFindings()
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0.severity == .warning && $0.subject.hasSuffix("normalized/unit_yuan.wav") })
        #expect(
            findings.first?.message.contains("元 starts") == true && findings.first?.message.contains("softer") == true)
        pack.settings.splice.stepSeverity = .error
        #expect(spliceFindings().allSatisfy { $0.severity == .error })
        pack.settings.splice.maximumStepDB = 60
        #expect(spliceFindings().isEmpty)
    }
}
