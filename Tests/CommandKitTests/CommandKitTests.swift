import Testing

@testable import CommandKit

struct ArgumentReaderTests {
    private func items(_ arguments: [String]) throws(UsageError) -> [String] {
        var reader = ArgumentReader(arguments, program: "tool run")
        var seen: [String] = []
        while let item = try reader.next() {
            switch item {
            case .option(let name): seen.append("\(name)=\(try reader.value(of: name))")
            case .positional(let text): seen.append(text)
            }
        }
        return seen
    }

    @Test func readsBothSpellingsOfAValueAndEndsOptionsAtDoubleDash() throws {
        #expect(try items(["--out", "a", "--out=b", "x", "--", "--out"]) == ["--out=a", "--out=b", "x", "--out"])
    }

    @Test func aNegativeNumberIsAnArgumentNotAnOption() throws {
        #expect(try items(["-5", "-.5"]) == ["-5", "-.5"])
    }

    @Test func aMissingValueNamesTheOptionAndTheProgram() {
        #expect(throws: UsageError(program: "tool run", "--out needs a value")) { try items(["--out"]) }
        #expect(
            UsageError(program: "tool run", "--out needs a value").description
                == "tool run: --out needs a value; see 'tool run --help'")
    }

    @Test func anUnknownOptionSuggestsTheNearestKnownOne() {
        let reader = ArgumentReader([String](), program: "tool")
        #expect(
            reader.unknown("--ouput", known: ["--output", "--force"]).message
                == "unknown option '--ouput' (did you mean '--output'?)")
        #expect(reader.unknown("--zzz", known: ["--output"]).message == "unknown option '--zzz'")
    }
}

struct OptionTableTests {
    struct Options {
        var output: String?
        var force = false
    }

    let table = OptionTable<Options>(
        program: "tool run", arguments: "FILE", about: "Runs the tool.",
        options: [
            Option("--output", "-o", value: "PATH", "where it goes\nand a second line") { $0.output = $1 },
            Option(flag: "--force", "do it anyway") { $0.force = true },
        ])

    @Test func helpComesFromTheTable() {
        #expect(
            table.help == """
                usage: tool run FILE [--output PATH] [--force]

                Runs the tool.

                  --output PATH    where it goes
                                   and a second line
                  --force          do it anyway
                """)
    }

    @Test func parsingSetsWhatEachOptionSaysAndPassesArgumentsOn() throws {
        var options = Options()
        var files: [String] = []
        var reader = ArgumentReader(["-o", "x", "in.wav", "--force"], program: "tool run")
        try table.parse(&reader, into: &options) { _, text in files.append(text) }
        #expect(options.output == "x" && options.force && files == ["in.wav"])
    }

    @Test func aCommandWithoutArgumentsRefusesOne() {
        var options = Options()
        var reader = ArgumentReader(["extra"], program: "tool run")
        #expect(throws: UsageError(program: "tool run", "unexpected argument 'extra'")) {
            try table.parse(&reader, into: &options, positional: table.noArguments)
        }
    }

    @Test func longUsageLinesWrapUnderTheFirst() {
        let wrapped = OptionTable<Options>.wrap(Array(repeating: "[--option VALUE]", count: 10), indent: 10)
        let lines = wrapped.split(separator: "\n")
        #expect(
            lines.count == 2 && lines.allSatisfy { $0.count + 10 <= 110 }
                && lines[1].hasPrefix(String(repeating: " ", count: 10)))
    }
}
