import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// What `assets say` is asked: an amount, how to read it, and where to write its sound.
public struct SayRequest: Sendable {
    public var amount: Amount
    /// Nil: the first the pack's settings enable (the converter's spoken and yuan when they name none).
    public var style: ReadingStyle?
    public var form: AmountForm?
    public var template: String?
    /// Where to write the spliced sound, and how the user named it.
    public var output: (url: URL, name: String)?
    /// `output` is a folder; the file is named by its content.
    public var nameByContent: Bool
    /// The manifest as named on the command line: its absence is then an error, not a pack-less reading.
    public var manifestName: String?

    public init(
        amount: Amount, style: ReadingStyle?, form: AmountForm?, template: String?, output: (url: URL, name: String)?,
        nameByContent: Bool, manifestName: String?
    ) {
        self.amount = amount
        self.style = style
        self.form = form
        self.template = template
        self.output = output
        self.nameByContent = nameByContent
        self.manifestName = manifestName
    }
}

/// What `say` found for the amount: in which style and form, the text, the tokens, and the sound.
public struct SaidAmount: Sendable {
    public let style: ReadingStyle
    public let form: AmountForm
    public let text: String
    public let tokens: [Token]
    /// With a pack: how long the spliced sound lasts, and where it was written when asked.
    public var durationMs: Double?
    public var written: String?
}

/// Why `say` stopped: a request to refuse (exit 2) or a pack that could not say it (exit 1).
public struct SayError: Error, Sendable {
    public let isUsage: Bool
    public let message: String
}

/// `assets say`: an amount read in the pack's style and form, put in a template, spliced and written.
public enum AmountSaying {
    public static func say(_ request: SayRequest, paths: PackPaths, settings: Settings) throws(SayError) -> SaidAmount {
        if let bound = settings.maximumAmount, request.amount > bound {
            throw SayError(
                isUsage: true,
                message:
                    "\(request.amount.plain) is more than the app says: maximumAmount in assets.json is \(bound.plain); say a smaller amount, or raise maximumAmount"
            )
        }
        let style = request.style ?? settings.styles.first ?? .spoken
        let form = request.form ?? settings.forms.first ?? .yuan
        let reading = SpeechConverter(style: style, form: form).reading(of: request.amount)
        let lock = try openPack(request, paths: paths)
        defer { withExtendedLifetime(lock) {} }
        var (text, tokens) = (reading.text, reading.tokens)
        if let name = request.template {
            (text, tokens) = try templated(reading, name: name, settings: settings, pack: lock.pack)
        }
        var said = SaidAmount(style: style, form: form, text: text, tokens: tokens)
        if let pack = lock.pack {
            (said.durationMs, said.written) = try splice(tokens, from: pack, settings: settings, request: request)
        }
        return said
    }

    /// The pack, read under its lock, when there is one (or the output needs one); nil pack without a manifest.
    static func openPack(_ request: SayRequest, paths: PackPaths) throws(SayError) -> (
        pack: SoundPack?, lock: PackLock?
    ) {
        let hasPack = FileManager.default.fileExists(atPath: paths.manifest.path)
        if !hasPack, let name = request.manifestName {
            throw SayError(
                isUsage: false, message: "\(name): no such manifest: run `assets build` first, or leave out --manifest")
        }
        let lock = hasPack ? try? PackReading.open(paths) : nil
        guard hasPack || request.output != nil else { return (nil, lock) }
        do {
            return (try SoundPack(manifestAt: paths.manifest, digest: { SHA256.hex(of: $0) }), lock)
        } catch {
            throw SayError(isUsage: false, message: "\(paths.display(paths.manifest)): \(error.message)")
        }
    }

    /// The spliced sound's length, and where the output was written.
    static func splice(
        _ tokens: [Token], from pack: SoundPack, settings: Settings, request: SayRequest
    ) throws(SayError) -> (durationMs: Double, written: String?) {
        let splicer = Splicer(pack: pack, gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs)
        do {
            let durationMs = splicer.durationMs(frames: try splicer.frames(for: tokens))
            guard let output = request.output else { return (durationMs, nil) }
            let written = try write(
                splicer.splice(tokens), splicer: splicer, to: output, byContent: request.nameByContent)
            return (durationMs, written)
        } catch let error as SpliceError {
            throw SayError(isUsage: false, message: error.description)
        } catch {
            throw SayError(
                isUsage: false,
                message: "\(request.output?.name ?? ""): cannot be written (\(error.localizedDescription))")
        }
    }

    /// The reading inside template `name` (from the settings, else the manifest): its text and tokens.
    static func templated(
        _ reading: Reading, name: String, settings: Settings, pack: SoundPack?
    ) throws(SayError) -> (text: String, tokens: [Token]) {
        let templates = (pack?.manifest.templates ?? [:]).merging(settings.templates) { _, fromSettings in
            fromSettings
        }
        guard let pattern = templates[name] else {
            let known = templates.keys.sorted()
            let hint =
                known.isEmpty ? "add \"templates\" to assets.json" : "use one of \(known.joined(separator: ", "))"
            throw SayError(isUsage: true, message: "unknown template '\(name)': \(hint)")
        }
        let template = Template(name: name, text: pattern)
        let phrases = Set(settings.phrases.values).union(
            pack?.manifest.fragments.map(\.token).filter { $0.count > 1 } ?? [])
        return (template.text(around: reading), template.tokens(around: reading, phrases: phrases))
    }

    /// Writes the sound in the output's container (by its extension, else the manifest's), or, by content, in
    /// the folder it names; returns the path as the user would name it.
    static func write(_ sound: PCMAudio, splicer: Splicer, to output: (url: URL, name: String), byContent: Bool) throws
        -> String
    {
        let format = splicer.pack.manifest.format.container
        guard byContent else {
            let container = Container(rawValue: output.url.pathExtension.lowercased()) ?? format
            try splicer.fileData(sound, container: container).write(to: output.url, options: .atomic)
            return output.name
        }
        try FileManager.default.createDirectory(at: output.url, withIntermediateDirectories: true)
        let data = splicer.fileData(sound, container: format)
        let file = Splicer.contentName(of: data, digest: { SHA256.hex(of: $0) }, extension: format.fileExtension)
        try data.write(to: output.url.appendingPathComponent(file), options: .atomic)
        return (output.name as NSString).appendingPathComponent(file)
    }
}
