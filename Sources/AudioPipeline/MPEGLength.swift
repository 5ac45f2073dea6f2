import Foundation

/// How far an MP3's length, as libsndfile reports it, can be trusted, and whether the file was cut short.
///
/// An MP3 declares its length only in a Xing, Info or VBRI header in its first frame; without one, libsndfile
/// (through mpg123) estimates the length from the file's size and its first frame's bit rate, which can be
/// several times off for a variable bit rate. With one, the count may still differ from what decodes by the
/// encoder's delay and padding (a few hundred samples). So an MP3 is called cut short when it declares its
/// length and decodes to at least `toleratedFrames` less, or, declared or not, when it ends inside a frame
/// (`cutLastFrame`).
public enum MPEGLength {
    /// Two MPEG frames: more than any encoder's delay and padding.
    public static let toleratedFrames = 2 * 1152

    /// Whether the MP3 at `path` declares its length (`isDeclared`), and how its last frame is cut, if it is
    /// (`cutLastFrame`), the file read once for both.
    static func inspect(path: String) -> (isDeclared: Bool, cut: (held: Int, size: Int?)?) {
        let bytes = FileManager.default.contents(atPath: path).map(Array.init) ?? []
        return (isDeclared(bytes), cutLastFrame(in: bytes))
    }

    /// Whether the MP3 carries a Xing, Info or VBRI header, after any ID3v2 tag.
    static func isDeclared(_ bytes: [UInt8]) -> Bool {
        guard let sync = firstFrame(in: bytes) else { return false }
        // The tag sits after the frame's header and side information: within its first 64 bytes.
        let frame = bytes[sync..<min(bytes.count, sync + 64)]
        return ["Xing", "Info", "VBRI"].contains { tag in
            frame.indices.contains { start in frame[start...].starts(with: Array(tag.utf8)) }
        }
    }

    /// The bytes the MP3's last frame holds and the bytes its header says it has (nil when the file ends before the
    /// header does), when the file ends inside it; nil when the file ends where a frame does, or where the frames
    /// cannot be followed.
    ///
    /// An encoder writes whole frames: 1,297 MP3s that twenty-one payment apps shipped each end on a frame's
    /// end (or a tag after it). A file that ends inside one was cut short after it was written, in a copy or a
    /// download, whether or not it declares its length. Frames are followed from the first MPEG audio frame
    /// header, each header giving its frame's size; the walk stops, judging nothing, at anything else (an ID3v1
    /// or APE tag, a free-format bit rate, bytes that are no frame).
    static func cutLastFrame(in bytes: [UInt8]) -> (held: Int, size: Int?)? {
        guard var start = firstFrame(in: bytes) else { return nil }
        while let size = FrameHeader.size(in: bytes, at: start) {
            guard start + size <= bytes.count else { return (bytes.count - start, size) }
            start += size
        }
        // One or two bytes of a header's sync word, too few to tell its frame's size.
        let rest = bytes[start...]
        let isSync = rest.first == 0xff && rest.dropFirst().allSatisfy { $0 & 0xe0 == 0xe0 }
        return (1...2).contains(rest.count) && isSync ? (rest.count, nil) : nil
    }

    /// Where the first frame starts, after any ID3v2 tag: the first frame header whose frame is followed by
    /// another header or by the file's end (a lone 0xFF 0xFx inside a tag's padding is no frame).
    static func firstFrame(in bytes: [UInt8]) -> Int? {
        var start = 0
        if bytes.count > 10, bytes.starts(with: Array("ID3".utf8)) {
            // A syncsafe size (7 bits a byte) after the 10-byte header; a footer adds 10 more.
            start = bytes[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7f) } + 10 + (bytes[5] & 0x10 != 0 ? 10 : 0)
        }
        return (start..<max(start, bytes.count - 2)).first { index in
            guard let size = FrameHeader.size(in: bytes, at: index) else { return false }
            return index + size >= bytes.count || FrameHeader.size(in: bytes, at: index + size) != nil
        }
    }

    /// An MPEG audio frame header, Layer I, II or III (ISO/IEC 11172-3 and 13818-3; 2.5 for the lowest rates).
    /// libsndfile reads all three layers, so all three are followed: a Layer II file (`.mp2`, or an MP3 name on one)
    /// is walked frame by frame too, and not searched for two bytes inside it that look like a Layer III header.
    enum FrameHeader {
        /// Kilobits a second by the header's bit-rate index: MPEG-1 Layer I, II and III, then MPEG-2 and 2.5 Layer I,
        /// and their Layers II and III.
        static let mpeg1KilobitRates = [
            [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
            [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
            [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        ]
        static let mpeg2KilobitRates = [
            [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
            [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
        ]
        /// Samples a second by the header's rate index, for MPEG-1; MPEG-2 halves them, 2.5 quarters them.
        static let mpeg1SampleRates = [44_100, 48_000, 32_000]

        /// The size in bytes of the frame whose header starts at `index`; nil for no frame header there.
        static func size(in bytes: [UInt8], at index: Int) -> Int? {
            // The size is in the header's first three bytes (the fourth says how the channels are coded).
            guard index >= 0, index + 3 <= bytes.count, bytes[index] == 0xff, bytes[index + 1] & 0xe0 == 0xe0 else {
                return nil
            }
            let version = (bytes[index + 1] >> 3) & 3  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
            let layer = 4 - Int((bytes[index + 1] >> 1) & 3)  // the bits say 3 for Layer I, 1 for Layer III
            let rateIndex = Int(bytes[index + 2] >> 4)
            let sampleRateIndex = Int((bytes[index + 2] >> 2) & 3)
            let padding = Int((bytes[index + 2] >> 1) & 1)
            guard version != 1, layer != 4, rateIndex != 0, rateIndex != 15, sampleRateIndex != 3 else { return nil }
            let isMPEG1 = version == 3
            let rates = isMPEG1 ? mpeg1KilobitRates[layer - 1] : mpeg2KilobitRates[min(layer, 2) - 1]
            let bitRate = 1000 * rates[rateIndex]
            let sampleRate = mpeg1SampleRates[sampleRateIndex] / (isMPEG1 ? 1 : version == 2 ? 2 : 4)
            // Samples a frame ÷ 8, in bytes a bit a second: Layer I's 384 samples in slots of 4 bytes; Layer II's
            // 1,152; Layer III's 1,152 for MPEG-1 and 576 for the others.
            switch layer {
            case 1: return (12 * bitRate / sampleRate + padding) * 4
            case 2: return 144 * bitRate / sampleRate + padding
            default: return (isMPEG1 ? 144 : 72) * bitRate / sampleRate + padding
            }
        }
    }
}
