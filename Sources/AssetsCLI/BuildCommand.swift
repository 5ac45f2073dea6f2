import CommandKit
import Foundation
import PackReports
import PackTools
import VoicePack

/// `assets build`: raw-audio/ → normalized/ and manifest.json.
public struct BuildOptions: Equatable, Sendable {
    public var pack = PackOptions()
    public var jobs: Int?
    public var force = false

    static let table = OptionTable<BuildOptions>(
        command: .build,
        about: """
            Turns the recordings into fragments — 44.1 kHz mono, trimmed, heard equally loud (ISO 532-1), the
            pack's level set so that its spliced amounts measure the target — and writes the manifest, printing
            what it heard wrong with a recording as warnings. Only changed recordings are processed again. If any
            recording fails, every failure is listed, nothing in the pack changes, and the exit status is 1.
            """,
        options: Option.pack(\.pack) + [
            Option("--jobs", value: "N", "fragments processed at once (default: the number of cores)") {
                options, text throws(UsageError) in
                guard let jobs = Int(text), jobs >= 1, jobs <= 256 else {
                    throw UsageError(.build, "--jobs takes a whole number from 1 to 256, not '\(text)'")
                }
                options.jobs = jobs
            },
            Option(flag: "--force", "process every recording again") { $0.force = true },
        ])

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> BuildOptions {
        var options = BuildOptions()
        try table.parse(&reader, into: &options, positional: table.noArguments)
        return options
    }
}

enum BuildCommand {
    static func run(_ options: BuildOptions, console: Console, currentFolder: URL) throws(UsageError) -> ExitStatus {
        let (settings, paths) = try options.pack.load(command: .build, currentFolder: currentFolder)
        let progress = ProgressLine(console: console)
        let showProgress: @Sendable (Int, Int, String) -> Void = { done, total, name in
            progress.show("[\(done)/\(total)] \(name)")
        }
        let announceWaiting: @Sendable () -> Void = {
            console.printError("assets build: another build is running on this pack; waiting for it to finish")
        }
        let request = BuildRequest(
            paths: paths, settings: settings, jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            force: options.force, progress: console.isInteractive ? showProgress : nil, waiting: announceWaiting)
        let started = Date()
        let interruption = Interruption { signal in
            progress.clear()
            let pack = "\(paths.display(paths.out)) and \(paths.display(paths.manifest))"
            console.printError(
                PackTransaction(paths: paths).abandon()
                    ? "assets build: interrupted; \(pack) are as they were"
                    : "assets build: interrupted once its commit had begun; \(pack) are the new pack")
            exit(128 + signal)
        }
        defer { withExtendedLifetime(interruption) {} }
        let outcome: BuildOutcome
        do {
            outcome = try PackBuilder.build(request)
        } catch let error as BuildSetupError {
            console.printError("assets build: \(error.description)")
            return .usageError
        } catch {
            console.printError("assets build: \(error.localizedDescription)")
            return .problemsFound
        }
        progress.clear()
        return report(outcome, paths: paths, seconds: Date().timeIntervalSince(started), console: console)
    }

    /// What the build did: each failure and warning on stderr, then the one-line summary on stdout.
    static func report(_ outcome: BuildOutcome, paths: PackPaths, seconds: Double, console: Console) -> ExitStatus {
        BuildReport.diagnostics(outcome, paths: paths).forEach(console.printError)
        guard outcome.failures.isEmpty else { return .problemsFound }
        BuildReport.summary(outcome, paths: paths, seconds: seconds).forEach(console.print)
        return .success
    }
}
