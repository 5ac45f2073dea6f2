import Foundation
import PackTools
import TestSupport
import Testing

/// The scanner lists recordings in the order of their paths' Unicode scalars, the order the manifest and
/// every report use, whether or not they sit in sub-folders.
@Suite struct SourceScannerTests {
    static func touch(_ pack: TestPack, _ relative: String) throws {
        let url = pack.url("raw-audio/" + relative)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url)
    }

    @Test func aFlatFolderIsListedInScalarOrder() throws {
        let pack = TestPack()
        let names = ["一.wav", "Z.wav", "a.wav", "é.wav", "a0.wav", "a-b.wav", "億.flac", "notes.txt"]
        for name in names { try Self.touch(pack, name) }
        let scan = SourceScanner(paths: pack.paths).scan()
        #expect(
            scan.sources.map(\.path) == [
                "raw-audio/Z.wav", "raw-audio/a-b.wav", "raw-audio/a.wav", "raw-audio/a0.wav", "raw-audio/é.wav",
                "raw-audio/一.wav", "raw-audio/億.flac",
            ])
        #expect(scan.skipped == ["raw-audio/notes.txt"])
    }

    /// What operating systems leave beside a delivery is not a recording: macOS's `.DS_Store` and AppleDouble
    /// files, Windows' `Thumbs.db`, `desktop.ini` and the download mark WSL shows as `<name>:Zone.Identifier`.
    @Test func whatOperatingSystemsLeaveBesideRecordingsIsSkipped() throws {
        let pack = TestPack()
        let marks = [".DS_Store", "._digit_1.mp3", "Thumbs.db", "desktop.ini", "digit_1.mp3:Zone.Identifier"]
        for name in marks + ["digit_1.mp3"] { try Self.touch(pack, name) }
        let scan = SourceScanner(paths: pack.paths).scan()
        #expect(scan.sources.map(\.path) == ["raw-audio/digit_1.mp3"])
        #expect(Set(scan.skipped) == Set(marks.map { "raw-audio/" + $0 }))
        #expect(scan.problems.isEmpty)
    }

    /// A folder's name walks before the files that begin with it ("a" before "a-b.wav"), but its paths
    /// ("a/b.wav") sort after them: the list is put in order by whole paths.
    @Test func subFoldersSortByTheirWholePaths() throws {
        let pack = TestPack()
        for name in ["a/b.wav", "a/一.wav", "a-b.wav", "a.wav", "a0.wav", "b/c/d.wav"] { try Self.touch(pack, name) }
        let scan = SourceScanner(paths: pack.paths).scan()
        #expect(
            scan.sources.map(\.path) == [
                "raw-audio/a-b.wav", "raw-audio/a.wav", "raw-audio/a/b.wav", "raw-audio/a/一.wav", "raw-audio/a0.wav",
                "raw-audio/b/c/d.wav",
            ])
        #expect(scan.problems.isEmpty)
    }
}
