import Testing

@testable import PackManifest

/// The byte search the manifest split uses finds what a plain scan finds.
@Suite struct ByteSearchTests {
    static func naive(_ pattern: [UInt8], in bytes: [UInt8], from: Int, before limit: Int?) -> Int? {
        let end = limit ?? bytes.count
        guard !pattern.isEmpty, from >= 0, from + pattern.count <= end else { return nil }
        return (from...(end - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern }
    }

    /// Every string of up to `length` bytes over `alphabet`.
    static func strings(over alphabet: [UInt8], upTo length: Int) -> [[UInt8]] {
        var all: [[UInt8]] = [[]]
        var last: [[UInt8]] = [[]]
        for _ in 0..<length {
            last = last.flatMap { prefix in alphabet.map { prefix + [$0] } }
            all += last
        }
        return all
    }

    /// Every text of up to 6 bytes and every pattern of up to 3 over a letter and a brace (which the search
    /// anchors on) and a line break (which it does not), so matches overlap, repeat and sit at both ends;
    /// from the start and further in, to the end and short of it.
    @Test func findsWhatAPlainScanFinds() {
        let alphabet = Array("a}\n".utf8)
        let patterns = Self.strings(over: alphabet, upTo: 3).filter { !$0.isEmpty }
        for bytes in Self.strings(over: alphabet, upTo: 6) {
            bytes.withUnsafeBufferPointer { buffer in
                for pattern in patterns {
                    for from in 0...min(2, bytes.count) {
                        for limit in [nil, max(from, bytes.count - 1)] {
                            let found = Bytes.find(pattern, in: buffer, from: from, before: limit)
                            #expect(found == Self.naive(pattern, in: bytes, from: from, before: limit))
                        }
                    }
                }
            }
        }
    }
}
