import Foundation
import PackManifest

// The build's one shortcut, kept here so that a reader knows where to look (BENCHMARKS.md, "What the
// shortcut saves", gives its figure):
//
// A manifest's canonical text is its header with each fragment's own canonical text in the list, so one
// fragment's text does not depend on the others. A build that changes a few fragments of thousands carries
// the rest over as the bytes they are — split out of the last manifest here, put back in `canonicalData` —
// rather than decoding and encoding megabytes of JSON to write the same bytes again. Any layout other than
// the one `assets` writes is not split, and the build decodes the manifest instead.

extension Manifest {
    /// How the fragment list opens in a canonical manifest. A JSON string holds no line break, so no string
    /// value can look like it.
    static let listKey = Array("\n  \"fragments\": [".utf8)
    static let emptyList = listKey + Array("],\n".utf8)

    /// One fragment's canonical text as it stands in the list: indented two levels, without the comma.
    static func canonicalText(of fragment: Fragment) -> [UInt8] {
        Array("    ".utf8) + JSONLayout.lines(CanonicalJSON.data(fragment), depth: 2)
    }

    /// The canonical bytes of `header` (its own fragments left out) with these fragment texts, in token
    /// order: the same bytes as `canonicalData()` of the whole manifest.
    static func canonicalData(header: Manifest, fragmentTexts: [ArraySlice<UInt8>]) -> Data {
        var empty = header
        empty.fragments = []
        let headerText = [UInt8](empty.canonicalData())
        guard !fragmentTexts.isEmpty, let slot = headerText.firstRange(of: emptyList) else { return Data(headerText) }
        var output: [UInt8] = []
        output.reserveCapacity(headerText.count + fragmentTexts.reduce(0) { $0 + $1.count + 2 })
        output += headerText[..<slot.lowerBound] + listKey + [UInt8(ascii: "\n")]
        for (offset, text) in fragmentTexts.enumerated() {
            if offset > 0 { output += Array(",\n".utf8) }
            output += text
        }
        output += Array("\n  ],\n".utf8) + headerText[slot.upperBound...]
        return Data(output)
    }

    /// Each fragment's text in a canonical manifest, by token; nil when `data` is not laid out as `assets`
    /// writes it. Read line by line: a fragment opens with `    {`, names its token on a line of its own
    /// six spaces in, and closes with `    }` (and a comma, but for the last).
    static func fragmentTexts(in data: [UInt8]) -> [String: ArraySlice<UInt8>]? {
        guard let list = data.firstRange(of: listKey) else { return nil }
        if data[list.lowerBound...].starts(with: emptyList) { return [:] }
        let open = Array("    {".utf8)
        let close = Array("    }".utf8)
        let closeAndComma = close + [UInt8(ascii: ",")]
        let listEnd = Array("\n  ]".utf8)
        let tokenKey = Array("      \"token\": ".utf8)
        var texts: [String: ArraySlice<UInt8>] = [:]
        var fragmentStart: Int?
        var token: String?
        var lineStart = list.upperBound + 1
        guard data.count > list.upperBound, data[list.upperBound] == UInt8(ascii: "\n") else { return nil }
        while lineStart < data.count {
            let lineEnd = data[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? data.count
            let line = data[lineStart..<lineEnd]
            if line.elementsEqual(open) {
                guard fragmentStart == nil else { return nil }
                (fragmentStart, token) = (lineStart, nil)
            } else if line.starts(with: tokenKey) && line.last == UInt8(ascii: ",") {
                token = stringLiteral(line.dropFirst(tokenKey.count).dropLast())
            } else if line.elementsEqual(close) || line.elementsEqual(closeAndComma) {
                guard let start = fragmentStart, let name = token,
                    texts.updateValue(data[start..<(lineStart + close.count)], forKey: name) == nil
                else { return nil }
                fragmentStart = nil
                // The last fragment: the list closes on the next line.
                if line.count == close.count { return data[lineEnd...].starts(with: listEnd) ? texts : nil }
            } else if fragmentStart == nil {
                return nil
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// The text of a JSON string literal, as the parser reads it.
    private static func stringLiteral(_ literal: ArraySlice<UInt8>) -> String? {
        guard case .string(let text)? = try? JSONNode.parse(String(decoding: literal, as: UTF8.self)).value else {
            return nil
        }
        return text
    }

    /// One fragment decoded from its text.
    static func decodeFragment(_ text: ArraySlice<UInt8>) throws -> Fragment {
        try JSONDecoder().decode(Fragment.self, from: Data(text))
    }
}
