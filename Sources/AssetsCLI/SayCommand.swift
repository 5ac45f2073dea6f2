import Foundation
import SpeechText

/// `assets say AMOUNT`: the text and tokens one style and form say for an amount.
public struct SayOptions: Equatable, Sendable {
    public var amount: Amount
    public var style: ReadingStyle = .spoken
    public var form: AmountForm = .yuan
    public var format: OutputFormat = .text

    static let help = """
        usage: assets say AMOUNT [--style S] [--form F] [--format text|json]

        Prints what the speech converter says for AMOUNT: the text on the first line, the tokens
        (one fragment each), space-separated, on the second.

          AMOUNT           1234.56, ¥1,234.56, ￥88, 88元; digits past 分 are cut, never rounded
          --style S        spoken (default), formatter, formatter-hant, financial
          --form F         yuan (default: 一百元五角) or decimal (一百点五元)
          --format F       text (default) or json ({"text", "tokens", …})
        """

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> SayOptions {
        var amountText: String?
        var options = SayOptions(amount: Amount(fen: 0)!)
        while let item = try reader.next() {
            switch item {
            case .positional(let text):
                guard amountText == nil else { throw UsageError(.say, "one amount at a time; '\(text)' is a second") }
                amountText = text
            case .option("--style"):
                options.style = try ReadingStyle.parse(try reader.value(of: "--style"), command: .say)
            case .option("--form"):
                options.form = try AmountForm.parse(try reader.value(of: "--form"), command: .say)
            case .option("--format"):
                options.format = try OutputFormat.parse(
                    try reader.value(of: "--format"), allowed: [.text, .json], command: .say)
            case .option(let name):
                throw reader.unknown(name, known: ["--style", "--form", "--format"])
            }
        }
        guard let amountText else { throw UsageError(.say, "give an amount, such as 'assets say 1234.56'") }
        do {
            options.amount = try Amount(parsing: amountText)
        } catch {
            throw UsageError(.say, error.description)
        }
        return options
    }
}

enum SayCommand {
    static func run(_ options: SayOptions, console: Console) -> ExitStatus {
        let reading = SpeechConverter(style: options.style, form: options.form).reading(of: options.amount)
        switch options.format {
        case .json:
            let object = SayOutput(
                amount: options.amount.description, style: options.style.name, form: options.form.name,
                text: reading.text, tokens: reading.tokens.map(\.text))
            console.print(CanonicalJSON.string(object))
        default:
            console.print(reading.text)
            console.print(reading.tokens.map(\.text).joined(separator: " "))
        }
        return .success
    }
}

private struct SayOutput: Encodable {
    let amount: String
    let style: String
    let form: String
    let text: String
    let tokens: [String]
}
