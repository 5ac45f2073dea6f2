import Testing

@testable import AudioPipeline

/// An MP4 or a CAF cut short has a top-level part that runs past its end; a whole one has none. Parts made here
/// hold only their types and sizes: the walk reads nothing else.
@Suite struct ContainerPartsTests {
    static func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// An MP4 box: its size (with its 8-byte header), then its type.
    static func box(_ type: String, bodyBytes: Int) -> [UInt8] {
        bigEndian(8 + bodyBytes, bytes: 4) + Array(type.utf8) + [UInt8](repeating: 0, count: bodyBytes)
    }

    /// A CAF chunk: its type, then its body's size in 8 bytes.
    static func chunk(_ type: String, bodyBytes: Int, declared: Int? = nil) -> [UInt8] {
        Array(type.utf8) + bigEndian(declared ?? bodyBytes, bytes: 8) + [UInt8](repeating: 0, count: bodyBytes)
    }

    static let mp4 = box("ftyp", bodyBytes: 16) + box("moov", bodyBytes: 400) + box("mdat", bodyBytes: 2_000)
    static let caf = Array("caff".utf8) + [0, 1, 0, 0] + chunk("desc", bodyBytes: 32) + chunk("data", bodyBytes: 2_000)

    @Test func wholeFilesAreNoCut() {
        #expect(ContainerParts.cutMP4Box(in: Self.mp4) == nil)
        #expect(ContainerParts.cutCAFChunk(in: Self.caf) == nil)
        // A last box of size 0 runs to the end of the file, whatever its length; so does a CAF audio chunk of −1.
        #expect(ContainerParts.cutMP4Box(in: Self.mp4 + [0, 0, 0, 0] + Array("mdat".utf8) + [1, 2, 3]) == nil)
        let streamed = Array(Self.caf.prefix(8 + 44)) + Self.chunk("data", bodyBytes: 700, declared: -1)
        #expect(ContainerParts.cutCAFChunk(in: streamed) == nil)
    }

    @Test func thePartACutEndsInIsNamed() throws {
        let audio = try #require(ContainerParts.cutMP4Box(in: Array(Self.mp4.dropLast(500))))
        #expect(audio == .init(type: "mdat", part: "box", size: 2_008, held: 1_508))
        #expect(
            audio.problem("FFmpeg", said: "x").hasPrefix("it is truncated: its audio (mdat box) promises 2008 bytes"))
        let index = try #require(ContainerParts.cutMP4Box(in: Array(Self.mp4.prefix(24 + 100))))
        #expect(index == .init(type: "moov", part: "box", size: 408, held: 100))
        // A 64-bit size (size 1, the real one after the type).
        let large =
            [0, 0, 0, 1] + Array("mdat".utf8) + Self.bigEndian(4_096, bytes: 8) + [UInt8](repeating: 0, count: 100)
        let largeCut = try #require(ContainerParts.cutMP4Box(in: Self.box("ftyp", bodyBytes: 16) + large))
        #expect(largeCut == .init(type: "mdat", part: "box", size: 4_096, held: 116))
        let cafCut = try #require(ContainerParts.cutCAFChunk(in: Array(Self.caf.dropLast(1_000))))
        #expect(cafCut == .init(type: "data", part: "chunk", size: 2_012, held: 1_012))
        #expect(cafCut.problem("libsndfile", said: "x").contains("its audio (data chunk) promises 2012 bytes"))
    }

    @Test func aFileThatIsNoMP4OrCAFIsNotJudged() {
        #expect(ContainerParts.cutMP4Box(in: Array(Self.box("moov", bodyBytes: 400).dropLast(10))) == nil)
        #expect(ContainerParts.cutCAFChunk(in: Array(Self.mp4.dropLast(10))) == nil)
        #expect(ContainerParts.cutMP4Box(in: Array("RIFF".utf8) + [0xff, 0xff, 0, 0] + Array("WAVE".utf8)) == nil)
        // An ftyp box followed by bytes that are no box (their "type" no four-character code).
        #expect(
            ContainerParts.cutMP4Box(in: Self.box("ftyp", bodyBytes: 16) + [UInt8](repeating: 7, count: 500)) == nil)
    }
}
