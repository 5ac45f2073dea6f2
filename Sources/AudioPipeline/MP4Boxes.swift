import Foundation

/// The top-level boxes of an MP4 file (`.m4a`, `.mp4`, ISO/IEC 14496-12): each starts with its size and its type,
/// so a file cut short shows as a box that runs past the file's end — the index (`moov`) when a copy stopped
/// before it, the audio (`mdat`) when the index comes first. FFmpeg says only that the data is invalid, or that
/// a packet is corrupt; this names the cut.
enum MP4Boxes {
    /// The type of the top-level box that runs past the end of the file at `path`, the bytes it declares and the
    /// bytes the file holds of it; nil for a file that is no MP4 (no `ftyp` box first), whose boxes all end in
    /// it, or where what follows a box is no box.
    static func cutBox(path: String) -> (type: String, size: Int, held: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return cutBox(in: Array(data))
    }

    static func cutBox(in bytes: [UInt8]) -> (type: String, size: Int, held: Int)? {
        guard bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        var start = 0
        while start + 8 <= bytes.count {
            // A type is four letters, digits or spaces (or ©, as in iTunes' "©nam"); anything else is no box.
            let code = bytes[(start + 4)..<(start + 8)]
            guard code.allSatisfy({ Self.typeLetters.contains($0) }) else { return nil }
            let type = String(decoding: code, as: UTF8.self)
            var size = bigEndian(bytes[start..<(start + 4)])
            if size == 0 { return nil }  // the last box, running to the end of the file, whatever its length
            if size == 1 {  // a 64-bit size after the type
                guard start + 16 <= bytes.count else { return nil }
                size = bigEndian(bytes[(start + 8)..<(start + 16)])
            }
            guard size >= 8 else { return nil }  // no box: what follows is not read
            if size > bytes.count - start { return (type, size, bytes.count - start) }
            start += size
        }
        return nil
    }

    private static let typeLetters = Set(
        Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".utf8) + [0xa9])

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
