import CommandKit
import Foundation
import PackTools
import SpeechText

/// `assets alphabet`: every token the given styles and forms can say, one a line; with `--to-record`, what
/// a voice talent reads to record the pack.
public struct AlphabetOptions: Equatable, Sendable {
    /// Nil: every style and form, or with `--to-record` the pack's settings'.
    public var styles: [ReadingStyle]?
    public var forms: [AmountForm]?
    public var toRecord = false
    public var missingOnly = false
    public var pack = PackOptions()

    static let table = OptionTable<AlphabetOptions>(
        command: .alphabet,
        about: """
            Prints the union of the alphabets of the given styles and forms, one token a line, sorted:
            exactly the tokens the speech converter can emit for some amount up to 9999亿. With
            --to-record, the list a voice talent reads to record the pack, for `assets split --expect @FILE`
            (the styles and forms the pack's settings enable, unless given).
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
            Option(
                flag: "--to-record",
                "what the pack needs recorded, by its assets.json (styles, forms, maximumAmount,\ntemplates; a token with an alias left to the one it names), in reading order:\nzero, digits, units, point, money words (零 一 … 九 两 十 … 亿 点 元 角 分 整), phrases"
            ) { $0.toRecord = true },
            Option(flag: "--missing", "--to-record, leaving out what a recording in the raw folder serves already") {
                ($0.toRecord, $0.missingOnly) = (true, true)
            },
        ] + Option.pack(\.pack, only: ["--raw", "--config"]))

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> AlphabetOptions {
        var options = AlphabetOptions()
        try table.parse(&reader, into: &options, positional: table.noArguments)
        return options
    }
}

enum AlphabetCommand {
    static func run(_ options: AlphabetOptions, console: Console, currentFolder: URL) throws(UsageError)
        -> ExitStatus
    {
        let (styles, forms) = (options.styles ?? ReadingStyle.allCases, options.forms ?? AmountForm.allCases)
        var tokens = SpeechConverter.inReadingOrder(SpeechConverter.alphabet(styles: styles, forms: forms))
        if options.toRecord {
            var (settings, paths) = try options.pack.load(command: .alphabet, currentFolder: currentFolder)
            (settings.styles, settings.forms) = (options.styles ?? settings.styles, options.forms ?? settings.forms)
            tokens = RecordingList.tokens(settings: settings, paths: paths, missingOnly: options.missingOnly)
            if tokens.isEmpty { console.printError("assets alphabet: every token the pack needs has a recording") }
        }
        for token in tokens { console.print(token.text) }
        return .success
    }
}
