import Checksum
import CommandKit
import Foundation
import PackManifest
import PackReports
import PackTools
import SpeechText
import Splicer
import VoicePack

/// `assets audit`: the report a sound designer reads after a build.
public struct AuditOptions: Equatable, Sendable {
    public var pack = PackOptions()
    public var format: OutputFormat = .text
    public var output: String?

    static let table = OptionTable<AuditOptions>(
        command: .audit,
        about: """
            Reports, for each fragment, its recording and format, its length before and after trimming, what
            was trimmed, how loud it is heard and its loudness before and after, the gain, the true peak, the
            limiting, the channel decision and warnings; each fragment's voice (pitch, register, band, noise,
            pace) beside the pack's; the coverage of every style, form and template; the amounts the pack will
            say, spliced, with their loudness and joins (their sounds written beside the report with --output);
            the longest utterance; and every finding of `assets check`. Exits 1 when check finds a problem.
            """,
        options: Option.pack(\.pack) + [
            Option(
                "--format", value: "F",
                """
                text (default: aligned tables), markdown, json, or html (one self-contained page
                with a waveform of each recording showing the cuts and a player for each fragment)
                """
            ) { options, text throws(UsageError) in
                options.format = try OutputFormat.parse(
                    text, allowed: [.text, .json, .markdown, .html], command: .audit)
            },
            Option(
                "--output", "-o", value: "FILE",
                "write the report to FILE instead of stdout (the html's players link relative to it)"
            ) {
                $0.output = $1
            },
        ])

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> AuditOptions {
        var options = AuditOptions()
        try table.parse(&reader, into: &options, positional: table.noArguments)
        return options
    }
}

enum AuditCommand {
    static func run(_ options: AuditOptions, console: Console, currentFolder: URL) throws(UsageError) -> ExitStatus {
        let (settings, paths) = try options.pack.load(command: .audit, currentFolder: currentFolder)
        let report = PackAuditor.audit(paths: paths, settings: settings, pictures: options.format == .html)
        let outputURL = options.output.map { PackPaths.resolve($0, against: currentFolder) }
        // The utterances' sounds go beside the report, in a folder named after it (audit.html → audit-sounds/).
        var sounds: [Int: String] = [:]
        if let outputURL {
            do {
                sounds = try AuditSounds.write(report, settings: settings, besides: outputURL)
            } catch {
                console.printError("assets audit: \(error)")
                return .problemsFound
            }
        }
        let text: String
        switch options.format {
        case .json: text = AuditText.json(report, sounds: sounds)
        case .markdown: text = AuditText.markdown(report, settings: settings, sounds: sounds)
        case .html:
            let base = (outputURL?.deletingLastPathComponent() ?? currentFolder).standardizedFileURL
            text = AuditHTML.render(report, settings: settings, sounds: sounds) { file in
                PackPaths.relative(paths.resolveManifestPath(file).path, to: base.path)
            }
        default: text = AuditText.table(report, settings: settings, sounds: sounds)
        }
        guard
            AssetsCLI.deliver(text, to: options.output, currentFolder: currentFolder, command: .audit, console: console)
        else { return .problemsFound }
        return report.check.passed ? .success : .problemsFound
    }
}
