import CommandKit
import SpeechText

/// `assets alphabet`: every token the enabled styles and forms can say, one a line.
public struct AlphabetOptions: Equatable, Sendable {
    public var styles: [ReadingStyle] = ReadingStyle.allCases
    public var forms: [AmountForm] = AmountForm.allCases

    static let table = OptionTable<AlphabetOptions>(
        command: .alphabet,
        about: """
            Prints the union of the alphabets of the given styles and forms, one token a line, sorted:
            exactly the tokens the speech converter can emit for some amount up to 9999亿.
            """,
        options: [
            Option(
                "--styles", value: "LIST",
                "comma-separated: spoken, formatter, formatter-hant, financial, all (default)"
            ) {
                options, text throws(UsageError) in
                options.styles = try ReadingStyle.parseList(text, command: .alphabet)
            },
            Option("--forms", value: "LIST", "comma-separated: yuan, decimal, all (default)") {
                options, text throws(UsageError) in
                options.forms = try AmountForm.parseList(text, command: .alphabet)
            },
        ])

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> AlphabetOptions {
        var options = AlphabetOptions()
        try table.parse(&reader, into: &options, positional: table.noArguments)
        return options
    }
}

enum AlphabetCommand {
    static func run(_ options: AlphabetOptions, console: Console) -> ExitStatus {
        for token in SpeechConverter.alphabet(styles: options.styles, forms: options.forms).sorted() {
            console.print(token.text)
        }
        return .success
    }
}
