/// How digits and units are written: the voice of the payment app the pack serves.
public enum ReadingStyle: String, CaseIterable, Sendable, Hashable {
    /// How Alipay and WeChat speak: 两 where people say it, 零 for gaps, 十 rather than 一十 at the start.
    case spoken
    /// Exactly what Foundation's `NumberFormatter` `.spellOut` writes for `zh_CN` (ICU): 〇 for zero and gaps.
    case formatter
    /// Likewise for `zh_Hant`: 萬, 億, 零 for gaps, 〇 for zero alone, 點.
    case formatterHant = "formatter-hant"
    /// 大写 as on a cheque: 零壹贰叁肆伍陆柒捌玖拾佰仟.
    case financial

    public var name: String { rawValue }
}

/// Whether fractions are read as money units or as decimal digits.
public enum AmountForm: String, CaseIterable, Sendable, Hashable {
    /// 一百二十三元四角五分; 整 when there are no 角 and no 分.
    case yuan
    /// 一百二十三点四五元.
    case decimal

    public var name: String { rawValue }
}

extension ReadingStyle {
    /// Parses a comma-separated list such as `spoken,formatter`; `all` stands for every style.
    public static func list(_ text: String) -> Result<[ReadingStyle], NameListError> {
        parseNameList(text, kind: "style")
    }
}

extension AmountForm {
    /// Parses a comma-separated list such as `yuan,decimal`; `all` stands for every form.
    public static func list(_ text: String) -> Result<[AmountForm], NameListError> {
        parseNameList(text, kind: "form")
    }
}

/// A name in a style or form list that is not known.
public struct NameListError: Error, Equatable, Sendable, CustomStringConvertible {
    public let kind: String
    public let name: String
    public let known: [String]

    public var description: String {
        let shown = name.isEmpty ? "an empty name" : "'\(name)'"
        return "unknown \(kind) \(shown): use one of \(known.joined(separator: ", ")) or all"
    }
}

private func parseNameList<Value: RawRepresentable & CaseIterable>(
    _ text: String, kind: String
) -> Result<[Value], NameListError> where Value.RawValue == String {
    var values: [Value] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let name = String(part).trimmingSpaces()
        if name == "all" {
            for value in Value.allCases where !values.contains(where: { $0.rawValue == value.rawValue }) {
                values.append(value)
            }
            continue
        }
        guard let value = Value(rawValue: name) else {
            return .failure(NameListError(kind: kind, name: name, known: Value.allCases.map(\.rawValue)))
        }
        if !values.contains(where: { $0.rawValue == value.rawValue }) { values.append(value) }
    }
    return .success(values)
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
