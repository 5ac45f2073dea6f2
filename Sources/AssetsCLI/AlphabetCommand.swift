import SpeechText

/// `assets alphabet`: every token the enabled styles and forms can say, one a line.
public struct AlphabetOptions: Equatable, Sendable {
    public var styles: [ReadingStyle] = ReadingStyle.allCases
    public var forms: [AmountForm] = AmountForm.allCases

    static let help = """
        usage: assets alphabet [--styles LIST] [--forms LIST]

        Prints the union of the alphabets of the given styles and forms, one token a line, sorted:
        exactly the tokens the speech converter can emit for some amount up to 9999亿.

          --styles LIST    comma-separated: spoken, formatter, formatter-hant, financial, all (default)
          --forms LIST     comma-separated: yuan, decimal, all (default)
        """

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> AlphabetOptions {
        var options = AlphabetOptions()
        while let item = try reader.next() {
            switch item {
            case .option("--styles"):
                options.styles = try ReadingStyle.parseList(try reader.value(of: "--styles"), command: .alphabet)
            case .option("--forms"):
                options.forms = try AmountForm.parseList(try reader.value(of: "--forms"), command: .alphabet)
            case .option(let name):
                throw reader.unknown(name, known: ["--styles", "--forms"])
            case .positional(let text):
                throw UsageError(.alphabet, "unexpected argument '\(text)'")
            }
        }
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
