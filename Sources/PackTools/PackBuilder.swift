import AudioPipeline
import Checksum
import Foundation
import PackManifest
import SpeechText
import Splicer
import VoicePack

/// What `assets build` was asked to do.
public struct BuildRequest: Sendable {
    public var paths: PackPaths
    public var settings: Settings
    public var jobs: Int
    public var force: Bool
    /// Called as fragments finish: (done, to do, the source just done).
    public var progress: (@Sendable (Int, Int, String) -> Void)?
    /// Called once if another process holds the pack's lock, before waiting for it.
    public var waiting: @Sendable () -> Void

    public init(
        paths: PackPaths, settings: Settings, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        force: Bool = false, progress: (@Sendable (Int, Int, String) -> Void)? = nil,
        waiting: @escaping @Sendable () -> Void = {}
    ) {
        self.paths = paths
        self.settings = settings
        self.jobs = jobs
        self.force = force
        self.progress = progress
        self.waiting = waiting
    }
}

/// What a build did. When `failures` is not empty, nothing in the pack changed.
public struct BuildOutcome: Sendable {
    /// Tokens whose fragments this build made.
    public var built: [String] = []
    /// Recordings that went through the audio pipeline (decoded), built or failed.
    public var processed = 0
    public var unchanged = 0
    public var removed: [String] = []
    public var skipped: [String] = []
    public var failures: [Diagnostic] = []
    public var warnings: [Diagnostic] = []
    public var manifestWritten = false
    public var finishedInterruptedCommit = false
    /// Set when the pack's spliced amounts called for another pack gain, and every fragment was built again.
    public var packGainChange: String?
    /// Recordings' stems that name no token but whose names read as one (`tts_yuan`: 元), for a "stems" mapping.
    public var stemsReadFromNames: [String: Token] = [:]
}

/// A build that cannot start: a wrong path or setting (exit status 2).
public struct BuildSetupError: Error, CustomStringConvertible {
    public let description: String
}

/// `assets build`: raw recordings in, a uniform fragment set and its manifest out, changed all at once.
///
///     scan → plan → process → assemble → commit
///
/// The scan finds the recordings and reads the record of the last build; when nothing moved since, the
/// build stops there. The plan names each recording's token and decides, fragment by fragment, whether the
/// last build's fragment can stay; processing builds the others into the staging folder; assembling makes
/// the new manifest and the list of files to remove; the commit puts it all in place at once. Before the
/// commit, the staged pack's splices are measured (`PackCalibration`): when they call for another pack gain,
/// the pass runs again at it, so whatever a build does, the pack changes once or not at all.
public enum PackBuilder {
    public static func build(_ request: BuildRequest) throws -> BuildOutcome {
        let lock = try lockPack(request)
        defer { withExtendedLifetime(lock) {} }
        // The pack keeps the gain its last build measured; a build that made fragments measures it again, and a
        // first build forecasts it from the recordings before it makes any.
        var request = request
        let recorded = PackCalibration.recordedGain(manifestAt: request.paths.manifest)
        request.settings.loudness.packGainDB = recorded ?? 0
        let prepared = PreparedRecordings()
        var pass = try stage(request, prepared: prepared, forecastGain: recorded == nil)
        request.settings.loudness.packGainDB = pass.settings.loudness.packGainDB
        var previous: PackCalibration?
        // A new gain rebuilds every fragment, before anything is put in place: a pass that fails leaves the pack
        // as it was. A second correction, if the first fell a step short, uses the slope the first one showed
        // (heard loudness does not follow the gain dB for dB).
        for _ in 0..<PackCalibration.maximumCorrections {
            guard let assembled = pass.assembled, !pass.outcome.built.isEmpty,
                case let playable = assembled.playableAmounts(request.settings), !playable.isEmpty,
                let staged = assembled.stagedPack(paths: request.paths),
                let calibration = PackCalibration(
                    staged, playable: playable, settings: request.settings, jobs: request.jobs, after: previous),
                calibration.gainDB != calibration.builtGainDB
            else { break }
            request.force = true
            request.settings.loudness.packGainDB = calibration.gainDB
            let earlier = pass.outcome
            let said = (earlier.packGainChange.map { [$0] } ?? []) + [calibration.said]
            pass = try stage(request, prepared: prepared)
            pass.outcome.processed += earlier.processed
            pass.outcome.finishedInterruptedCommit = earlier.finishedInterruptedCommit
            pass.outcome.packGainChange = said.joined(separator: "; then ")
            previous = calibration
        }
        return try land(pass)
    }

    /// A pass up to its commit: what it found and built into the staging folder, and the pack it would make
    /// (none when it stops before a commit: nothing moved since the last build, or a failure).
    struct Pass {
        var outcome: BuildOutcome
        let settings: Settings
        let scan: Scan
        let transaction: PackTransaction
        let assembled: Assembled?
        let naming: Naming?
    }

    /// One pass up to the commit: scan, plan, process, assemble, under the lock `build` holds. `prepared` keeps
    /// what the pass prepares for the next, and gives what an earlier one prepared. With `forecastGain`, a pass
    /// that builds every fragment builds them at the gain `PackGainForecast` finds.
    static func stage(_ request: BuildRequest, prepared: PreparedRecordings, forecastGain: Bool = false) throws -> Pass
    {
        var request = request
        let paths = request.paths
        var outcome = BuildOutcome()
        let transaction = PackTransaction(paths: paths)
        outcome.finishedInterruptedCommit = try transaction.recover()

        let scan = Scan(request)
        func pass(_ assembled: Assembled?, naming: Naming?) -> Pass {
            Pass(
                outcome: outcome, settings: request.settings, scan: scan, transaction: transaction,
                assembled: assembled, naming: naming)
        }
        outcome.skipped = scan.skipped
        outcome.failures += scan.problems
        if !request.force, scan.problems.isEmpty, let unchanged = scan.unchangedSinceRecord() {
            outcome.unchanged = unchanged.count
            outcome.warnings = coverageWarnings(Set(unchanged), settings: request.settings, paths: paths)
            return pass(nil, naming: nil)
        }
        let plan = Plan(scan, request: request, outcome: &outcome)
        if forecastGain, plan.kept.isEmpty,
            let forecast = PackGainForecast(
                plan.work, settings: request.settings, prepared: prepared, paths: paths, jobs: request.jobs)
        {
            request.settings.loudness.packGainDB = forecast.calibration.gainDB
            outcome.packGainChange = forecast.said
        }
        var entries = plan.kept
        var moves: [String] = []
        if !plan.work.isEmpty {
            let staging = try transaction.prepareStaging()
            (entries, moves) = process(
                plan.work, request: request, staging: staging, prepared: prepared, into: entries, outcome: &outcome)
        }
        guard outcome.failures.isEmpty else {
            transaction.discardStaging()
            outcome.built = []
            return pass(nil, naming: plan.naming)
        }
        let assembled = Assembled(
            entries, previous: plan.previous, moves: moves, settings: request.settings, paths: paths)
        outcome.removed = assembled.removals
        return pass(assembled, naming: plan.naming)
    }

    /// Puts the pass's pack in place, when it made one, and says which tokens it still lacks.
    static func land(_ pass: Pass) throws -> BuildOutcome {
        guard let assembled = pass.assembled else { return pass.outcome }
        var outcome = pass.outcome
        try commit(assembled, scan: pass.scan, transaction: pass.transaction, outcome: &outcome)
        outcome.warnings += coverageWarnings(
            Set(assembled.entries.map { Token($0.token) }), settings: pass.settings, paths: pass.scan.paths,
            naming: pass.naming)
        return outcome
    }

    /// The pack's lock, held for the whole build; a second build waits for it.
    static func lockPack(_ request: BuildRequest) throws -> PackLock {
        let paths = request.paths
        if paths.manifestRelative(paths.out).hasPrefix("..") {
            throw BuildSetupError(
                description:
                    "\(paths.display(paths.out)): the output folder must be inside the manifest's folder (\(paths.display(paths.manifest.deletingLastPathComponent()))), so the manifest can point at its fragments"
            )
        }
        do {
            return try PackLock(paths: paths, mode: .exclusive, waiting: request.waiting)
        } catch {
            throw BuildSetupError(
                description:
                    "\(paths.display(paths.state)): cannot create the pack's lock (\(error.localizedDescription))")
        }
    }

    /// The recordings as they are now, and the record of the last build beside them.
    struct Scan {
        let paths: PackPaths
        let sources: [SourceFile]
        let skipped: [String]
        let problems: [Diagnostic]
        /// The digest of the settings the pack is built under (`BuildRecord.fingerprint`).
        let fingerprint: String
        let record: RecordedBuild?

        init(_ request: BuildRequest) {
            paths = request.paths
            (sources, skipped, problems) = SourceScanner(paths: paths).scan()
            fingerprint = BuildRecord.fingerprint(request.settings, paths: paths)
            let manifestFolder = paths.manifest.deletingLastPathComponent().path
            record = BuildRecord.load(paths).map { RecordedBuild($0, manifestFolder: manifestFolder) }
        }

        /// The tokens of the pack when nothing moved since the last build — no recording, no output, not the
        /// manifest, not the settings — and nil otherwise.
        func unchangedSinceRecord() -> [Token]? {
            guard let record, record.moved(sources).isEmpty,
                record.matches(settings: fingerprint, sourceCount: sources.count, paths: paths)
            else { return nil }
            return record.record.entries.map { Token($0.token) }
        }
    }

    /// One fragment to build: its token, the job, and its recording's digest for the manifest.
    struct Work: Sendable {
        let token: Token
        let job: FragmentJob
        let sourceSHA256: String
    }

    /// Which fragments stay as the last build left them, and which are built.
    struct Plan {
        let naming: Naming
        let previous: PreviousPack
        /// Carried over as the last manifest's text, or kept after their digests were compared.
        private(set) var kept: [NewEntry] = []
        private(set) var work: [Work] = []

        /// A fragment is carried over as its text when the record says neither its recording nor its output
        /// moved; otherwise kept when the recording's digest and the output's are what the last manifest says
        /// (each read from the record when the file's size and time are as recorded, else by reading it).
        init(_ scan: Scan, request: BuildRequest, outcome: inout BuildOutcome) {
            let (paths, settings, force) = (request.paths, request.settings, request.force)
            naming = Naming(settings: settings)
            let named = NamedSources(scan.sources, naming: naming, paths: paths)
            outcome.failures += named.problems.map(\.diagnostic)
            outcome.stemsReadFromNames = named.readings
            previous = PreviousPack.load(
                paths: paths, settings: settings, fingerprint: scan.fingerprint, record: scan.record, force: force)
            var toCompare: [(token: Token, source: SourceFile)] = []
            for (token, source) in named.unique {
                if let carried = previous.carried(token, source: source) {
                    kept.append(carried)
                } else {
                    toCompare.append((token, source))
                }
            }
            let compared = toCompare
            let record = scan.record
            let digests = ParallelWork.map(count: compared.count, jobs: request.jobs) { index in
                let source = compared[index].source
                return record?.digest(of: source).map { Result.success($0) }
                    ?? Result { try SHA256.hex(ofFileAt: source.fullPath) }
            }
            for ((token, source), digest) in zip(compared, digests) {
                let sha: String
                switch digest {
                case .success(let value):
                    sha = value
                case .failure(let error):
                    outcome.failures.append(
                        Diagnostic(
                            .error, paths.subject(source.url), .audio, .unreadable,
                            "cannot be read (\(SourceScanner.reason(error)))",
                            fix: "make it readable"))
                    continue
                }
                let job = FragmentJob(source: source, token: token, settings: settings)
                if let kept = keptFragment(token, job: job, sourceSHA256: sha, record: scan.record, paths: paths) {
                    self.kept.append(kept)
                } else {
                    work.append(Work(token: token, job: job, sourceSHA256: sha))
                }
            }
            outcome.unchanged = kept.count
        }

        /// The last manifest's fragment for `token`, when it was built from these bytes into the file the
        /// job would write, and that file still holds what the manifest says.
        func keptFragment(
            _ token: Token, job: FragmentJob, sourceSHA256: String, record: RecordedBuild?, paths: PackPaths
        ) -> NewEntry? {
            let output = paths.out.appendingPathComponent(job.fileName)
            guard let old = previous.fragment(token), old.source.sha256 == sourceSHA256,
                old.source.file == job.source.path, old.file == paths.manifestRelative(output),
                let status = FileStatus.of(output.path)
            else { return nil }
            let digest =
                record?.digest(ofOutput: old.file, builtFrom: job.source, status: status)
                ?? (try? SHA256.hex(ofFileAt: output.path))
            return digest == old.sha256 ? NewEntry(old, outputStatus: status) : nil
        }
    }

    /// The audio work, `request.jobs` fragments at a time, into the staging folder: `entries` with the built
    /// fragments added, and the staged files to move into place.
    static func process(
        _ work: [Work], request: BuildRequest, staging: URL, prepared: PreparedRecordings, into entries: [NewEntry],
        outcome: inout BuildOutcome
    ) -> (entries: [NewEntry], moves: [String]) {
        let (paths, settings) = (request.paths, request.settings)
        let pipeline = FragmentPipeline(settings: settings)
        outcome.processed = work.count
        let finished = Counter()
        let progress = request.progress
        let results = ParallelWork.map(count: work.count, jobs: request.jobs) { index in
            let job = work[index].job
            let result = job.run(
                pipeline, staging: staging, paths: paths, sourceSHA256: work[index].sourceSHA256, prepared: prepared)
            progress?(finished.increment(), work.count, paths.display(job.source.url))
            return result
        }
        var entries = entries
        var moves: [String] = []
        for (item, result) in zip(work, results) {
            switch result {
            case .failure(let error):
                outcome.failures.append(
                    Diagnostic(
                        .error, .file(item.job.source.url, shown: error.file), .audio, .unreadable,
                        error.problem, fix: error.fix))
            case .success(let done):
                let output = paths.out.appendingPathComponent(item.job.fileName)
                let (fragment, warnings) = FragmentRecord.make(
                    token: item.token.text, file: paths.manifestRelative(output), sha256: done.sha256,
                    source: item.job.source, sourceSHA256: item.sourceSHA256, report: done.report, settings: settings)
                entries.append(NewEntry(fragment, outputStatus: done.status))
                moves.append(item.job.fileName)
                outcome.built.append(item.token.text)
                // What the manifest notes of a fragment is said once, when it is built.
                outcome.warnings += warnings.map {
                    Diagnostic(
                        .warning, paths.subject(manifestPath: fragment.source.file), .sound, $0.kind,
                        "\(fragment.token): \($0.text)", fix: "")
                }
            }
        }
        return (entries, moves)
    }

    /// The new manifest's bytes, in token order, and the files of the last build that no fragment keeps.
    struct Assembled {
        let entries: [NewEntry]
        let manifest: Data
        let moves: [String]
        let removals: [String]
        /// False when the build would write what is there already: no file to move in or remove, and the
        /// manifest's bytes the same.
        let changesPack: Bool

        init(_ entries: [NewEntry], previous: PreviousPack, moves: [String], settings: Settings, paths: PackPaths) {
            self.entries = entries.sorted { Token.inScalarOrder($0.token, $1.token) }
            manifest = Manifest.canonicalData(
                header: Manifest.header(settings), fragmentTexts: self.entries.map(\.text))
            self.moves = moves
            let kept = Set(entries.map(\.file))
            removals = previous.files.filter { !kept.contains($0) }.compactMap { file in
                let url = paths.resolveManifestPath(file)
                // Only files directly in the output folder that an earlier build wrote.
                return url.deletingLastPathComponent().path == paths.out.path ? url.lastPathComponent : nil
            }
            changesPack = !moves.isEmpty || !removals.isEmpty || manifest != Data(previous.data)
        }

        /// The amounts the audit plays that can be spliced from the pack, planned from its tokens: a pack of
        /// phrases alone has none to measure, and is not opened for it (reading the manifest of thousands of
        /// fragments costs more than the build of one).
        func playableAmounts(_ settings: Settings) -> [PlannedUtterance] {
            UtterancePlan.plan(settings: settings, available: Set(entries.map { Token($0.token) }), longest: nil)
                .filter(\.missing.isEmpty)
        }

        /// The pack as it will be once it is put in place, opened for splicing where it stands: the new
        /// manifest, the fragments built into the staging folder, the kept ones where they are.
        func stagedPack(paths: PackPaths) -> SoundPack? {
            let staged = Dictionary(
                moves.map {
                    (
                        paths.manifestRelative(paths.out.appendingPathComponent($0)),
                        paths.staging.appendingPathComponent($0)
                    )
                },
                uniquingKeysWith: { first, _ in first })
            return try? SoundPack(
                manifest: manifest, name: paths.display(paths.manifest),
                folder: paths.manifest.deletingLastPathComponent(),
                digest: { SHA256.hex(of: $0) }, staged: staged)
        }
    }

    /// Puts the new pack in place (or throws the staging folder away when nothing changed), then records
    /// what this build left for the next one.
    static func commit(
        _ assembled: Assembled, scan: Scan, transaction: PackTransaction, outcome: inout BuildOutcome
    ) throws {
        let paths = scan.paths
        if assembled.changesPack {
            try transaction.commit(moves: assembled.moves, removals: assembled.removals, manifest: assembled.manifest)
        } else {
            transaction.discardStaging()
        }
        outcome.manifestWritten = assembled.changesPack
        if let written = FileStatus.of(paths.manifest.path) {
            BuildRecord.save(
                settings: scan.fingerprint, manifestSize: written.size, manifestModified: written.modified,
                lines: BuildRecord.lines(for: recordEntries(assembled.entries, sources: scan.sources)), to: paths)
        }
    }

    /// What the record of this build says of each fragment: its source's status as scanned and its output's
    /// as last looked at. A fragment whose source is not among those scanned, or whose output could not be
    /// looked at, is left out, and the next build looks at it again.
    static func recordEntries(_ entries: [NewEntry], sources: [SourceFile]) -> [BuildRecord.Entry] {
        var sourceByPath: [String: SourceFile] = [:]
        sourceByPath.reserveCapacity(sources.count)
        for source in sources where sourceByPath[source.path] == nil { sourceByPath[source.path] = source }
        return entries.compactMap { entry in
            guard let output = entry.outputStatus, let source = sourceByPath[entry.sourceFile] else { return nil }
            return BuildRecord.Entry(
                token: entry.token, source: entry.sourceFile, sourceSize: source.status.size,
                sourceModified: source.status.modified, sourceInode: source.status.inode,
                sourceChanged: source.status.changed, sourceSHA256: entry.sourceSHA256, output: entry.file,
                outputSize: output.size, outputModified: output.modified, outputSHA256: entry.sha256)
        }
    }

    /// A warning for each token the enabled styles, forms and templates need that no fragment serves.
    /// `naming` is the build's own, when it made one; one is made only when a token is missing.
    static func coverageWarnings(
        _ available: Set<Token>, settings: Settings, paths: PackPaths, naming: Naming? = nil
    ) -> [Diagnostic] {
        let coverage = Coverage(settings: settings)
        let missing = coverage.missing(from: available)
        if missing.isEmpty { return [] }
        let naming = naming ?? Naming(settings: settings)
        return missing.map { need in
            Diagnostic(
                .warning, .token(need.token.text), .coverage, .missing,
                "no fragment (needed by \(need.neededBy.joined(separator: ", ")))",
                fix: PackChecker.coverageFix(
                    need.token, available: available, aliases: coverage.aliases, paths: paths, naming: naming)
                    + "; `assets check` lists every miss")
        }
    }
}
