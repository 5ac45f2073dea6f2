import PackManifest
import SpeechText

/// An independent writer of the canonical form, for the tests: `JSONLayout`'s fast layout of `CanonicalJSON`'s
/// output must give the same bytes.
extension JSONNode {
    /// The one byte form of every JSON file `assets` writes: keys sorted by Unicode scalars, two-space
    /// indent, `"key": value`, UTF-8 without escapes beyond what JSON needs, a final newline.
    var canonicalText: String {
        var output = ""
        JSONNode.write(value, indent: 0, into: &output)
        return output + "\n"
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout String) {
        let padding = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): writeString(text, into: &output)
        case .array(let items):
            if items.isEmpty { output += "[]"; return }
            output += "[\n"
            for (offset, item) in items.enumerated() {
                output += padding
                write(item.value, indent: indent + 1, into: &output)
                output += offset == items.count - 1 ? "\n" : ",\n"
            }
            output += closing + "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{\n"
            let sorted = members.sorted { Token($0.key) < Token($1.key) }
            for (offset, member) in sorted.enumerated() {
                output += padding
                writeString(member.key, into: &output)
                output += ": "
                write(member.node.value, indent: indent + 1, into: &output)
                output += offset == sorted.count - 1 ? "\n" : ",\n"
            }
            output += closing + "}"
        }
    }

    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
