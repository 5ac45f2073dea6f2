import CommandKit
import Foundation
import PackManifest
import PackReports
import PackTools
import SpeechText
import VoicePack

/// `assets check`: fail (exit 1) on a missing, stale or mismatched fragment.
public struct CheckOptions: Equatable, Sendable {
    public var pack = PackOptions()
    public var styles: [ReadingStyle]?
    public var forms: [AmountForm]?
    public var format: OutputFormat = .text

    static let table = OptionTable<CheckOptions>(
        command: .check,
        about: """
            Finds every problem of the pack without rebuilding it, lists all of them, and exits 1 if there is
            any; 0 with a one-line summary when the pack is fine. It checks coverage (every token of the enabled
            styles, forms and templates has a fragment or an alias), the manifest against its files (bytes,
            frames, format), the manifest against the recordings (changed, new, removed), naming, sound
            (loudness, true peak, length; a recording's voice cut, a sound apart from it, noise that is heard, a
            wrong header, clipping), consistency (a recording whose voice, tone, vowel, band, noise or pace does
            not match the rest), and the longest utterance against iOS's 30 s limit. The summary counts the
            findings by category and kind (`sound/cut 16`), as JSON names them.
            """,
        options: Option.pack(\.pack) + [
            Option("--styles", value: "LIST", "the styles to cover (default: \"styles\" in assets.json, else all)") {
                options, text throws(UsageError) in
                options.styles = try ReadingStyle.parseList(text, command: .check)
            },
            Option("--forms", value: "LIST", "the forms to cover (default: \"forms\" in assets.json, else all)") {
                options, text throws(UsageError) in
                options.forms = try AmountForm.parseList(text, command: .check)
            },
            Option(
                "--format", value: "F",
                """
                text (default: a line per finding), json, junit (a test case per check),
                xcode (`/absolute/path: error: message`, for a Run Script build phase), or
                github (`::error file=…,title=…::message` workflow commands, paths relative to
                $GITHUB_WORKSPACE or the git repository, for annotations on a pull request)
                """
            ) { options, text throws(UsageError) in
                options.format = try OutputFormat.parse(
                    text, allowed: [.text, .json, .junit, .xcode, .github], command: .check)
            },
        ])

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> CheckOptions {
        var options = CheckOptions()
        try table.parse(&reader, into: &options, positional: table.noArguments)
        return options
    }
}

enum CheckCommand {
    static func run(
        _ options: CheckOptions, console: Console, currentFolder: URL, environment: [String: String]
    ) throws(UsageError) -> ExitStatus {
        let (settings, paths) = try options.pack.load(command: .check, currentFolder: currentFolder)
        let coverFor = (options.styles ?? settings.styles, options.forms ?? settings.forms)
        let report = PackChecker.check(paths: paths, settings: settings, coverFor: coverFor)
        let configURL = options.pack.configURL(currentFolder: currentFolder)
        let annotations = CheckAnnotations(
            paths: paths, settingsFile: FileManager.default.fileExists(atPath: configURL.path) ? configURL : nil)
        switch options.format {
        case .json: console.writeOut(CheckRendering.json(report))
        case .junit: console.writeOut(CheckRendering.junit(report))
        case .xcode: console.writeOut(CheckRendering.xcode(report, settings: settings, annotations: annotations))
        case .github:
            let repository = PackPaths.repository(from: currentFolder, environment: environment)
            console.writeOut(
                CheckRendering.github(report, settings: settings, annotations: annotations, in: repository))
        default: console.writeOut(CheckRendering.text(report, settings: settings))
        }
        return report.passed ? .success : .problemsFound
    }
}
