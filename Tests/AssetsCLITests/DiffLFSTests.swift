import Checksum
import Foundation
import SpeechText
import TestSupport
import Testing

/// `assets diff` against a revision whose fragments are kept in Git LFS, in a clone that has fetched some of them:
/// what the clone holds is played, what it lacks is named once with what fetches it, and no pointer is played as a
/// sound.
@Suite struct DiffLFSTests {
    /// The clone's store of the files Git LFS keeps, as git-lfs lays it out.
    static func stored(_ pack: TestPack, _ oid: String) -> URL {
        pack.url(".git/lfs/objects/\(oid.prefix(2))/\(oid.dropFirst(2).prefix(2))/\(oid)")
    }

    /// The committed pack with its fragments as a clone of a Git LFS repository holds them: the commit has their
    /// pointers, the clone's store the files, the work tree the audio. Returns each fragment's file in the store.
    static func committedInLFS() throws -> (pack: TestPack, stored: [String: URL]) {
        let pack = try DiffTests.committedPack()
        var audio: [String: Data] = [:]
        var stored: [String: URL] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: pack.url("normalized").path) {
            let file = pack.url("normalized/\(name)")
            let bytes = try Data(contentsOf: file)
            let oid = SHA256.hex(of: bytes)
            let store = Self.stored(pack, oid)
            try FileManager.default.createDirectory(
                at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: store)
            let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:\(oid)\nsize \(bytes.count)\n"
            try Data(pointer.utf8).write(to: file)
            audio[name] = bytes
            stored["normalized/\(name)"] = store
        }
        try DiffTests.git(pack.root, ["add", "-A"])
        try DiffTests.git(pack.root, ["commit", "-q", "--amend", "--no-edit"])
        for (name, bytes) in audio { try bytes.write(to: pack.url("normalized/\(name)")) }
        return (pack, stored)
    }

    @Test func aBaseInGitLFSIsPlayedFromTheClonesStoreAndWhatItLacksIsNamedOnce() throws {
        let (pack, stored) = try Self.committedInLFS()
        try DiffTests.refresh(pack)
        // The clone has fetched every file of the base but 七's.
        try FileManager.default.removeItem(at: try #require(stored["normalized/digit_7.wav"]))

        let text = InProcess.run(["diff", "HEAD"], in: pack.root)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains(
                "\nthe base's normalized/digit_7.wav is in Git LFS and not fetched here, so it is not played: "
                    + "run `git lfs fetch origin HEAD`\ncheck: ok → 2 problems"), "\(text.stdout)")

        let json = try DiffTests.json(InProcess.run(["diff", "HEAD", "--format", "json"], in: pack.root).stdout)
        let unfetched = try #require(json["unfetched"] as? [String: Any])
        #expect(unfetched["files"] as? [String] == ["normalized/digit_7.wav"])
        #expect(unfetched["fetch"] as? String == "git lfs fetch origin HEAD")
        // Amounts that say 七 cannot be played as they were; the others are, from the store's files.
        let utterances = try #require(json["utterances"] as? [[String: Any]])
        var played = (withSeven: 0, without: 0)
        for utterance in utterances {
            let tokens = try #require(utterance["tokens"] as? [String])
            let before = try #require(utterance["before"] as? [String: Any])
            guard !tokens.contains("九"), !tokens.contains("欢迎光临") else { continue }
            if tokens.contains("七") {
                #expect(before["playable"] as? Bool == false)
                #expect(before["problem"] as? String == "normalized/digit_7.wav is not fetched from Git LFS")
                played.withSeven += 1
            } else {
                #expect(before["playable"] as? Bool == true, "\(utterance)")
                played.without += 1
            }
        }
        #expect(played.withSeven > 0 && played.without > 0, "\(played)")

        // The page plays no pointer: 七 has no sound before, 三 has the store's.
        let review = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: review) }
        try FileManager.default.createDirectory(at: review, withIntermediateDirectories: true)
        let page = review.appendingPathComponent("diff.html")
        #expect(InProcess.run(["diff", "HEAD", "--format", "html", "--output", page.path], in: pack.root).status == 0)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<p id=\"unfetched\">The base's normalized/digit_7.wav is in Git LFS"), "\(html)")
        let sounds = review.appendingPathComponent("diff-sounds")
        for name in try FileManager.default.contentsOfDirectory(atPath: sounds.path) {
            let bytes = try Data(contentsOf: sounds.appendingPathComponent(name))
            #expect(!bytes.starts(with: Data("version https://git-lfs".utf8)), "\(name)")
        }
        let three = try Data(contentsOf: try #require(stored["normalized/digit_3.wav"]))
        #expect(
            FileManager.default.fileExists(
                atPath: sounds.appendingPathComponent("fragment-\(SHA256.hex(of: three).prefix(16)).wav").path))
    }

    /// With git-lfs set up, git archive has it fetch what the clone lacks and fails whole when it cannot (here:
    /// no remote). The diff is made all the same, from the pointers.
    @Test func aBaseGitLFSCannotFetchIsStillCompared() throws {
        let pack = TestPack()
        try Data(DiffTests.settings.utf8).write(to: pack.url("assets.json"))
        for (stem, token) in DiffTests.stems {
            try DiffTests.record(pack, stem, TonalVoice.syllable(try #require(Tone.citation(of: token))))
        }
        try DiffTests.expectBuilt(pack)
        try DiffTests.git(pack.root, ["init", "-q"])
        try DiffTests.git(pack.root, ["lfs", "install", "--local"])
        try DiffTests.git(pack.root, ["lfs", "track", "normalized/*.wav"])
        try DiffTests.git(pack.root, ["add", "-A"])
        try DiffTests.git(pack.root, ["commit", "-q", "-m", "the pack"])
        let three = try Data(contentsOf: pack.url("normalized/digit_3.wav"))
        try DiffTests.refresh(pack)
        try FileManager.default.removeItem(at: Self.stored(pack, SHA256.hex(of: three)))

        let result = InProcess.run(["diff", "HEAD"], in: pack.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "\nthe base's normalized/digit_3.wav is in Git LFS and not fetched here, so it is not played"),
            "\(result.stdout)")
        #expect(result.stdout.contains("  三  a new recording\n"), "\(result.stdout)")
    }
}
