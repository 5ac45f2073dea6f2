import Foundation

/// Containers built of sized parts — an MP4's boxes (`.m4a`, ISO/IEC 14496-12), a CAF's chunks — where each
/// top-level part gives its type and its size: a file cut short shows as the part that runs past its end. The
/// libraries say less: libsndfile that a cut CAF is "malformed" (and FFmpeg then reads it to the cut without a
/// word), FFmpeg that a cut MP4's data is invalid, or a packet corrupt.
enum ContainerParts {
    /// The top-level part a file's end cuts: its type, what it is ("box", "chunk"), the bytes it declares (its
    /// header's with them) and the bytes the file holds of it.
    struct Cut: Equatable {
        let type: String
        let part: String
        let size: Int
        let held: Int

        /// "it is truncated: its audio (mdat box) promises 2008 bytes, the file holds 1508 of them (FFmpeg: …)".
        func problem(_ library: String, said: String) -> String {
            let meaning = ["moov": "index", "mdat": "audio", "data": "audio", "pakt": "packet table"][type]
            let named = meaning.map { "\($0) (\(type) \(part))" } ?? "\(type) \(part)"
            return "it is truncated: its \(named) promises \(size) bytes, the file holds \(held) of them"
                + " (\(library): \(said))"
        }
    }

    /// The cut part of the MP4 or CAF file at `path`; nil for another file, or one whose parts all end in it.
    static func cut(path: String) -> Cut? {
        contents(path).flatMap { cutMP4Box(in: $0) ?? cutCAFChunk(in: $0) }
    }

    /// The cut chunk of the CAF file at `path`; nil for another file, or one whose chunks all end in it.
    static func cutCAFChunk(path: String) -> Cut? {
        contents(path).flatMap(cutCAFChunk(in:))
    }

    private static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    /// An MP4 (an `ftyp` box first): each box is its size (4 bytes, with the header's 8; 1 for a 64-bit size after
    /// the type, 0 for "to the end of the file") and its type.
    static func cutMP4Box(in bytes: [UInt8]) -> Cut? {
        guard bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        return walk(bytes, from: 0, part: "box") { start in
            guard let type = typeCode(bytes, at: start + 4) else { return nil }
            let size = bigEndian(bytes[start..<(start + 4)])
            guard size == 1 else { return (type, size == 0 ? nil : size) }
            guard start + 16 <= bytes.count else { return nil }
            return (type, bigEndian(bytes[(start + 8)..<(start + 16)]))
        }
    }

    /// A CAF ("caff", then a version and flags): each chunk is its type and its body's size (8 bytes; −1 for an
    /// audio chunk that runs to the end of the file).
    static func cutCAFChunk(in bytes: [UInt8]) -> Cut? {
        guard bytes.count >= 8, bytes[0..<4].elementsEqual("caff".utf8) else { return nil }
        return walk(bytes, from: 8, part: "chunk") { start in
            guard start + 12 <= bytes.count, let type = typeCode(bytes, at: start) else { return nil }
            let size = bigEndian(bytes[(start + 4)..<(start + 12)])
            guard size != -1 else { return (type, nil) }
            let (whole, overflow) = size.addingReportingOverflow(12)
            return size < 0 || overflow ? nil : (type, whole)
        }
    }

    /// Follows the parts from `start`; `at` gives the type and size of the one at an offset (size nil: it runs to
    /// the end of the file), or nil where there is none.
    private static func walk(_ bytes: [UInt8], from start: Int, part: String, at: (Int) -> (String, Int?)?) -> Cut? {
        var start = start
        while start + 8 <= bytes.count, let (type, declared) = at(start) {
            guard let size = declared else { return nil }
            guard size >= 8 else { return nil }  // no part: what follows is not read
            if size > bytes.count - start {
                return Cut(type: type, part: part, size: size, held: bytes.count - start)
            }
            start += size
        }
        return nil
    }

    /// A top-level part's four-character code: ASCII letters, digits or spaces; nil for anything else.
    private static func typeCode(_ bytes: [UInt8], at start: Int) -> String? {
        guard start + 4 <= bytes.count else { return nil }
        let code = bytes[start..<(start + 4)]
        guard code.allSatisfy({ typeLetters.contains($0) }) else { return nil }
        return String(decoding: code, as: UTF8.self)
    }

    private static let typeLetters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".utf8)

    /// A big-endian integer, signed (a CAF's −1 is eight 0xFF bytes).
    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
