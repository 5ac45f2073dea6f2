import Testing

@testable import AudioPipeline

/// An MP3 that ends inside a frame was cut short after it was written; one that ends on a frame's end, or on a tag
/// after it, was not. Frames made here hold nothing but their headers: the walk reads only the headers.
@Suite struct MPEGLengthTests {
    /// MPEG-1 Layer III, 128 kb/s, 44.1 kHz: 144 × 128,000 / 44,100 = 417 bytes (418 with its padding bit).
    static let mpeg1 = [UInt8]([0xff, 0xfb, 0x90, 0x00])
    static let mpeg1Padded = [UInt8]([0xff, 0xfb, 0x92, 0x00])
    /// MPEG-2 Layer III, 32 kb/s, 16 kHz: 72 × 32,000 / 16,000 = 144 bytes.
    static let mpeg2 = [UInt8]([0xff, 0xf3, 0x48, 0x00])
    /// MPEG-2.5 Layer III, 8 kb/s, 8 kHz: 72 bytes.
    static let mpeg25 = [UInt8]([0xff, 0xe3, 0x18, 0x00])

    static func frames(_ header: [UInt8], count: Int) -> [UInt8] {
        let size = MPEGLength.FrameHeader.size(in: header, at: 0)!
        return (0..<count).flatMap { _ in header + [UInt8](repeating: 0, count: size - header.count) }
    }

    @Test func eachHeaderGivesItsFramesSize() {
        let sizes = [Self.mpeg1, Self.mpeg1Padded, Self.mpeg2, Self.mpeg25].map {
            MPEGLength.FrameHeader.size(in: $0, at: 0)
        }
        #expect(sizes == [417, 418, 144, 72])
        // Layers I and II: MPEG-1 Layer II at 160 kb/s, 44.1 kHz: 144 × 160,000 / 44,100 = 522 bytes; MPEG-2 Layer II
        // at 32 kb/s, 16 kHz: 288 (1,152 samples a frame, where Layer III has 576); MPEG-1 Layer I at 288 kb/s, 44.1
        // kHz: 12 × 288,000 / 44,100 = 78 slots of 4 bytes.
        let layers = [Self.layer2, [0xff, 0xf5, 0x48, 0x00], [0xff, 0xff, 0x90, 0x00]].map {
            MPEGLength.FrameHeader.size(in: $0, at: 0)
        }
        #expect(layers == [522, 288, 312])
        // A free-format bit rate, a reserved sample rate and a reserved layer are not followed.
        let others: [[UInt8]] = [[0xff, 0xfb, 0x00, 0x00], [0xff, 0xfb, 0x9c, 0x00], [0xff, 0xf9, 0x90, 0x00]]
        #expect(others.allSatisfy { MPEGLength.FrameHeader.size(in: $0, at: 0) == nil })
    }

    /// MPEG-1 Layer II, 160 kb/s, 44.1 kHz: 522 bytes.
    static let layer2 = [UInt8]([0xff, 0xfd, 0x90, 0x00])

    /// A Layer II file is followed frame by frame. It was not: the walk looked for Layer III headers only, and found
    /// two bytes in the last frame's audio that look like one, whose frame runs past the file's end, so an MP2 that
    /// ffmpeg wrote whole was refused as cut.
    @Test func aLayerIIFileIsFollowedFrameByFrame() {
        var whole = Self.frames(Self.layer2, count: 6)
        whole.replaceSubrange((whole.count - 100)..<(whole.count - 96), with: Self.mpeg1)
        #expect(MPEGLength.firstFrame(in: whole) == 0)
        #expect(MPEGLength.cutLastFrame(in: whole) == nil)
        #expect(MPEGLength.cutLastFrame(in: Array(whole.dropLast(300)))?.held == 222)
    }

    @Test func wholeFramesAreNoCut() {
        let whole = Self.frames(Self.mpeg1, count: 3) + Self.frames(Self.mpeg1Padded, count: 2)
        #expect(MPEGLength.cutLastFrame(in: whole) == nil)
        // An ID3v2 tag of 20 bytes before them (its size, syncsafe, after the 10-byte header), an ID3v1 tag after.
        let tagged = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10) + whole
        #expect(MPEGLength.cutLastFrame(in: tagged + Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)) == nil)
        #expect(MPEGLength.cutLastFrame(in: Self.frames(Self.mpeg25, count: 40)) == nil)
    }

    @Test func aFileEndingInsideAFrameIsCut() throws {
        let whole = Self.frames(Self.mpeg2, count: 10)
        let cut = try #require(MPEGLength.cutLastFrame(in: Array(whole.dropLast(100))))
        #expect(cut.held == 44 && cut.size == 144)
        let threeBytes = try #require(MPEGLength.cutLastFrame(in: whole + Self.mpeg1.prefix(3)))
        #expect(threeBytes.held == 3 && threeBytes.size == 417)
        let oneByte = try #require(MPEGLength.cutLastFrame(in: whole + [0xff]))
        #expect(oneByte.held == 1 && oneByte.size == nil)
    }

    /// Two bytes that look like a header before the first frame (in an editor's padding) do not start the walk:
    /// the frame they would begin is not followed by another header.
    @Test func aFalseSyncBeforeTheFirstFrameIsSkipped() {
        let whole = [0xff, 0xfb, 0x90, 0x00] + [UInt8](repeating: 0, count: 10) + Self.frames(Self.mpeg1, count: 4)
        #expect(MPEGLength.firstFrame(in: whole) == 14)
        #expect(MPEGLength.cutLastFrame(in: whole) == nil)
    }
}
