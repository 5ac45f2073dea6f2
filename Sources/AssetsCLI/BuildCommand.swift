import Foundation
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
            Turns the recordings into fragments — 44.1 kHz mono, trimmed, at the target loudness — and writes
            the manifest. Only changed recordings are processed again. If any recording fails, every failure is
            listed, nothing in the pack changes, and the exit status is 1.
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
    static func run(_ options: BuildOptions, console: Console, currentFolder: URL) -> ExitStatus {
        let settings: Settings
        let paths: PackPaths
        do {
            (settings, paths) = try options.pack.load(command: .build, currentFolder: currentFolder)
        } catch {
            console.printError(error.description)
            return .usageError
        }
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
        if outcome.finishedInterruptedCommit {
            console.printError("assets build: finished the commit of an interrupted build first")
        }
        for diagnostic in outcome.failures + outcome.warnings { console.printError(diagnostic.description) }
        guard outcome.failures.isEmpty else {
            console.printError(
                "assets build: \(outcome.failures.count) problem\(outcome.failures.count == 1 ? "" : "s"); "
                    + "\(paths.display(paths.out)) and \(paths.display(paths.manifest)) are unchanged")
            return .problemsFound
        }
        var summary = "built \(outcome.built.count), unchanged \(outcome.unchanged)"
        if !outcome.removed.isEmpty { summary += ", removed \(outcome.removed.count)" }
        summary +=
            outcome.manifestWritten
            ? ": wrote \(paths.display(paths.manifest))" : ": \(paths.display(paths.manifest)) is up to date"
        console.print("\(summary) (\(String(format: "%.2f s", seconds)))")
        if let change = outcome.packGainChange { console.print(change) }
        return .success
    }
}

/// One line of progress on a terminal, rewritten in place.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let lock = NSLock()
    private var shown = false

    init(console: Console) { self.console = console }

    func show(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        console.writeError("\r\u{1B}[K" + text)
        shown = true
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if shown { console.writeError("\r\u{1B}[K") }
        shown = false
    }
}
