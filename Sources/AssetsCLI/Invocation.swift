import CommandKit
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

extension CommandLineName {
    /// A style or form named on `command`'s line.
    static func parse(_ text: String, command: Command) throws(UsageError) -> Self {
        try parse(text, program: command.program)
    }

    static func parseList(_ text: String, command: Command) throws(UsageError) -> [Self] {
        try parseList(text, program: command.program)
    }
}
