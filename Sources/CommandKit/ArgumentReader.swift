import VoicePack

/// A command line that is wrong: exit status 2, one line on stderr.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The program and command the message is about: `assets split`, or `assets` before a command was read.
    public let program: String
    public let message: String
    /// A settings file's problems, one a line, printed as they are.
    public let multiline: Bool

    public init(program: String, _ message: String, multiline: Bool = false) {
        self.program = program
        self.message = message
        self.multiline = multiline
    }

    public var description: String {
        multiline ? message : "\(program): \(message); see '\(program) --help'"
    }
}

/// Walks the arguments of one command: `--key value`, `--key=value`, positionals, and `--` to end options.
public struct ArgumentReader {
    public enum Item: Equatable {
        case option(String)
        case positional(String)
    }

    /// `assets split`: what errors name.
    public let program: String
    private var arguments: ArraySlice<String>
    private var inlineValue: String?
    private var optionsEnded = false

    public init(_ arguments: some Collection<String>, program: String) {
        self.arguments = ArraySlice(arguments)
        self.program = program
    }

    public mutating func next() throws(UsageError) -> Item? {
        if let inlineValue {
            throw UsageError(program: program, "option takes no value: '=\(inlineValue)'")
        }
        guard let argument = arguments.popFirst() else { return nil }
        if optionsEnded || !argument.hasPrefix("-") || argument == "-" || Self.looksNumeric(argument) {
            return .positional(argument)
        }
        if argument == "--" {
            optionsEnded = true
            return try next()
        }
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            inlineValue = String(argument[argument.index(after: equals)...])
            return .option(String(argument[..<equals]))
        }
        return .option(argument)
    }

    /// The value of the option just read: after `=`, or the next argument.
    public mutating func value(of option: String) throws(UsageError) -> String {
        if let value = inlineValue {
            inlineValue = nil
            return value
        }
        guard let value = arguments.popFirst() else { throw UsageError(program: program, "\(option) needs a value") }
        return value
    }

    /// The error for an option this command does not have, with the nearest known one.
    public func unknown(_ option: String, known: [String]) -> UsageError {
        var message = "unknown option '\(option)'"
        if let near = Suggestion.nearest(to: option, in: known) { message += " (did you mean '\(near)'?)" }
        return UsageError(program: program, message)
    }

    /// A negative amount such as `-5` is an argument to refuse later, not an option.
    private static func looksNumeric(_ argument: String) -> Bool {
        argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
    }
}
