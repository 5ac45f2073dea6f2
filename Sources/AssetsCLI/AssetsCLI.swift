import CommandKit
import Foundation
import PackManifest
import PackTools

/// The `assets` command line: parse into an `Invocation`, run it, exit with its status.
public enum AssetsCLI {
    static let overview = """
        usage: assets COMMAND [OPTIONS]

        Builds and checks the voice pack a payment app splices spoken amounts from.

        commands:
          build       raw-audio/ → normalized/ and manifest.json
          check       fail (exit 1) on a missing, stale or mismatched fragment
          audit       the report a sound designer reads after a build
          diff        what a refresh of recordings changed, against a git revision or another copy
          say         the text and tokens for an amount
          alphabet    every token the enabled styles and forms can say
          split       a recording session → one recording per token in raw-audio/

          assets COMMAND --help    the options of one command
          assets --version

        exit status: 0 all good, 1 the work found problems, 2 the command itself was wrong
        """

    /// Runs `assets` with the arguments after the program name and returns its status.
    public static func run(
        _ arguments: [String], console: Console,
        currentFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ExitStatus {
        do {
            return try run(try Invocation.parse(arguments), console: console, currentFolder: currentFolder, environment)
        } catch {
            console.printError(error.description)
            return .usageError
        }
    }

    private static func run(
        _ invocation: Invocation, console: Console, currentFolder: URL, _ environment: [String: String]
    ) throws(UsageError) -> ExitStatus {
        switch invocation {
        case .version:
            console.print("\(Generator.name) \(Generator.version)")
            return .success
        case .help(let command):
            console.print(help(for: command))
            return .success
        case .build(let options):
            return try BuildCommand.run(options, console: console, currentFolder: currentFolder)
        case .check(let options):
            return try CheckCommand.run(
                options, console: console, currentFolder: currentFolder, environment: environment)
        case .audit(let options):
            return try AuditCommand.run(options, console: console, currentFolder: currentFolder)
        case .diff(let options):
            return try DiffCommand.run(
                options, console: console, currentFolder: currentFolder, environment: environment)
        case .say(let options):
            return try SayCommand.run(options, console: console, currentFolder: currentFolder)
        case .alphabet(let options):
            return try AlphabetCommand.run(options, console: console, currentFolder: currentFolder)
        case .split(let options):
            return try SplitCommand.run(options, console: console, currentFolder: currentFolder)
        }
    }

    /// Writes a report to `output` (saying so on stderr), or to stdout when there is none; false when the
    /// file cannot be written, and then stderr says why.
    static func deliver(_ text: String, to output: String?, currentFolder: URL, command: Command, console: Console)
        -> Bool
    {
        guard let output else {
            console.writeOut(text)
            return true
        }
        do {
            try Data(text.utf8).write(to: PackPaths.resolve(output, against: currentFolder), options: .atomic)
        } catch {
            console.printError(
                "\(command.program): \(output): cannot be written (\(error.localizedDescription))")
            return false
        }
        console.printError("\(command.program): wrote \(output)")
        return true
    }

    static func help(for command: Command?) -> String {
        switch command {
        case nil: return overview
        case .say: return SayOptions.table.help
        case .alphabet: return AlphabetOptions.table.help
        case .build: return BuildOptions.table.help
        case .check: return CheckOptions.table.help
        case .audit: return AuditOptions.table.help
        case .diff: return DiffOptions.table.help
        case .split: return SplitOptions.table.help
        }
    }

    /// The one place the process exits.
    public static func main() -> Never {
        let status = run(Array(CommandLine.arguments.dropFirst()), console: .standard)
        exit(status.rawValue)
    }
}
