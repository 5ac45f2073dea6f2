import CommandKit
import SpeechText
import VoicePack

/// The commands `assets` knows.
public enum Command: String, CaseIterable, Sendable {
    case build, check, audit, diff, say, alphabet, split
}

/// The command line, read into a value before anything runs.
public enum Invocation: Equatable, Sendable {
    case version
    case help(Command?)
    case build(BuildOptions)
    case check(CheckOptions)
    case audit(AuditOptions)
    case diff(DiffOptions)
    case say(SayOptions)
    case alphabet(AlphabetOptions)
    case split(SplitOptions)

    /// Parses the arguments after the program name. Pure: it reads no file and prints nothing.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(nil) }
        switch first {
        case "--version", "-V": return .version
        case "--help", "-h": return .help(nil)
        case "help":
            guard arguments.count > 1 else { return .help(nil) }
            return .help(try command(named: arguments[1]))
        default: break
        }
        let command = try command(named: first)
        let rest = arguments.dropFirst()
        if rest.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help(command) }
        var reader = ArgumentReader(rest, program: command.program)
        switch command {
        case .say: return .say(try SayOptions.parse(&reader))
        case .alphabet: return .alphabet(try AlphabetOptions.parse(&reader))
        case .build: return .build(try BuildOptions.parse(&reader))
        case .check: return .check(try CheckOptions.parse(&reader))
        case .audit: return .audit(try AuditOptions.parse(&reader))
        case .diff: return .diff(try DiffOptions.parse(&reader))
        case .split: return .split(try SplitOptions.parse(&reader))
        }
    }

    private static func command(named name: String) throws(UsageError) -> Command {
        if let command = Command(rawValue: name) { return command }
        if name.hasPrefix("-") {
            throw UsageError(nil, "unknown option '\(name)': give a command first")
        }
        var message = "unknown command '\(name)'"
        if let near = Suggestion.nearest(to: name, in: Command.allCases.map(\.rawValue)) {
            message += " (did you mean '\(near)'?)"
        }
        throw UsageError(nil, message)
    }
}

/// What a command prints: each command accepts a subset.
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, junit, markdown, html, xcode, github

    static func parse(_ text: String, allowed: [OutputFormat], command: Command) throws(UsageError) -> OutputFormat {
        guard let format = OutputFormat(rawValue: text), allowed.contains(format) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw UsageError(command, "unknown format '\(text)': use one of \(names)")
        }
        return format
    }
}

/// A style or form named on the command line: one (`--style`) or a comma-separated list (`--styles`).
protocol CommandLineName: RawRepresentable, CaseIterable where RawValue == String {
    /// `style` or `form`, for messages.
    static var kind: String { get }
    static func list(_ text: String) -> Result<[Self], NameListError>
}

extension CommandLineName {
    static func parse(_ text: String, command: Command) throws(UsageError) -> Self {
        guard let value = Self(rawValue: text) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(command, "unknown \(kind) '\(text)': use one of \(names)")
        }
        return value
    }

    static func parseList(_ text: String, command: Command) throws(UsageError) -> [Self] {
        switch list(text) {
        case .success(let values): return values
        case .failure(let error): throw UsageError(command, error.description)
        }
    }
}

extension ReadingStyle: CommandLineName {
    static var kind: String { "style" }
}

extension AmountForm: CommandLineName {
    static var kind: String { "form" }
}
