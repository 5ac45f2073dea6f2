import CommandKit
import Foundation
import PackManifest
import PackReports
import PackTools
import VoicePack

/// `assets diff`: what a refresh of recordings changed, against a git revision or another copy of the pack.
public struct DiffOptions: Equatable, Sendable {
    public var pack = PackOptions()
    public var base = "HEAD"
    public var format: OutputFormat = .text
    public var output: String?

    static let table = OptionTable<DiffOptions>(
        command: .diff, arguments: "[BASE]",
        about: """
            Compares the pack as it is built (its manifest.json and normalized/) with BASE: what `assets check`
            finds from each side's manifest, and the findings the change brings and clears; the fragments added,
            removed and changed, by token, each change with the figures that moved (its recording, length, gain,
            heard loudness, true peak, voice) and whether the new recording is the same take exported again; the
            recordings left as they were whose match with the voice moved, since the rest changed around them;
            the manifest's settings that changed; and the amounts the audit plays that say a changed token,
            spliced from both. A diff is a report: it exits 0 when it was made (`assets check` is the gate).
            """,
        argumentHelp: [
            (
                "BASE",
                "a git revision of the repository that holds the pack (default: HEAD), read with\ngit without touching the work tree, or a folder with another copy of the pack"
            )
        ],
        options: Option.pack(\.pack) + [
            Option(
                "--format", value: "F",
                """
                text (default), markdown (for a pull request or $GITHUB_STEP_SUMMARY), json,
                html (with --output: players and waveforms before and after, the sounds written
                in <name>-sounds/ beside the page), or github (an annotation for each finding the
                change brings, and none for those the base had already)
                """
            ) { options, text throws(UsageError) in
                options.format = try OutputFormat.parse(
                    text, allowed: [.text, .json, .markdown, .html, .github], command: .diff)
            },
            Option("--output", "-o", value: "FILE", "write the report to FILE instead of stdout") { $0.output = $1 },
        ])

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> DiffOptions {
        var options = DiffOptions()
        var named = false
        try table.parse(&reader, into: &options) { options, text throws(UsageError) in
            guard !named else { throw UsageError(.diff, "unexpected argument '\(text)': give one BASE") }
            options.base = text
            named = true
        }
        if options.format == .html && options.output == nil {
            throw UsageError(.diff, "--format html needs --output FILE: its sounds are written beside it")
        }
        return options
    }
}

enum DiffCommand {
    static func run(
        _ options: DiffOptions, console: Console, currentFolder: URL, environment: [String: String]
    ) throws(UsageError) -> ExitStatus {
        let (settings, paths) = try options.pack.load(command: .diff, currentFolder: currentFolder)
        let configURL = options.pack.configURL(currentFolder: currentFolder)
        let settingsFile = FileManager.default.fileExists(atPath: configURL.path) ? configURL : nil
        let diff: PackDiff
        do {
            let base = try PackBase.open(
                options.base, paths: paths, settingsFile: settingsFile, currentFolder: currentFolder)
            diff = try PackDiff.make(paths: paths, settings: settings, base: base)
        } catch {
            console.printError("assets diff: \(error)")
            return .usageError
        }
        let outputURL = options.output.map { PackPaths.resolve($0, against: currentFolder) }
        var sounds = DiffSounds()
        if let outputURL, options.format == .html {
            do {
                sounds = try DiffSounds.write(diff, container: settings.format.container, besides: outputURL)
            } catch {
                console.printError("assets diff: \(error)")
                return .problemsFound
            }
        }
        let text: String
        switch options.format {
        case .json: text = DiffReport.json(diff, sounds: sounds)
        case .markdown: text = DiffReport.markdown(diff)
        case .html: text = DiffReport.html(diff, sounds: sounds)
        case .github:
            text = DiffReport.github(
                diff, annotations: CheckAnnotations(paths: paths, settingsFile: settingsFile),
                repository: PackPaths.repository(from: currentFolder, environment: environment))
        default: text = DiffReport.text(diff)
        }
        let written = AssetsCLI.deliver(
            text, to: options.output, currentFolder: currentFolder, command: .diff, console: console)
        return written ? .success : .problemsFound
    }
}
