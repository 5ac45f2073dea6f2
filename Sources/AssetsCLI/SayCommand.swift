import CommandKit
import Foundation
import PackManifest
import PackReports
import PackTools
import SpeechText
import VoicePack

/// `assets say AMOUNT`: the text, the tokens and — with a pack — the spliced sound of an amount.
public struct SayOptions: Equatable, Sendable {
    public var amount: Amount
    /// Nil: the first the pack's settings enable (the converter's spoken and yuan when they name none).
    public var style: ReadingStyle?
    public var form: AmountForm?
    public var template: String?
    public var pack = PackOptions()
    public var output: String?
    public var nameByContent = false
    public var format: OutputFormat = .text

    static let table = OptionTable<SayOptions>(
        command: .say, arguments: "AMOUNT",
        about: """
            Prints what the speech converter says for AMOUNT: the text on the first line, the tokens (one
            fragment each), space-separated, on the second, and — when there is a built pack — how long the
            spliced sound lasts on the third. With -o, writes the spliced sound.
            """,
        argumentHelp: [
            (
                "AMOUNT",
                "1234.56, ¥1,234.56, ￥88, 88元; digits past 分 are cut, never rounded; no more\nthan maximumAmount in assets.json"
            )
        ],
        options: [
            Option(
                "--style", value: "S",
                "spoken, formatter, formatter-hant, financial (default: the first the pack's\nsettings enable, else spoken)"
            ) { options, text throws(UsageError) in options.style = try ReadingStyle.parse(text, command: .say) },
            Option(
                "--form", value: "F",
                "yuan (一百元五角) or decimal (一百点五元) (default: the first the pack's settings\nenable, else yuan)"
            ) { options, text throws(UsageError) in options.form = try AmountForm.parse(text, command: .say) },
            Option("--template", value: "T", "a template from assets.json or the manifest, e.g. wechat: 微信收款，{amount}")
            {
                $0.template = $1
            },
            Option(
                "-o", "--output", value: "FILE",
                "write the spliced sound: .wav, .caf or .aiff, in the manifest's sample format"
            ) {
                $0.output = $1
            },
            Option(
                flag: "--name-by-content",
                "-o names a folder; the file is named by its content's SHA-256, because iOS\ncaches notification sounds by file name"
            ) { $0.nameByContent = true },
            Option("--format", value: "F", "text (default) or json ({\"text\", \"tokens\", \"durationMs\", …})") {
                options, text throws(UsageError) in
                options.format = try OutputFormat.parse(text, allowed: [.text, .json], command: .say)
            },
        ] + Option.pack(\.pack, only: ["--manifest", "--config"]))

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> SayOptions {
        var amountText: String?
        var options = SayOptions(amount: Amount(fen: 0)!)
        try table.parse(&reader, into: &options) { _, text throws(UsageError) in
            guard amountText == nil else { throw UsageError(.say, "one amount at a time; '\(text)' is a second") }
            amountText = text
        }
        guard let amountText else { throw UsageError(.say, "give an amount, such as 'assets say 1234.56'") }
        do {
            options.amount = try Amount(parsing: amountText)
        } catch {
            throw UsageError(.say, error.description)
        }
        if options.nameByContent && options.output == nil {
            throw UsageError(.say, "--name-by-content names the file in the folder given by -o; give -o FOLDER")
        }
        return options
    }
}

enum SayCommand {
    static func run(_ options: SayOptions, console: Console, currentFolder: URL) throws(UsageError) -> ExitStatus {
        let (settings, paths) = try options.pack.load(command: .say, currentFolder: currentFolder)
        let request = SayRequest(
            amount: options.amount, style: options.style, form: options.form, template: options.template,
            output: options.output.map { (PackPaths.resolve($0, against: currentFolder), $0) },
            nameByContent: options.nameByContent, manifestName: options.pack.manifest)
        do {
            show(try AmountSaying.say(request, paths: paths, settings: settings), options: options, console: console)
            return .success
        } catch {
            console.printError("assets say: \(error.message)")
            return error.isUsage ? .usageError : .problemsFound
        }
    }

    static func show(_ said: SaidAmount, options: SayOptions, console: Console) {
        switch options.format {
        case .json:
            console.writeOut(SayReport.json(said, amount: options.amount.description, template: options.template))
        default: console.writeOut(SayReport.text(said))
        }
    }
}
