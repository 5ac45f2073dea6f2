import SpeechText

/// A value named on the command line from a fixed set: one (`--style spoken`) or a comma-separated list
/// (`--styles spoken,formatter`). An unknown name is a usage error that lists the known ones.
public protocol CommandLineName: RawRepresentable, CaseIterable where RawValue == String {
    /// `style` or `form`, for messages.
    static var kind: String { get }
    static func list(_ text: String) -> Result<[Self], NameListError>
}

extension CommandLineName {
    /// One name, for `program`'s messages.
    public static func parse(_ text: String, program: String) throws(UsageError) -> Self {
        guard let value = Self(rawValue: text) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(program: program, "unknown \(kind) '\(text)': use one of \(names)")
        }
        return value
    }

    /// A comma-separated list of names, for `program`'s messages.
    public static func parseList(_ text: String, program: String) throws(UsageError) -> [Self] {
        switch list(text) {
        case .success(let values): return values
        case .failure(let error): throw UsageError(program: program, error.description)
        }
    }
}

extension ReadingStyle: CommandLineName {
    public static var kind: String { "style" }
}

extension AmountForm: CommandLineName {
    public static var kind: String { "form" }
}
