import AudioPipeline
import Checksum
import Foundation
import SpeechText
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
    public var built: [String] = []
    public var unchanged = 0
    public var removed: [String] = []
    public var skipped: [String] = []
    public var failures: [Diagnostic] = []
    public var warnings: [Diagnostic] = []
    public var manifestWritten = false
    public var finishedInterruptedCommit = false
}

/// A build that cannot start: a wrong path or setting (exit status 2).
public struct BuildSetupError: Error, CustomStringConvertible {
    public let description: String
}

/// `assets build`: raw recordings in, a uniform fragment set and its manifest out, changed all at once.
public enum PackBuilder {
    public static func build(_ request: BuildRequest) throws -> BuildOutcome {
        let paths = request.paths
        let settings = request.settings
        if paths.manifestRelative(paths.out).hasPrefix("..") {
            throw BuildSetupError(
                description:
                    "\(paths.display(paths.out)): the output folder must be inside the manifest's folder (\(paths.display(paths.manifest.deletingLastPathComponent()))), so the manifest can point at its fragments"
            )
        }
        let lock: PackLock
        do {
            lock = try PackLock(paths: paths, mode: .exclusive, waiting: request.waiting)
        } catch {
            throw BuildSetupError(
                description:
                    "\(paths.display(paths.state)): cannot create the pack's lock (\(error.localizedDescription))")
        }
        defer { withExtendedLifetime(lock) {} }

        var outcome = BuildOutcome()
        let transaction = PackTransaction(paths: paths)
        outcome.finishedInterruptedCommit = try transaction.recover()

        // The recordings are scanned while the record of the last build is read and the outputs it lists
        // are looked at: neither needs the other, and each is a stat per fragment.
        let force = request.force
        let manifestFolder = OpenFolder(paths.manifest.deletingLastPathComponent().path)
        let (scan, (fingerprint, record)) = ParallelWork.both(jobs: request.jobs) {
            SourceScanner(paths: paths).scan()
        } _: {
            (
                BuildRecord.fingerprint(settings, paths: paths),
                force ? nil : BuildRecord.load(paths).map { RecordedBuild($0, manifestFolder: manifestFolder) }
            )
        }
        outcome.skipped = scan.skipped
        outcome.failures += scan.problems

        // Nothing moved since the last successful build: nothing to do, and the manifest need not be read.
        let moved = record?.moved(scan.sources) ?? scan.sources
        if scan.problems.isEmpty, let record, moved.isEmpty,
            record.matches(settings: fingerprint, sourceCount: scan.sources.count, paths: paths)
        {
            outcome.unchanged = record.record.entries.count
            outcome.warnings = coverageWarnings(
                Set(record.record.entries.map { Token($0.token) }), settings: settings, paths: paths)
            return outcome
        }

        // A few recordings moved since the last build: their audio work starts now (see `HeadStart`).
        let pipeline = FragmentPipeline(settings: settings)
        var staging: URL? = nil
        var headStart: HeadStart? = nil
        defer { headStart?.wait() }
        if request.jobs > 1, record != nil, scan.problems.isEmpty, !moved.isEmpty, moved.count <= request.jobs {
            let jobs = moved.map { FragmentJob(source: $0, settings: settings) }
            if Set(jobs.map(\.fileName)).count == jobs.count, let folder = try? transaction.prepareStaging() {
                staging = folder
                headStart = HeadStart(jobs, pipeline: pipeline, staging: folder, paths: paths)
            }
        }

        // Every source is named (a file that names no token, or two files for one token, fail the build)
        // while the last manifest is read.
        let ((naming, sourcesByToken, named), previous) = ParallelWork.both(jobs: request.jobs) {
            let naming = Naming(settings: settings)
            var sourcesByToken: [Token: [SourceFile]] = [:]
            var named: [(token: Token, source: SourceFile)] = []
            named.reserveCapacity(scan.sources.count)
            for source in scan.sources {
                guard let token = naming.token(forStem: source.stem) else {
                    outcome.failures.append(
                        Diagnostic(
                            .error, paths.display(source.url), "naming", "'\(source.stem)' names no token",
                            fix:
                                "rename it to a default stem (digit_1, unit_yuan…) or to the token itself (億.wav), or map it under \"stems\" or \"phrases\" in assets.json"
                        ))
                    continue
                }
                sourcesByToken[token, default: []].append(source)
                named.append((token, source))
            }
            for (token, sources) in sourcesByToken where sources.count > 1 {
                outcome.failures.append(
                    Diagnostic(
                        .error, sources.map { paths.display($0.url) }.joined(separator: ", "), "naming",
                        "\(sources.count) files for the token \(token)", fix: "keep one of them and remove the others"))
            }
            return (naming, sourcesByToken, named)
        } _: {
            PreviousPack.load(paths: paths, settings: settings, fingerprint: fingerprint, record: record, force: force)
        }
        // The hash cache is read (and written back) only when the manifest had to be decoded: a recorded
        // build hashes just the few files that moved.
        let usesCache = !previous.isRecorded
        var cache = usesCache ? BuildCache.load(from: paths) : BuildCache()

        // Decide, per token, whether its fragment can stay as it is: carried over as its text when the
        // record says neither its source nor its output moved; otherwise kept when the source's digest and
        // the output's are what the last manifest says.
        struct Work: Sendable {
            let token: Token
            let job: FragmentJob
            let sourceSHA256: String
        }
        var work: [Work] = []
        var entries: [NewEntry] = []
        var toCheck: [(token: Token, source: SourceFile)] = []
        // In the sources' order (by path); the manifest's order is made at the end.
        for (token, source) in named where sourcesByToken[token]!.count == 1 {
            if let carried = previous.carried(token, source: source) {
                entries.append(carried)
                outcome.unchanged += 1
            } else {
                toCheck.append((token, source))
            }
        }
        let digests = cache.digests(
            of: toCheck.map { ($0.source.url, $0.source.path, $0.source.status) }, jobs: request.jobs)
        for ((token, source), digest) in zip(toCheck, digests) {
            let sha: String
            switch digest {
            case .success(let value):
                sha = value
            case .failure(let error):
                outcome.failures.append(
                    Diagnostic(
                        .error, paths.display(source.url), "audio", "cannot be read (\(SourceScanner.reason(error)))",
                        fix: "make it readable"))
                continue
            }
            let job = FragmentJob(source: source, settings: settings)
            let output = paths.out.appendingPathComponent(job.fileName)
            if let old = previous.fragment(token), old.source.sha256 == sha, old.source.file == source.path,
                old.file == paths.manifestRelative(output), let status = manifestFolder.status(old.file),
                (try? cache.sha256(of: output, path: old.file, status: status)) == old.sha256
            {
                entries.append(NewEntry(old, outputStatus: status))
                outcome.unchanged += 1
            } else {
                work.append(Work(token: token, job: job, sourceSHA256: sha))
            }
        }

        // The audio work, in parallel, into the staging folder; what was started early is waited for.
        var moves: [String] = []
        if !work.isEmpty {
            let staging = try staging ?? transaction.prepareStaging()
            let work = work
            let finished = Counter()
            let progress = request.progress
            let early = headStart
            let results = ParallelWork.map(count: work.count, jobs: request.jobs) {
                index -> Result<FragmentJob.Done, AudioError> in
                let job = work[index].job
                let result = early?.result(for: job) ?? job.run(pipeline, staging: staging, paths: paths)
                progress?(finished.increment(), work.count, paths.display(job.source.url))
                return result
            }
            for (item, result) in zip(work, results) {
                switch result {
                case .failure(let error):
                    outcome.failures.append(Diagnostic(.error, error.file, "audio", error.problem, fix: error.fix))
                case .success(let done):
                    let output = paths.out.appendingPathComponent(item.job.fileName)
                    entries.append(
                        NewEntry(
                            FragmentRecord.make(
                                token: item.token.text, file: paths.manifestRelative(output), sha256: done.sha256,
                                source: item.job.source, sourceSHA256: item.sourceSHA256, report: done.report,
                                settings: settings), outputStatus: done.status))
                    moves.append(item.job.fileName)
                    outcome.built.append(item.token.text)
                }
            }
        }
        headStart?.wait()

        guard outcome.failures.isEmpty else {
            transaction.discardStaging()
            if usesCache { cache.save(to: paths) }
            outcome.built = []
            return outcome
        }

        entries = entries.sorted(inScalarOrderOf: \.token)
        let header = Manifest(
            format: settings.format, loudness: Manifest.LoudnessTarget(settings.loudness),
            processing: Manifest.Processing(settings), styles: settings.styles.map(\.name),
            forms: settings.forms.map(\.name),
            aliases: Dictionary(uniqueKeysWithValues: settings.aliases.map { ($0.key.text, $0.value.text) }),
            templates: settings.templates, fragments: [])
        let manifest = Manifest.canonicalData(header: header, fragmentTexts: entries.map(\.text))
        let kept = Set(entries.map(\.file))
        let removals = previous.files.filter { !kept.contains($0) }.compactMap { file -> String? in
            let url = paths.resolveManifestPath(file)
            // Only files directly in the output folder that an earlier build wrote.
            return url.deletingLastPathComponent().path == paths.out.path ? url.lastPathComponent : nil
        }
        outcome.removed = removals
        // The manifests are compared only when no file moved: a build that moved one need not read megabytes.
        func sameManifest() -> Bool {
            manifest.count == previous.data.count
                && manifest.withUnsafeBytes { new in
                    previous.data.withUnsafeBytes { old in
                        old.isEmpty || memcmp(new.baseAddress!, old.baseAddress!, old.count) == 0
                    }
                }
        }
        let changesPack = !(moves.isEmpty && removals.isEmpty && sameManifest())
        // The record of this build and the coverage warnings are made while the commit writes the manifest
        // and waits for the disk. Each output's status is known by now, so nothing here looks at a file the
        // commit moves.
        let sources = scan.sources
        let finalEntries = entries
        let (committed, (recordLines, warnings)) = ParallelWork.both(jobs: request.jobs) {
            Result { () throws -> Void in
                if changesPack {
                    try transaction.commit(moves: moves, removals: removals, manifest: manifest)
                } else {
                    transaction.discardStaging()
                }
            }
        } _: {
            (
                BuildRecord.lines(for: recordEntries(finalEntries, sources: sources)),
                coverageWarnings(
                    Set(finalEntries.map { Token($0.token) }), settings: settings, paths: paths, naming: naming)
            )
        }
        try committed.get()
        outcome.manifestWritten = changesPack
        if usesCache {
            for entry in entries {
                guard let sha256 = entry.sha256, let output = entry.outputStatus else { continue }
                let cached = BuildCache.Entry(size: output.size, modified: output.modified, sha256: sha256)
                if cache.files[entry.file] != cached { cache.files[entry.file] = cached }
            }
            cache.save(to: paths)
        }
        if let written = FileStatus.of(paths.manifest.path) {
            BuildRecord.save(
                settings: fingerprint, manifestSize: written.size, manifestModified: written.modified,
                lines: recordLines, to: paths)
        }
        outcome.warnings = warnings
        return outcome
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
                sourceModified: source.status.modified, output: entry.file, outputSize: output.size,
                outputModified: output.modified)
        }
    }

    /// A warning for each token the enabled styles, forms and templates need that no fragment serves.
    /// `naming` is the build's own, when it made one; one is made only when a token is missing.
    static func coverageWarnings(
        _ available: Set<Token>, settings: Settings, paths: PackPaths, naming: Naming? = nil
    ) -> [Diagnostic] {
        let missing = Coverage(settings: settings).missing(from: available)
        if missing.isEmpty { return [] }
        let naming = naming ?? Naming(settings: settings)
        return missing.map { need in
            Diagnostic(
                .warning, need.token.text, "coverage",
                "no fragment (needed by \(need.neededBy.joined(separator: ", ")))",
                fix:
                    "add \(paths.display(paths.raw))/\(naming.stem(for: need.token)).wav, or an alias in assets.json; `assets check` lists every miss"
            )
        }
    }
}
