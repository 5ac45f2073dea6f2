import CommandKit
import Foundation
import PackReports
import PackTools
import VoicePack

/// `assets split`: one recording session in, one file per token out.
public struct SplitOptions: Equatable, Sendable {
    public var session = ""
    /// `--expect`: tokens or stems, space-separated, or `@file` with one per line.
    public var expect: String?
    public var labels: String?
    /// `--raw` and `--config`.
    public var pack = PackOptions()
    public var labelsOut: String?
    /// Nil: the splitter's default (`SplitRequest.defaults`), as are the others.
    public var take: SplitRequest.Take?
    public var minimumPauseMs: Double?
    public var marginBeforeMs: Double?
    public var marginAfterMs: Double?
    public var dryRun = false
    public var force = false

    static let table = OptionTable<SplitOptions>(
        command: .split, arguments: "SESSION (--expect LIST | --labels FILE)",
        about: """
            Cuts a recording session — the list read in one take — into one recording per token in the raw
            folder, each holding the session's own samples (same rate, channels and sample format; no gain, no
            resampling: `assets build` does the processing). WAV, or FLAC when the session is FLAC. Writes nothing
            when anything is wrong.
            """,
        options: [
            Option(
                "--expect", value: "LIST",
                """
                the tokens or stems in the order read, space-separated ("零 一 二 … 元"), or
                @FILE with one a line; one may come again (a retake). The utterances are found
                as `build` finds sound: a pause is silence of at least --min-pause-ms
                """
            ) { $0.expect = $1 },
            Option(
                "--labels", value: "FILE",
                "an Audacity label track: each label a token or a stem; a range is cut exactly as\nset, a point label takes the utterance it stands in"
            ) { $0.labels = $1 },
            Option(
                "--labels-out", value: "FILE",
                "also write the takes as Audacity labels (even when the count is wrong), to\nreview in Audacity and split again with --labels"
            ) { $0.labelsOut = $1 },
            Option(
                "--take", value: "first|last",
                "which take of a token read twice to keep (default: \(SplitRequest.defaults.take.rawValue))"
            ) { options, text throws(UsageError) in
                guard let take = SplitRequest.Take(rawValue: text) else {
                    throw UsageError(.split, "--take is first or last, not '\(text)'")
                }
                options.take = take
            },
            Option(
                "--min-pause-ms", value: "N",
                "the shortest silence that ends an utterance (default: \(Int(SplitRequest.defaults.minimumPauseMs)))"
            ) {
                options, text throws(UsageError) in
                guard let value = Double(text), value >= 20, value <= 10_000 else {
                    throw UsageError(.split, "--min-pause-ms takes milliseconds from 20 to 10000, not '\(text)'")
                }
                options.minimumPauseMs = value
            },
            Option(
                "--margin-ms", value: "B[,A]",
                "kept before and after each utterance, never into a neighbour (default: "
                    + "\(Int(SplitRequest.defaults.marginBeforeMs)),\(Int(SplitRequest.defaults.marginAfterMs)))"
            ) {
                options, text throws(UsageError) in
                let parts = text.split(separator: ",").map { Double($0) }
                guard (1...2).contains(parts.count), parts.allSatisfy({ $0.map { $0 >= 0 && $0 <= 2000 } == true })
                else {
                    throw UsageError(
                        .split, "--margin-ms takes BEFORE or BEFORE,AFTER in ms (0 to 2000), not '\(text)'")
                }
                (options.marginBeforeMs, options.marginAfterMs) = (parts[0]!, parts.count > 1 ? parts[1]! : parts[0]!)
            },
            Option(flag: "--dry-run", "print the plan and write nothing") { $0.dryRun = true },
            Option(flag: "--force", "replace recordings of the same tokens already in the raw folder") {
                $0.force = true
            },
        ] + Option.pack(\.pack, only: ["--raw", "--config"]))

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> SplitOptions {
        var options = SplitOptions()
        var positionals: [String] = []
        try table.parse(&reader, into: &options) { _, text in positionals.append(text) }
        guard positionals.count == 1 else {
            throw UsageError(
                .split, positionals.isEmpty ? "give the session to split" : "give one session, not \(positionals.count)"
            )
        }
        options.session = positionals[0]
        guard (options.expect == nil) != (options.labels == nil) else {
            throw UsageError(.split, "give either --expect LIST or --labels FILE")
        }
        return options
    }
}

enum SplitCommand {
    static func run(_ options: SplitOptions, console: Console, currentFolder: URL) throws(UsageError) -> ExitStatus {
        let (settings, paths) = try options.pack.load(command: .split, currentFolder: currentFolder)
        let source = try Self.source(options, currentFolder: currentFolder)
        var request = SplitRequest(
            session: PackPaths.resolve(options.session, against: currentFolder), sessionName: options.session,
            raw: paths.raw, settings: settings, source: source)
        if let take = options.take { request.take = take }
        if let pause = options.minimumPauseMs { request.minimumPauseMs = pause }
        if let before = options.marginBeforeMs { request.marginBeforeMs = before }
        if let after = options.marginAfterMs { request.marginAfterMs = after }
        request.force = options.force
        let rawName = paths.display(paths.raw)

        let plan: SplitPlan
        do {
            plan = try SessionSplitter.plan(request) { fraction in
                if console.isInteractive {
                    console.writeError(
                        "\rsplit: reading \(options.session) " + String(format: "%3.0f%%", fraction * 100))
                    if fraction >= 1 { console.writeError("\n") }
                }
            }
        } catch {
            if let labels = error.labels, let out = options.labelsOut {
                Self.writeLabels(labels, out, currentFolder, console)
            }
            console.printError("assets split: \(options.session): \(error)")
            return .problemsFound
        }
        if let out = options.labelsOut { Self.writeLabels(plan.labels, out, currentFolder, console) }
        if options.dryRun {
            SplitReport.plan(plan, rawName: rawName).forEach(console.print)
            console.print("would " + SplitReport.summary(plan, session: options.session, rawName: rawName))
            return .success
        }
        do {
            try SessionSplitter.write(plan, request)
        } catch {
            console.printError("assets split: \(error)")
            return .problemsFound
        }
        console.print(SplitReport.summary(plan, session: options.session, rawName: rawName))
        return .success
    }

    /// The list or the labels, read into what the splitter takes.
    static func source(_ options: SplitOptions, currentFolder: URL) throws(UsageError) -> SplitRequest.Source {
        do throws(SplitError) {
            return try SplitRequest.Source.read(expect: options.expect, labels: options.labels, folder: currentFolder)
        } catch {
            throw UsageError(.split, error.description)
        }
    }

    static func writeLabels(_ labels: [AudacityLabel], _ name: String, _ folder: URL, _ console: Console) {
        do {
            try Data(AudacityLabel.text(labels).utf8).write(
                to: PackPaths.resolve(name, against: folder), options: .atomic)
            console.printError("assets split: wrote \(labels.count) labels to \(name)")
        } catch {
            console.printError("assets split: \(name): cannot be written (\(error.localizedDescription))")
        }
    }
}
