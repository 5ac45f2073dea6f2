import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import TestSupport
import Testing
import VoicePack

@testable import PackTools

/// One rule for which fragment plays a token, the same in coverage, check, audit, say and the splicer: the
/// token's own fragment first, then along its aliases to the first token with one.
@Suite struct AliasTests {
    @Test func theFirstTokenWithAFragmentPlays() {
        let resolver = AliasResolver(["〇": "零", "零": "O", "a": "b", "b": "a"])
        #expect(resolver.player(of: "〇") { $0 == "〇" || $0 == "零" } == "〇")
        #expect(resolver.player(of: "〇") { $0 == "零" } == "零")
        #expect(resolver.player(of: "〇") { $0 == "O" } == "O")
        #expect(resolver.player(of: "〇") { _ in false } == nil)
        #expect(resolver.player(of: "a") { _ in false } == nil)
        #expect(resolver.chain(from: "〇") == (["〇", "零", "O"], false))
        #expect(resolver.chain(from: "a").cycle)
    }

    /// 〇 recorded, and aliased to 點, which is not: 〇 plays its own fragment, and every command says so.
    @Test func aTokenWithItsOwnFragmentAndAnAliasIsCoveredEverywhere() throws {
        let pack = TestPack()
        pack.settings.styles = [.formatter]
        pack.settings.forms = [.yuan]
        pack.settings.aliases = ["〇": "點"]
        let alphabet = SpeechConverter(style: .formatter, form: .yuan).alphabet
        let naming = Naming(settings: pack.settings)
        for token in alphabet { try pack.deliver("\(naming.stem(for: token)).wav") }
        #expect(try pack.build().failures.isEmpty)
        let report = PackChecker.check(paths: pack.paths, settings: pack.settings)
        #expect(report.errors.isEmpty, "\(report.errors)")
        let audit = PackAuditor.audit(paths: pack.paths, settings: pack.settings)
        #expect(audit.coverage.allSatisfy { $0.missing.isEmpty && !$0.aliased.contains("〇") })
        let sounds = try SoundPack(manifestAt: pack.url("manifest.json"), digest: { SHA256.hex(of: $0) })
        #expect(sounds.fragment(for: "〇")?.token == "〇")
        #expect(sounds.fragment(for: "點") == nil)
    }
}
