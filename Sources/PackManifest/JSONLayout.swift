import Foundation

/// Lays compact JSON out in the canonical form `assets` writes — two-space indent, `"key": value`, empty
/// containers as `{}` and `[]`, a final newline — in one pass over the bytes, without parsing into values.
/// With `JSONEncoder`'s sorted keys, that is the same text as the tests' independent writer (`canonicalText`), written fast enough
/// for a manifest of thousands of fragments.
public enum JSONLayout {
    public static func indented(_ compact: Data) -> Data { Data(lines(compact, depth: 0) + [UInt8(ascii: "\n")]) }

    /// `compact` laid out as a value standing `depth` levels deep: its inner lines indented from there, no
    /// indent before its first line and no newline after its last.
    public static func lines(_ compact: Data, depth baseDepth: Int) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(compact.count * 2)
        var depth = baseDepth
        var inString = false
        var escaped = false
        let bytes = [UInt8](compact)
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            for _ in 0..<depth { output.append(UInt8(ascii: " ")); output.append(UInt8(ascii: " ")) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < bytes.count && bytes[index + 1] == closing {
                    output.append(closing)
                    index += 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(byte)
                output.append(UInt8(ascii: " "))
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            default:
                output.append(byte)
            }
        }
        return output
    }
}
