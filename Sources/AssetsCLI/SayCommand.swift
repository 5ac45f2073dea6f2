import Checksum
import Foundation
import PackManifest
import PackTools
import SpeechText
import Splicer
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
    /// Why `say` stopped: the message, and the exit status it means.
    struct Stop: Error {
        let status: ExitStatus
        let message: String
    }

    static func run(_ options: SayOptions, console: Console, currentFolder: URL) -> ExitStatus {
        do {
            show(try say(options, currentFolder: currentFolder), options: options, console: console)
            return .success
        } catch {
            console.printError(error.message)
            return error.status
        }
    }

    static func say(_ options: SayOptions, currentFolder: URL) throws(Stop) -> Said {
        let settings: Settings
        let paths: PackPaths
        do {
            (settings, paths) = try options.pack.load(command: .say, currentFolder: currentFolder)
        } catch {
            throw Stop(status: .usageError, message: error.description)
        }
        if let bound = settings.maximumAmount, options.amount > bound {
            throw Stop(
                status: .usageError,
                message:
                    "assets say: \(options.amount.plain) is more than the app says: maximumAmount in assets.json is \(bound.plain); say a smaller amount, or raise maximumAmount"
            )
        }
        let style = options.style ?? settings.styles.first ?? .spoken
        let form = options.form ?? settings.forms.first ?? .yuan
        let reading = SpeechConverter(style: style, form: form).reading(of: options.amount)
        let lock = try openPack(options, paths: paths)
        defer { withExtendedLifetime(lock) {} }
        var (text, tokens) = (reading.text, reading.tokens)
        if let name = options.template {
            switch templated(reading, name: name, settings: settings, pack: lock.pack) {
            case .success(let result): (text, tokens) = result
            case .failure(let problem): throw Stop(status: .usageError, message: "assets say: \(problem.message)")
            }
        }
        var said = Said(style: style, form: form, text: text, tokens: tokens, durationMs: nil, written: nil)
        if let pack = lock.pack {
            (said.durationMs, said.written) = try splice(
                tokens, from: pack, settings: settings, options: options, currentFolder: currentFolder)
        }
        return said
    }

    /// The pack, read under its lock, when there is one (or `-o` needs one); nil pack without a manifest.
    static func openPack(_ options: SayOptions, paths: PackPaths) throws(Stop) -> (pack: SoundPack?, lock: PackLock?) {
        let hasPack = FileManager.default.fileExists(atPath: paths.manifest.path)
        if !hasPack, let manifest = options.pack.manifest {
            throw Stop(
                status: .problemsFound,
                message: "assets say: \(manifest): no such manifest: run `assets build` first, or leave out --manifest")
        }
        let lock = hasPack ? try? PackReading.open(paths) : nil
        guard hasPack || options.output != nil else { return (nil, lock) }
        do {
            return (try SoundPack(manifestAt: paths.manifest, digest: { SHA256.hex(of: $0) }), lock)
        } catch {
            throw Stop(
                status: .problemsFound, message: "assets say: \(paths.display(paths.manifest)): \(error.message)")
        }
    }

    /// The spliced sound's length, and where `-o` wrote it.
    static func splice(
        _ tokens: [Token], from pack: SoundPack, settings: Settings, options: SayOptions, currentFolder: URL
    ) throws(Stop) -> (durationMs: Double, written: String?) {
        let splicer = Splicer(pack: pack, gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs)
        do {
            let durationMs = splicer.durationMs(frames: try splicer.frames(for: tokens))
            guard let output = options.output else { return (durationMs, nil) }
            let written = try write(
                splicer.splice(tokens), splicer: splicer, to: output, options: options, currentFolder: currentFolder)
            return (durationMs, written)
        } catch let error as SpliceError {
            throw Stop(status: .problemsFound, message: "assets say: \(error.description)")
        } catch {
            throw Stop(
                status: .problemsFound,
                message: "assets say: \(options.output ?? ""): cannot be written (\(error.localizedDescription))")
        }
    }

    struct TemplateProblem: Error {
        let message: String
    }

    /// The reading inside template `name` (from the settings, else the manifest): its text and tokens.
    static func templated(_ reading: Reading, name: String, settings: Settings, pack: SoundPack?) -> Result<
        (text: String, tokens: [Token]), TemplateProblem
    > {
        let templates = (pack?.manifest.templates ?? [:]).merging(settings.templates) { _, fromSettings in
            fromSettings
        }
        guard let pattern = templates[name] else {
            let known = templates.keys.sorted()
            let hint =
                known.isEmpty ? "add \"templates\" to assets.json" : "use one of \(known.joined(separator: ", "))"
            return .failure(TemplateProblem(message: "unknown template '\(name)': \(hint)"))
        }
        let template = Template(name: name, text: pattern)
        let phrases = Set(settings.phrases.values).union(
            pack?.manifest.fragments.map(\.token).filter { $0.count > 1 } ?? [])
        return .success((template.text(around: reading), template.tokens(around: reading, phrases: phrases)))
    }

    /// What `say` found for the amount: in which style and form, the text, the tokens, and the sound.
    struct Said {
        let style: ReadingStyle
        let form: AmountForm
        let text: String
        let tokens: [Token]
        var durationMs: Double?
        var written: String?
    }

    /// The reading as text (text, tokens, length, file written) or as JSON.
    static func show(_ said: Said, options: SayOptions, console: Console) {
        let (text, tokens, durationMs, written) = (said.text, said.tokens, said.durationMs, said.written)
        switch options.format {
        case .json:
            console.print(
                CanonicalJSON.string(
                    SayOutput(
                        amount: options.amount.description, style: said.style.name, form: said.form.name,
                        template: options.template, text: text, tokens: tokens.map(\.text),
                        durationMs: durationMs.map { ($0 * 100).rounded() / 100 }, file: written)))
        default:
            console.print(text)
            console.print(tokens.map(\.text).joined(separator: " "))
            if let durationMs { console.print(String(format: "%.0f ms", durationMs)) }
            if let written { console.print("wrote \(written)") }
        }
    }

    private static func write(
        _ sound: PCMAudio, splicer: Splicer, to output: String, options: SayOptions, currentFolder: URL
    ) throws -> String {
        let target = PackPaths.resolve(output, against: currentFolder)
        var url = target
        var container = Container(rawValue: target.pathExtension.lowercased()) ?? splicer.pack.manifest.format.container
        if options.nameByContent {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            container = splicer.pack.manifest.format.container
            let data = splicer.fileData(sound, container: container)
            url = target.appendingPathComponent(
                Splicer.contentName(of: data, digest: { SHA256.hex(of: $0) }, extension: container.fileExtension))
            try data.write(to: url, options: .atomic)
        } else {
            try splicer.fileData(sound, container: container).write(to: url, options: .atomic)
        }
        return options.nameByContent ? (output as NSString).appendingPathComponent(url.lastPathComponent) : output
    }
}

private struct SayOutput: Encodable {
    let amount: String
    let style: String
    let form: String
    let template: String?
    let text: String
    let tokens: [String]
    let durationMs: Double?
    let file: String?
}
