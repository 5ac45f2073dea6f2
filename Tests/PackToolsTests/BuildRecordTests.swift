import Foundation
import TestSupport
import Testing

@testable import PackTools

/// The record of the last build (`.assets/last-build.tsv`) reads back as it was written, and a record that
/// cannot be read as written is no record: the next build then takes the ordinary way.
@Suite struct BuildRecordTests {
    static func entry(_ index: Int, modified: Int64) -> BuildRecord.Entry {
        BuildRecord.Entry(
            token: index.isMultiple(of: 2) ? "億" : "phrase \(index)", source: "raw-audio/説明 \(index).wav",
            sourceSize: 44 + index, sourceModified: modified, sourceInode: UInt64(900 + index),
            sourceChanged: modified / 3, sourceSHA256: String(repeating: "a\(index)", count: 32),
            output: "normalized/x\(index).wav", outputSize: 1_000_000 + index, outputModified: modified + 1,
            outputSHA256: String(repeating: "b\(index)", count: 32))
    }

    @Test func savedRecordsLoadAsTheyWere() throws {
        let pack = TestPack()
        try FileManager.default.createDirectory(at: pack.paths.state, withIntermediateDirectories: true)
        // Nanosecond times of today need 19 digits; a time before 1970 is negative.
        let times: [Int64] = [1_764_600_000_123_456_789, -1_000_000_007, 0, Int64.max - 1]
        let record = BuildRecord(
            settings: String(repeating: "ab", count: 32), manifestSize: 3_440_152,
            manifestModified: 1_764_600_000_999_999_999,
            entries: times.indices.map { Self.entry($0, modified: times[$0]) })
        record.save(pack.paths)
        #expect(BuildRecord.load(pack.paths) == record)
    }

    /// A source is vouched for only when it and its output are as recorded; anything else has moved.
    @Test func movedSourcesAreTheOnesTheRecordDoesNotVouchFor() throws {
        let pack = TestPack()
        try FileManager.default.createDirectory(at: pack.url("normalized"), withIntermediateDirectories: true)
        var entries: [BuildRecord.Entry] = []
        for index in 0..<4 {
            try pack.writeBytes("s\(index).wav", Data(repeating: UInt8(index), count: 10 + index))
            try pack.writeBytes("../normalized/o\(index).wav", Data(repeating: 1, count: 100 + index))
            let source = try FileStatus.of(pack.url("raw-audio/s\(index).wav").path).unwrapped()
            let output = try FileStatus.of(pack.url("normalized/o\(index).wav").path).unwrapped()
            entries.append(
                BuildRecord.Entry(
                    token: "t\(index)", source: "raw-audio/s\(index).wav", sourceSize: source.size,
                    sourceModified: source.modified, sourceInode: source.inode, sourceChanged: source.changed,
                    sourceSHA256: "source \(index)",
                    output: "normalized/o\(index).wav",
                    outputSize: output.size, outputModified: output.modified, outputSHA256: "output \(index)"))
        }
        let record = BuildRecord(settings: "s", manifestSize: 0, manifestModified: 0, entries: entries)
        try pack.writeBytes("s1.wav", Data(repeating: 9, count: 50))  // changed
        try pack.writeBytes("../normalized/o2.wav", Data(repeating: 9, count: 50))  // its output changed
        try pack.writeBytes("s4.wav", Data(repeating: 4, count: 14))  // new
        let recorded = RecordedBuild(record, manifestFolder: pack.root.path)
        let sources = SourceScanner(paths: pack.paths).scan().sources
        #expect(sources.count == 5)
        #expect(recorded.moved(sources).map(\.path) == ["raw-audio/s1.wav", "raw-audio/s2.wav", "raw-audio/s4.wav"])
        #expect(recorded.unmoved(sources[0])?.entry == entries[0])
        #expect(recorded.unmoved(sources[3])?.output.size == 103)
        // The record is the memory of digests too: a file as recorded is not read again; a moved one is.
        #expect(recorded.digest(of: sources[0]) == "source 0")
        #expect(recorded.digest(of: sources[1]) == nil)
        #expect(recorded.digest(of: sources[2]) == "source 2")
        let o1 = try FileStatus.of(pack.url("normalized/o1.wav").path).unwrapped()
        let o2 = try FileStatus.of(pack.url("normalized/o2.wav").path).unwrapped()
        #expect(recorded.digest(ofOutput: "normalized/o1.wav", builtFrom: sources[1], status: o1) == "output 1")
        #expect(recorded.digest(ofOutput: "normalized/o2.wav", builtFrom: sources[2], status: o2) == nil)
    }

    /// Two takes of one length, their times the same whole second (as a checkout or an archive leaves them), swapped
    /// by name to mend a mislabel: each is built again under its new name, though its size and time are the ones
    /// recorded under that name.
    @Test func twoTakesSwappedByNameAreBuiltAgain() throws {
        let pack = TestPack()
        try pack.deliver("digit_1.wav", TestPack.Delivery(levelDB: -20))
        try pack.deliver("digit_8.wav", TestPack.Delivery(levelDB: -26))
        let second = Date(timeIntervalSince1970: 1_588_000_000)
        let one = pack.url("raw-audio/digit_1.wav")
        let eight = pack.url("raw-audio/digit_8.wav")
        for url in [one, eight] {
            try FileManager.default.setAttributes([.modificationDate: second], ofItemAtPath: url.path)
        }
        #expect(try pack.build().failures.isEmpty)
        let before = Dictionary(
            uniqueKeysWithValues: try pack.manifest().fragments.map { ($0.token, $0.source.sha256) })
        let spare = pack.url("raw-audio/spare")
        try FileManager.default.moveItem(at: one, to: spare)
        try FileManager.default.moveItem(at: eight, to: one)
        try FileManager.default.moveItem(at: spare, to: eight)
        #expect(try FileStatus.of(one.path).unwrapped().modified == FileStatus.of(eight.path).unwrapped().modified)

        let outcome = try pack.build()
        #expect(outcome.built.sorted() == ["一", "八"], "\(outcome.built)")
        let after = Dictionary(uniqueKeysWithValues: try pack.manifest().fragments.map { ($0.token, $0.source.sha256) })
        #expect(after["一"] == before["八"] && after["八"] == before["一"], "\(before) \(after)")
    }

    @Test func aNameWithATabIsNotRecorded() throws {
        let pack = TestPack()
        try FileManager.default.createDirectory(at: pack.paths.state, withIntermediateDirectories: true)
        BuildRecord(settings: "s", manifestSize: 1, manifestModified: 2, entries: [Self.entry(1, modified: 5)])
            .save(pack.paths)
        #expect(BuildRecord.load(pack.paths) != nil)
        var odd = Self.entry(2, modified: 5)
        odd.source = "raw-audio/a\tb.wav"
        BuildRecord(settings: "s", manifestSize: 1, manifestModified: 2, entries: [odd]).save(pack.paths)
        #expect(BuildRecord.load(pack.paths) == nil)
        #expect(!FileManager.default.fileExists(atPath: BuildRecord.url(pack.paths).path))
    }

    @Test func aDamagedRecordIsNoRecord() throws {
        let pack = TestPack()
        try FileManager.default.createDirectory(at: pack.paths.state, withIntermediateDirectories: true)
        BuildRecord(settings: "s", manifestSize: 1, manifestModified: 2, entries: [Self.entry(1, modified: 5)])
            .save(pack.paths)
        let url = BuildRecord.url(pack.paths)
        let text = try String(contentsOf: url, encoding: .utf8)
        for damaged in [
            String(text.dropLast()),  // cut short: no final line break
            text.replacingOccurrences(of: "\t45\t", with: "\t4x5\t"),
            text.replacingOccurrences(of: "\t45\t", with: "\t\t"),
            text + "one\tfield\ttoo\tfew\t1\t2\n",
            text + "t\ts\t1\t99999999999999999999\t1\t2\tx\to\t1\t2\ty\n",  // a time that does not fit
            text + "t\ts\t1\t2\tx\to\t1\t2\ty\n",  // written before the inode and change time were
            text.replacingOccurrences(of: "s\n1\t2\n", with: "s\n1\n"),  // the manifest's time missing
        ] {
            try Data(damaged.utf8).write(to: url)
            #expect(BuildRecord.load(pack.paths) == nil, "\(damaged.debugDescription)")
        }
    }
}

/// A file read straight into bytes, as a build reads the last manifest.
@Suite struct FileContentsTests {
    @Test func readsWholeFilesAndNothingElse() throws {
        let pack = TestPack()
        let missing = pack.url("none.json").path
        #expect(FileStatus.contents(of: missing) == nil)
        #expect(FileStatus.contents(of: pack.url("raw-audio").path) == nil)  // a folder is no file
        for size in [0, 1, 65_536, 200_003] {
            let url = pack.url("file-\(size)")
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            try Data(bytes).write(to: url)
            #expect(FileStatus.contents(of: url.path)?.bytes == bytes, "\(size) bytes")
        }
    }

    /// A file longer than `stat` said when it was opened is read to its end: Linux's files under /proc say
    /// they are empty and are not.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps")))
    func readsOnPastTheSizeStatGave() throws {
        let bytes = try #require(FileStatus.contents(of: "/proc/self/smaps")?.bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(bytes.count > 65_536 + 1, "the mappings of a test process span several pieces")
        #expect(text.hasSuffix("\n"))
        #expect(text.contains("\nRss:"))
    }
}

extension BuildRecord {
    /// Writes this record as a build writes its parts; a path with a tab or a line break is not recorded.
    func save(_ paths: PackPaths) {
        Self.save(
            settings: settings, manifestSize: manifestSize, manifestModified: manifestModified,
            lines: Self.lines(for: entries), to: paths)
    }
}
