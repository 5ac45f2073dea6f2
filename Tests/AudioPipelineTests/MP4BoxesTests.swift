import Testing

@testable import AudioPipeline

/// An MP4 cut short has a top-level box that runs past its end; a whole one has none. Boxes made here hold only
/// their sizes and types: the walk reads nothing else.
@Suite struct MP4BoxesTests {
    static func box(_ type: String, bodyBytes: Int) -> [UInt8] {
        let size = 8 + bodyBytes
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8)
            + [UInt8](repeating: 0, count: bodyBytes)
    }

    static let whole = box("ftyp", bodyBytes: 16) + box("moov", bodyBytes: 400) + box("mdat", bodyBytes: 2_000)

    @Test func wholeBoxesAreNoCut() {
        #expect(MP4Boxes.cutBox(in: Self.whole) == nil)
        // A last box of size 0 runs to the end of the file, whatever its length.
        #expect(MP4Boxes.cutBox(in: Self.whole + [0, 0, 0, 0] + Array("mdat".utf8) + [1, 2, 3]) == nil)
    }

    @Test func theBoxACutEndsInIsNamed() throws {
        let audioCut = try #require(MP4Boxes.cutBox(in: Array(Self.whole.dropLast(500))))
        #expect(audioCut.type == "mdat" && audioCut.size == 2_008 && audioCut.held == 1_508)
        let indexCut = try #require(MP4Boxes.cutBox(in: Array(Self.whole.prefix(24 + 100))))
        #expect(indexCut.type == "moov" && indexCut.size == 408 && indexCut.held == 100)
        // A 64-bit size (size 1, the real one after the type).
        let large: [UInt8] =
            [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0, 0, 0, 0, 0x10, 0] + [UInt8](repeating: 0, count: 100)
        let largeCut = try #require(MP4Boxes.cutBox(in: Self.box("ftyp", bodyBytes: 16) + large))
        #expect(largeCut.type == "mdat" && largeCut.size == 4_096 && largeCut.held == 116)
    }

    @Test func aFileThatIsNoMP4IsNotJudged() {
        #expect(MP4Boxes.cutBox(in: Self.box("moov", bodyBytes: 400).dropLast(10).map { $0 }) == nil)
        #expect(MP4Boxes.cutBox(in: Array("RIFF".utf8) + [0xff, 0xff, 0, 0] + Array("WAVE".utf8)) == nil)
        // An ftyp box followed by bytes that are no box (their "type" no four-character code).
        #expect(MP4Boxes.cutBox(in: Self.box("ftyp", bodyBytes: 16) + [UInt8](repeating: 7, count: 500)) == nil)
    }
}
