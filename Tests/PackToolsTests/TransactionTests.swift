import Foundation
import TestSupport
import Testing

@testable import PackTools

/// The commit's moments, reached directly: after the journal the new pack is decided, before it the old
/// one stays; either way the next reader sees a whole pack.
@Suite struct TransactionTests {
    static func stage(_ pack: TestPack, _ files: [String: String]) throws -> PackTransaction {
        let transaction = PackTransaction(paths: pack.paths)
        let staging = try transaction.prepareStaging()
        for (name, text) in files { try Data(text.utf8).write(to: staging.appendingPathComponent(name)) }
        return transaction
    }

    @Test func aCrashAfterTheJournalIsFinishedByTheNextReader() throws {
        let pack = try FailureTests.goodPack()
        let old = try pack.manifest()
        var new = old
        new.fragments.removeLast()
        let removed = (old.fragments.last!.file as NSString).lastPathComponent
        let transaction = try Self.stage(pack, ["extra.wav": "new bytes"])
        // Where a crash between the commit's two steps leaves the pack: decided, nothing applied.
        _ = try transaction.decide(moves: ["extra.wav"], removals: [removed], manifest: new.canonicalData())
        // Nothing applied yet: the old manifest and files are in place.
        #expect(try pack.manifest() == old)
        // The next reader (check, say, audit) finishes it.
        let lock = try PackReading.open(pack.paths)
        withExtendedLifetime(lock) {}
        #expect(try pack.manifest() == new)
        #expect(FileManager.default.fileExists(atPath: pack.url("normalized/extra.wav").path))
        #expect(!FileManager.default.fileExists(atPath: pack.url("normalized/\(removed)").path))
        #expect(!FileManager.default.fileExists(atPath: pack.url(".assets/journal.json").path))
        #expect(!FileManager.default.fileExists(atPath: pack.paths.staging.path))
        // Finishing twice changes nothing.
        #expect(try transaction.recover() == false)
    }

    @Test func aCrashBeforeTheJournalLeavesTheOldPack() throws {
        let pack = try FailureTests.goodPack()
        let before = pack.snapshot()
        _ = try Self.stage(pack, ["digit_1.wav": "half-written"])
        try Data("{}".utf8).write(to: pack.url(".assets/manifest.staged"))
        // The crashed build's leftovers are cleared by the next build, and nothing else moves.
        let outcome = try pack.build()
        #expect(outcome.finishedInterruptedCommit == false)
        #expect(pack.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: pack.paths.staging.path))
        #expect(!FileManager.default.fileExists(atPath: pack.url(".assets/manifest.staged").path))
    }
}
