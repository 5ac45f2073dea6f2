/// One option of a command, written once: its names, the value it takes, what help says of it, and what it
/// sets. The command's usage line, its help, its parsing and its unknown-option errors all come from these.
public struct Option<Options>: Sendable {
    public typealias Set = @Sendable (inout Options, String) throws(UsageError) -> Void

    /// The first is the one help shows first: `--output`, `-o`.
    public let names: [String]
    /// What the value is called in help (`FILE`, `N`); nil for a flag.
    public let value: String?
    /// One or more lines; help indents the ones after the first under it.
    public let help: String
    public let set: Set

    /// An option that takes a value.
    public init(_ names: String..., value: String, _ help: String, _ set: @escaping Set) {
        self.names = names
        self.value = value
        self.help = help
        self.set = set
    }

    /// A flag: no value.
    public init(flag name: String, _ help: String, _ set: @escaping @Sendable (inout Options) -> Void) {
        names = [name]
        value = nil
        self.help = help
        self.set = { options, _ in set(&options) }
    }

    /// An option made from another's parts: how `assets` gives every pack command the same four.
    public init(names: [String], value: String?, help: String, set: @escaping Set) {
        self.names = names
        self.value = value
        self.help = help
        self.set = set
    }

    /// `--raw DIR`, as usage and help show it.
    public var shown: String { value.map { "\(names[0]) \($0)" } ?? names[0] }
}

/// A command's options and what it says of itself.
public struct OptionTable<Options>: Sendable {
    /// `assets split`: the usage line and the errors name it.
    public let program: String
    /// What comes before the options in the usage line: `AMOUNT`, `[BASE]`; an option it names
    /// (`SESSION (--expect LIST | --labels FILE)`) is not listed again.
    public let arguments: String
    /// The paragraphs after the usage line.
    public let about: String
    /// Help lines for the arguments, before the options'.
    public let argumentHelp: [(String, String)]
    public let options: [Option<Options>]

    public init(
        program: String, arguments: String = "", about: String, argumentHelp: [(String, String)] = [],
        options: [Option<Options>]
    ) {
        self.program = program
        self.arguments = arguments
        self.about = about
        self.argumentHelp = argumentHelp
        self.options = options
    }

    /// `usage: assets …`, what the command does, and a line (or a few) for each argument and option.
    public var help: String {
        let lead = "usage: \(program) "
        let usage = Self.wrap(
            [arguments].filter { !$0.isEmpty }
                + options.filter { !arguments.contains($0.shown) }.map { "[\($0.shown)]" }, indent: lead.count)
        let width = max(15, (argumentHelp.map(\.0) + options.map(\.shown)).map(\.count).max() ?? 0)
        let indent = String(repeating: " ", count: width + 4)
        let lines = (argumentHelp + options.map { ($0.shown, $0.help) }).map { name, help in
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + help.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
        }
        return lead + usage + "\n\n\(about)\n\n" + lines.joined(separator: "\n")
    }

    /// The parts in lines of at most 110 columns, the lines after the first indented by `indent`.
    static func wrap(_ parts: [String], indent: Int) -> String {
        var lines = [""]
        for part in parts {
            if !lines[lines.count - 1].isEmpty && indent + lines[lines.count - 1].count + 1 + part.count > 110 {
                lines.append("")
            }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + part
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    /// Reads the command's options into `options`; each positional argument goes to `positional`, which
    /// refuses one when the command takes none.
    public func parse(
        _ reader: inout ArgumentReader, into options: inout Options,
        positional: (inout Options, String) throws(UsageError) -> Void
    ) throws(UsageError) {
        while let item = try reader.next() {
            switch item {
            case .option(let name):
                guard let option = self.options.first(where: { $0.names.contains(name) }) else {
                    throw reader.unknown(name, known: self.options.flatMap(\.names))
                }
                try option.set(&options, option.value == nil ? "" : try reader.value(of: name))
            case .positional(let text):
                try positional(&options, text)
            }
        }
    }

    /// The positional handler of a command that takes none.
    public func noArguments(_ options: inout Options, _ text: String) throws(UsageError) {
        throw UsageError(program: program, "unexpected argument '\(text)'")
    }
}
