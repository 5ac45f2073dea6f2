import Foundation

/// A manifest's text fragment by fragment.
///
/// The canonical text of a manifest is its header (every key but `fragments`) with each fragment's own
/// canonical text in the list, so a fragment's text does not depend on the others. That lets a build that
/// changes a few fragments of thousands carry the rest over as the bytes they are, rather than decoding
/// and encoding megabytes of JSON to write the same bytes again.
extension Manifest {
    static var encoder: JSONEncoder { CanonicalJSON.encoder }
    /// How the fragment list opens in a canonical manifest; no string can hold it, since it holds a line break.
    static let listKey = Array("\n  \"fragments\": [".utf8)
    static let emptyList = listKey + Array("],\n".utf8)

    /// One fragment's canonical text as it stands in the list: indented two levels, without the comma.
    public static func canonicalText(of fragment: Fragment) -> [UInt8] {
        Array("    ".utf8) + JSONLayout.lines(try! encoder.encode(fragment), depth: 2)
    }

    /// The canonical bytes of `header` (its own fragments left out) with these fragment texts, in token order.
    /// Not generic over the texts' type, so that each text is copied as the block of bytes it is.
    public static func canonicalData(header: Manifest, fragmentTexts: [ArraySlice<UInt8>]) -> Data {
        var empty = header
        empty.fragments = []
        let headerText = [UInt8](JSONLayout.indented(try! encoder.encode(empty)))
        guard !fragmentTexts.isEmpty,
            let slot = headerText.withUnsafeBufferPointer({ Bytes.find(emptyList, in: $0, from: 0) })
        else { return Data(headerText) }
        // Made as the Data it is returned as, each piece copied once into place: a manifest of thousands is
        // megabytes, and appending to Data piece by piece costs more than the copying.
        let head = headerText[..<slot]
        let open = (listKey + [UInt8(ascii: "\n")])[...]
        let separator = Array(",\n".utf8)[...]
        let close = Array("\n  ],\n".utf8)[...]
        let tail = headerText[(slot + emptyList.count)...]
        let count =
            head.count + open.count + fragmentTexts.reduce(0) { $0 + $1.count } + separator.count
            * (fragmentTexts.count - 1) + close.count + tail.count
        var output = Data(count: count)
        output.withUnsafeMutableBytes { output in
            var position = 0
            func put(_ bytes: ArraySlice<UInt8>) {
                if bytes.isEmpty { return }
                bytes.withUnsafeBytes { bytes in
                    output.baseAddress!.advanced(by: position).copyMemory(
                        from: bytes.baseAddress!, byteCount: bytes.count)
                }
                position += bytes.count
            }
            put(head)
            put(open)
            for (offset, text) in fragmentTexts.enumerated() {
                if offset > 0 { put(separator) }
                put(text)
            }
            put(close)
            put(tail)
            precondition(position == output.count, "the manifest's pieces were counted wrong")
        }
        return output
    }

    /// Each fragment's text in a canonical manifest, by token; nil when `data` is not laid out as `assets`
    /// writes it (then it must be decoded).
    public static func fragmentTexts(in data: [UInt8]) -> [String: ArraySlice<UInt8>]? {
        data.withUnsafeBufferPointer { bytes -> [String: ArraySlice<UInt8>]? in
            guard let list = Bytes.find(listKey, in: bytes, from: 0) else { return nil }
            if Bytes.has(emptyList, in: bytes, at: list) { return [:] }
            guard Bytes.has(listKey + [UInt8(ascii: "\n")], in: bytes, at: list) else { return nil }
            var start = list + listKey.count + 1
            let elementStart = Array("    {".utf8)
            let elementEnd = Array("\n    }".utf8)
            let tokenKey = Array("\n      \"token\": ".utf8)
            let lineBreak = [UInt8(ascii: "\n")]
            let next = Array(",\n".utf8)
            let last = Array("\n  ]".utf8)
            var texts: [String: ArraySlice<UInt8>] = [:]
            // About a kilobyte a fragment: room for all of them at once, not grown step by step.
            texts.reserveCapacity(bytes.count / 1024)
            while true {
                guard Bytes.has(elementStart, in: bytes, at: start),
                    let end = Bytes.find(elementEnd, in: bytes, from: start).map({ $0 + elementEnd.count }),
                    let key = Bytes.find(tokenKey, in: bytes, from: start, before: end),
                    let lineEnd = Bytes.find(lineBreak, in: bytes, from: key + tokenKey.count),
                    bytes[lineEnd - 1] == UInt8(ascii: ","),
                    let token = stringLiteral(bytes[(key + tokenKey.count)..<(lineEnd - 1)]),
                    texts.updateValue(data[start..<end], forKey: token) == nil
                else { return nil }
                if Bytes.has(next, in: bytes, at: end) {
                    start = end + 2
                } else if Bytes.has(last, in: bytes, at: end) {
                    return texts
                } else {
                    return nil
                }
            }
        }
    }

    /// The text of a JSON string literal: its bytes when it has no escapes, else as the parser reads it.
    private static func stringLiteral(_ literal: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard literal.count >= 2, literal.first == UInt8(ascii: "\""), literal.last == UInt8(ascii: "\"") else {
            return nil
        }
        let inside = literal.dropFirst().dropLast()
        if !inside.contains(UInt8(ascii: "\\")) && !inside.contains(UInt8(ascii: "\"")) {
            return String(decoding: inside, as: UTF8.self)
        }
        guard case .string(let text)? = try? JSONNode.parse(String(decoding: literal, as: UTF8.self)).value else {
            return nil
        }
        return text
    }

    /// One fragment decoded from its text.
    public static func decodeFragment(_ text: ArraySlice<UInt8>) throws -> Fragment {
        try JSONDecoder().decode(Fragment.self, from: Data(text))
    }
}

/// Byte searches over a buffer: Foundation's generic `firstRange(of:)` allocates on every step.
enum Bytes {
    /// Where `pattern` first starts at or after `from` (and ends before `limit`).
    ///
    /// The search skips with `memchr` to each place the pattern's anchor byte stands — its first letter or
    /// closing bracket, which a manifest holds far fewer of than spaces, line breaks and quotes — and
    /// compares the whole pattern only there.
    static func find(
        _ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, before limit: Int? = nil
    ) -> Int? {
        let end = limit ?? bytes.count
        guard !pattern.isEmpty, from >= 0, from + pattern.count <= end, let base = bytes.baseAddress else {
            return nil
        }
        let anchor = pattern.firstIndex { isAnchor($0) } ?? 0
        let anchorByte = Int32(pattern[anchor])
        let lastStart = end - pattern.count
        var start = from
        while start <= lastStart {
            guard let found = memchr(base + start + anchor, anchorByte, lastStart - start + 1) else { return nil }
            let candidate = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - anchor
            if has(pattern, in: bytes, at: candidate) { return candidate }
            start = candidate + 1
        }
        return nil
    }

    private static func isAnchor(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }

    /// Whether `pattern` stands at `index`.
    static func has(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= bytes.count else { return false }
        for offset in pattern.indices where bytes[index + offset] != pattern[offset] { return false }
        return true
    }
}
