import CommandKit
import SpeechText
import Testing

@testable import AssetsCLI

@Suite struct InvocationTests {
    func say(_ arguments: String...) throws -> SayOptions {
        guard case .say(let options) = try Invocation.parse(["say"] + arguments) else {
            Issue.record("not a say invocation")
            return SayOptions(amount: Amount(fen: 0)!)
        }
        return options
    }

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try Invocation.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func sayReadsItsOptionsInBothSpellings() throws {
        let spaced = try say("1234.56", "--style", "financial", "--form", "decimal", "--format", "json")
        let joined = try say("--style=financial", "--form=decimal", "--format=json", "1234.56")
        #expect(spaced == joined)
        #expect(spaced.amount.fen == 123_456)
        #expect(spaced.style == .financial)
        #expect(spaced.form == .decimal)
        #expect(spaced.format == .json)
    }

    @Test func sayDefaults() throws {
        // No style or form given: `say` takes the pack's first (see SayEndToEndTests).
        let options = try say("88")
        #expect(options.style == nil)
        #expect(options.form == nil)
        #expect(options.format == .text)
    }

    @Test func alphabetLists() throws {
        let invocation = try Invocation.parse(["alphabet", "--styles", "spoken,formatter", "--forms=decimal"])
        #expect(invocation == .alphabet(AlphabetOptions(styles: [.spoken, .formatter], forms: [.decimal])))
        #expect(try Invocation.parse(["alphabet"]) == .alphabet(AlphabetOptions()))
        #expect(
            try Invocation.parse(["alphabet", "--styles", "all"])
                == .alphabet(AlphabetOptions(styles: ReadingStyle.allCases)))
        let missing = try Invocation.parse(["alphabet", "--missing", "--raw", "takes", "--config", "pack/assets.json"])
        var expected = AlphabetOptions(toRecord: true, missingOnly: true)
        (expected.pack.raw, expected.pack.config) = ("takes", "pack/assets.json")
        #expect(missing == .alphabet(expected))
        #expect(try Invocation.parse(["alphabet", "--to-record"]) == .alphabet(AlphabetOptions(toRecord: true)))
    }

    @Test func versionAndHelp() throws {
        #expect(try Invocation.parse(["--version"]) == .version)
        #expect(try Invocation.parse([]) == .help(nil))
        #expect(try Invocation.parse(["--help"]) == .help(nil))
        #expect(try Invocation.parse(["say", "--help"]) == .help(.say))
        #expect(try Invocation.parse(["say", "1", "-h"]) == .help(.say))
        #expect(try Invocation.parse(["help", "alphabet"]) == .help(.alphabet))
    }

    @Test(
        arguments: [
            (["say"], "give an amount"),
            (["say", "1", "2"], "'2' is a second"),
            (["say", "12", "--stlye", "spoken"], "did you mean '--style'"),
            (["say", "12", "--style"], "--style needs a value"),
            (["say", "12", "--style", "cantonese"], "unknown style 'cantonese'"),
            (["say", "12", "--format", "html"], "unknown format 'html'"),
            (["say", "1,23"], "'1,23' has a comma"),
            (["say", "-5"], "'-5' is negative"),
            (["say", "12", "--form=yuan=x"], "unknown form 'yuan=x'"),
            (["alphabet", "--styles", "spoken,klingon"], "unknown style 'klingon'"),
            (["alphabet", "--forms", ""], "unknown form an empty name"),
            (["alphabet", "extra"], "unexpected argument 'extra'"),
            (["sya", "12"], "did you mean 'say'"),
            (["--frobnicate"], "unknown option '--frobnicate'"),
        ] as [([String], String)])
    func wrongCommandLines(arguments: [String], expected: String) {
        let message = usageError(arguments)
        #expect(message?.contains(expected) == true, "\(arguments): \(message ?? "accepted")")
        #expect(message?.contains("--help") == true)
        #expect(message?.contains("\n") == false)
    }

    /// Each option a command's help shows is one its parser takes, and an unknown one is refused naming the
    /// nearest: the two come from one table.
    @Test func everyOptionInTheHelpIsParsedAndAnUnknownOneIsNot() throws {
        func names(in help: String) -> Set<String> {
            Set(
                help.split(separator: "\n").filter { $0.hasPrefix("  -") }.compactMap {
                    $0.split(separator: " ").first.map(String.init)
                })
        }
        let tables: [(Command, String, [[String]])] = [
            (.build, BuildOptions.table.help, BuildOptions.table.options.map(\.names)),
            (.check, CheckOptions.table.help, CheckOptions.table.options.map(\.names)),
            (.audit, AuditOptions.table.help, AuditOptions.table.options.map(\.names)),
            (.diff, DiffOptions.table.help, DiffOptions.table.options.map(\.names)),
            (.say, SayOptions.table.help, SayOptions.table.options.map(\.names)),
            (.alphabet, AlphabetOptions.table.help, AlphabetOptions.table.options.map(\.names)),
            (.split, SplitOptions.table.help, SplitOptions.table.options.map(\.names)),
        ]
        #expect(Set(tables.map(\.0)) == Set(Command.allCases))
        for (command, help, options) in tables {
            #expect(names(in: help) == Set(options.map { $0[0] }), "\(command)")
            #expect(help.hasPrefix("usage: assets \(command.rawValue) "))
            for name in options.flatMap({ $0 }) {
                do {
                    _ = try Invocation.parse([command.rawValue, name, "x"])
                } catch {
                    #expect(!error.message.contains("unknown option"), "\(command) \(name): \(error.message)")
                }
            }
            let unknown = #expect(throws: UsageError.self) {
                try Invocation.parse([command.rawValue, "--no-such-option"])
            }
            #expect(unknown?.message.hasPrefix("unknown option '--no-such-option'") == true)
        }
    }
}
