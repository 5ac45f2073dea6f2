import SpeechText

/// A JSON document as written, with where each value stands, so that a settings error can say
/// `assets.json:12:5` and duplicate keys are seen rather than silently dropped.
///
/// Foundation's parser reports neither positions nor duplicate keys; this one does. (Files are written by
/// `CanonicalJSON` and `JSONLayout`.)
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number as written, so writing it back does not change its digits.
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

/// A value and where it starts.
public struct JSONNode: Equatable, Sendable {
    public let value: JSONValue
    public let position: TextPosition

    public init(_ value: JSONValue, at position: TextPosition = TextPosition(line: 0, column: 0)) {
        self.value = value
        self.position = position
    }
}

/// A key, its value, and where the key starts.
public struct JSONMember: Equatable, Sendable {
    public let key: String
    public let keyPosition: TextPosition
    public let node: JSONNode
}

/// A line and column, both from 1 (column counts characters, not bytes).
public struct TextPosition: Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A JSON text that is not JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let position: TextPosition
    public let message: String
    public var description: String { "\(position): \(message)" }

    /// The message for a text with nothing in it but white space.
    public static let empty = "the file is empty"
}

extension JSONNode {
    /// Parses a whole JSON text. Duplicate keys in one object are an error.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(Array(text.unicodeScalars))
        return try parser.document()
    }
}

private struct JSONParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var position: TextPosition { TextPosition(line: line, column: index - lineStart + 1) }

    mutating func document() throws(JSONSyntaxError) -> JSONNode {
        if scalars.first == "\u{FEFF}" { index = 1; lineStart = 1 }
        skipSpace()
        if index == scalars.count { throw fail(JSONSyntaxError.empty) }
        let node = try value()
        skipSpace()
        if index < scalars.count { throw fail("unexpected \(describe(scalars[index])) after the end of the document") }
        return node
    }

    mutating func value() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard index < scalars.count else { throw fail("the document ends where a value should be") }
        switch scalars[index] {
        case "{": return JSONNode(try object(), at: start)
        case "[": return JSONNode(try array(), at: start)
        case "\"": return JSONNode(.string(try string()), at: start)
        case "t": try literal("true"); return JSONNode(.bool(true), at: start)
        case "f": try literal("false"); return JSONNode(.bool(false), at: start)
        case "n": try literal("null"); return JSONNode(.null, at: start)
        case "-", "0"..."9": return JSONNode(.number(try number()), at: start)
        default: throw fail("unexpected \(describe(scalars[index])) where a value should be")
        }
    }

    mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var members: [JSONMember] = []
        // Where each key was first seen: an object of thousands of phrases is checked in linear time.
        var seen: [String: TextPosition] = [:]
        skipSpace()
        if peek("}") { index += 1; depth -= 1; return .object(members) }
        while true {
            skipSpace()
            let keyPosition = position
            if peek("}") { throw fail("a comma before '}': JSON allows none after the last member, remove it") }
            guard peek("\"") else {
                throw fail(
                    index < scalars.count
                        ? "expected a key in double quotes, not \(describe(scalars[index]))"
                        : "the document ends inside an object")
            }
            let key = try string()
            if let earlier = seen.updateValue(keyPosition, forKey: key) {
                throw JSONSyntaxError(
                    position: keyPosition, message: "key '\(key)' appears twice in one object (first at \(earlier))")
            }
            skipSpace()
            guard peek(":") else { throw fail("expected ':' after the key '\(key)'") }
            index += 1
            skipSpace()
            members.append(JSONMember(key: key, keyPosition: keyPosition, node: try value()))
            skipSpace()
            if peek(",") { index += 1; continue }
            if peek("}") { index += 1; depth -= 1; return .object(members) }
            throw fail(
                index < scalars.count ? "expected ',' or '}' in an object" : "the document ends inside an object")
        }
    }

    mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONNode] = []
        skipSpace()
        if peek("]") { index += 1; depth -= 1; return .array(items) }
        while true {
            skipSpace()
            if peek("]") { throw fail("a comma before ']': JSON allows none after the last item, remove it") }
            items.append(try value())
            skipSpace()
            if peek(",") { index += 1; continue }
            if peek("]") { index += 1; depth -= 1; return .array(items) }
            throw fail(index < scalars.count ? "expected ',' or ']' in a list" : "the document ends inside a list")
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\"":
                index += 1
                return String(result)
            case "\\":
                index += 1
                guard index < scalars.count else { break }
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "/": result.append("/")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u":
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), peek("\\"), index + 1 < scalars.count,
                        scalars[index + 1] == "u"
                    {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone UTF-16 surrogate in a string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let decoded = Unicode.Scalar(code) else { throw fail("a lone UTF-16 surrogate in a string") }
                    result.append(decoded)
                default:
                    index -= 2
                    throw fail("unknown escape '\\\(escaped)' in a string")
                }
            case "\n":
                throw fail("a line break inside a string: close the string with '\"'")
            default:
                if scalar.value < 0x20 { throw fail("a control character inside a string") }
                result.append(scalar)
                index += 1
            }
        }
        throw fail("the document ends inside a string")
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < scalars.count, let digit = Int(String(scalars[index]), radix: 16) else {
                throw fail("expected four hexadecimal digits after \\u")
            }
            code = code * 16 + UInt32(digit)
            index += 1
        }
        return code
    }

    mutating func number() throws(JSONSyntaxError) -> String {
        let start = index
        if peek("-") { index += 1 }
        guard index < scalars.count, ("0"..."9").contains(scalars[index]) else { throw fail("expected a digit") }
        if peek("0") { index += 1 } else { digits() }
        if peek(".") {
            index += 1
            guard index < scalars.count, ("0"..."9").contains(scalars[index]) else {
                throw fail("expected a digit after '.'")
            }
            digits()
        }
        if peek("e") || peek("E") {
            index += 1
            if peek("+") || peek("-") { index += 1 }
            guard index < scalars.count, ("0"..."9").contains(scalars[index]) else {
                throw fail("expected a digit in the exponent")
            }
            digits()
        }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    mutating func digits() {
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.unicodeScalars {
            guard index < scalars.count, scalars[index] == expected else {
                throw fail("unexpected \(index < scalars.count ? describe(scalars[index]) : "end") in '\(word)'")
            }
            index += 1
        }
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 256 { throw fail("nested more than 256 levels deep") }
    }

    mutating func skipSpace() {
        while index < scalars.count {
            switch scalars[index] {
            case " ", "\t", "\r": index += 1
            case "\n":
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    func peek(_ scalar: Unicode.Scalar) -> Bool { index < scalars.count && scalars[index] == scalar }

    func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(position: position, message: message) }

    func describe(_ scalar: Unicode.Scalar) -> String {
        scalar.properties.isWhitespace || scalar.value < 0x20
            ? "U+\(String(scalar.value, radix: 16, uppercase: true))" : "'\(scalar)'"
    }
}
