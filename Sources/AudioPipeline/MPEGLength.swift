import Foundation

/// How far an MP3's length, as libsndfile reports it, can be trusted.
///
/// An MP3 declares its length only in a Xing, Info or VBRI header in its first frame; without one, libsndfile
/// (through mpg123) estimates the length from the file's size and its first frame's bit rate, which can be
/// several times off for a variable bit rate. With one, the count may still differ from what decodes by the
/// encoder's delay and padding (a few hundred samples). So an MP3 is called cut short only when it declares
/// its length and decodes to at least `toleratedFrames` less.
public enum MPEGLength {
    /// Two MPEG frames: more than any encoder's delay and padding.
    public static let toleratedFrames = 2 * 1152

    /// Whether the MP3 at `path` carries a Xing, Info or VBRI header, after any ID3v2 tag.
    static func isDeclared(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard var bytes = try? handle.read(upToCount: 64 * 1024).map(Array.init), bytes.count > 10 else {
            return false
        }
        if bytes.starts(with: Array("ID3".utf8)) {
            // A syncsafe size (7 bits a byte) after the 10-byte header; a footer adds 10 more.
            let size = bytes[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7f) } + 10 + (bytes[5] & 0x10 != 0 ? 10 : 0)
            guard size < bytes.count else { return false }
            bytes.removeFirst(size)
        }
        guard let sync = bytes.indices.dropLast().first(where: { bytes[$0] == 0xff && bytes[$0 + 1] & 0xe0 == 0xe0 })
        else { return false }
        // The tag sits after the frame's header and side information: within its first 64 bytes.
        let frame = bytes[sync..<min(bytes.count, sync + 64)]
        return ["Xing", "Info", "VBRI"].contains { tag in
            frame.indices.contains { start in frame[start...].starts(with: Array(tag.utf8)) }
        }
    }
}
