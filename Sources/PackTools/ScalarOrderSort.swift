import SpeechText

// A build of thousands of fragments sorts thousands of stems, paths and tokens; this sort is the one trick for
// it, kept here, out of the modules an iOS app embeds. `Token.inScalarOrder` is the order it must give.

extension Sequence {
    /// The elements ordered by `key` as `Token.inScalarOrder` orders strings. Each key's UTF-8 is copied
    /// once into one buffer and the sort compares bytes in place: sorting thousands of stems, paths and
    /// tokens neither copies a small string nor counts a reference per comparison. Each key's first 16
    /// bytes are also kept as two numbers, so that most comparisons are two comparisons of numbers — keys
    /// like `phrase_0001` and `phrase_0002` differ only after their first eight. Equal keys keep their order.
    func sorted(inScalarOrderOf key: (Element) -> String) -> [Element] {
        let items = Array(self)
        var bytes: [UInt8] = []
        var bounds: [Range<Int>] = []
        bounds.reserveCapacity(items.count)
        for item in items {
            let start = bytes.count
            bytes.append(contentsOf: key(item).utf8)
            bounds.append(start..<bytes.count)
        }
        // Two words per key: its first 16 bytes, padded with zeros and read big-endian, so that the words
        // order as the bytes do (a key that ends early pads with the lowest byte, and precedes its longer
        // equals, as it should).
        var prefixes = [UInt64](repeating: 0, count: 2 * items.count)
        bytes.withUnsafeBytes { bytes in
            prefixes.withUnsafeMutableBytes { words in
                for (index, range) in bounds.enumerated() where !range.isEmpty {
                    words.baseAddress!.advanced(by: 16 * index).copyMemory(
                        from: bytes.baseAddress!.advanced(by: range.lowerBound), byteCount: Swift.min(16, range.count))
                }
            }
        }
        for index in prefixes.indices { prefixes[index] = UInt64(bigEndian: prefixes[index]) }
        var order = Array(items.indices)
        bytes.withUnsafeBytes { bytes in
            bounds.withUnsafeBufferPointer { bounds in
                prefixes.withUnsafeBufferPointer { prefixes in
                    order.sort { left, right in
                        let (a, b) = (prefixes[2 * left], prefixes[2 * right])
                        if a != b { return a < b }
                        let (c, d) = (prefixes[2 * left + 1], prefixes[2 * right + 1])
                        if c != d { return c < d }
                        let (lhs, rhs) = (bounds[left], bounds[right])
                        let common = Swift.min(lhs.count, rhs.count)
                        // Equal words: the bytes both keys have among their first 16 are equal.
                        var offset = Swift.min(16, common)
                        // Eight bytes at a time, read big-endian so that the words order as their bytes do.
                        while offset + 8 <= common {
                            let a = bytes.loadUnaligned(fromByteOffset: lhs.lowerBound + offset, as: UInt64.self)
                            let b = bytes.loadUnaligned(fromByteOffset: rhs.lowerBound + offset, as: UInt64.self)
                            if a != b { return a.bigEndian < b.bigEndian }
                            offset += 8
                        }
                        while offset < common {
                            let (a, b) = (bytes[lhs.lowerBound + offset], bytes[rhs.lowerBound + offset])
                            if a != b { return a < b }
                            offset += 1
                        }
                        return lhs.count < rhs.count || (lhs.count == rhs.count && left < right)
                    }
                }
            }
        }
        return order.map { items[$0] }
    }
}
