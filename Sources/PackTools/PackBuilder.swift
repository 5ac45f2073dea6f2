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

        // The recordings are scanned while the record of the last build is read: neither needs the other.
        let force = request.force
        let (scan, (fingerprint, record)) = ParallelWork.both(jobs: request.jobs) {
            SourceScanner(paths: paths).scan()
        } _: {
            (BuildRecord.fingerprint(settings, paths: paths), force ? nil : BuildRecord.load(paths))
        }
        outcome.skipped = scan.skipped
        outcome.failures += scan.problems

        // Nothing moved since the last successful build: nothing to do, and the manifest need not be read.
        if scan.problems.isEmpty, let record, record.matches(settings: fingerprint, sources: scan.sources, paths: paths)
        {
            outcome.unchanged = record.entries.count
            outcome.warnings = coverageWarnings(
                Set(record.entries.map { Token($0.token) }), settings: settings, paths: paths)
            return outcome
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
        let manifestFolder = paths.manifest.deletingLastPathComponent().path

        // Decide, per token, whether its fragment can stay as it is: carried over as its text when the
        // record says neither its source nor its output moved; otherwise kept when the source's digest and
        // the output's are what the last manifest says.
        struct Work: Sendable {
            let token: Token
            let source: SourceFile
            let sourceSHA256: String
            let fileName: String
        }
        var work: [Work] = []
        var entries: [NewEntry] = []
        var toCheck: [(token: Token, source: SourceFile)] = []
        // In the sources' order (by path); the manifest's order is made at the end. Each is a stat and a few
        // lookups: a pack of thousands is looked at in two halves at once when there are two jobs.
        let openManifestFolder = OpenFolder(manifestFolder)
        let unique = named.filter { sourcesByToken[$0.token]!.count == 1 }
        let carried = ParallelWork.mapInHalves(unique, jobs: request.jobs, minimum: 1000) {
            previous.carried($0.token, source: $0.source, manifestFolder: openManifestFolder)
        }
        for ((token, source), carried) in zip(unique, carried) {
            if let carried {
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
            let fileName =
                source.stem.precomposedStringWithCanonicalMapping + "." + settings.format.container.fileExtension
            let output = paths.out.appendingPathComponent(fileName)
            if let old = previous.fragment(token), old.source.sha256 == sha, old.source.file == source.path,
                old.file == paths.manifestRelative(output), let status = FileStatus.of(output.path),
                (try? cache.sha256(of: output, path: old.file, status: status)) == old.sha256
            {
                entries.append(NewEntry(old))
                outcome.unchanged += 1
            } else {
                work.append(Work(token: token, source: source, sourceSHA256: sha, fileName: fileName))
            }
        }

        // The audio work, in parallel, into the staging folder.
        var moves: [String] = []
        if !work.isEmpty {
            let staging = try transaction.prepareStaging()
            let pipeline = FragmentPipeline(settings: settings)
            let work = work
            let finished = Counter()
            let progress = request.progress
            let results = ParallelWork.map(count: work.count, jobs: request.jobs) {
                index -> Result<(FragmentReport, String), AudioError> in
                let item = work[index]
                let staged = staging.appendingPathComponent(item.fileName).path
                let result = Result { () throws(AudioError) -> (FragmentReport, String) in
                    let report = try pipeline.process(
                        sourcePath: item.source.url.path, name: paths.display(item.source.url), outputPath: staged,
                        ditherSeed: item.fileName)
                    guard let sha = try? SHA256.hex(ofFileAt: staged) else {
                        throw AudioError(file: staged, problem: "cannot be read back", fix: "check the free disk space")
                    }
                    return (report, sha)
                }
                progress?(finished.increment(), work.count, paths.display(item.source.url))
                return result
            }
            for (item, result) in zip(work, results) {
                switch result {
                case .failure(let error):
                    outcome.failures.append(Diagnostic(.error, error.file, "audio", error.problem, fix: error.fix))
                case .success(let (report, sha)):
                    let output = paths.out.appendingPathComponent(item.fileName)
                    entries.append(
                        NewEntry(
                            FragmentRecord.make(
                                token: item.token.text, file: paths.manifestRelative(output), sha256: sha,
                                source: item.source, sourceSHA256: item.sourceSHA256, report: report,
                                settings: settings)))
                    moves.append(item.fileName)
                    outcome.built.append(item.token.text)
                }
            }
        }

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
        if moves.isEmpty && removals.isEmpty && sameManifest() {
            transaction.discardStaging()
        } else {
            try transaction.commit(moves: moves, removals: removals, manifest: manifest)
            outcome.manifestWritten = true
        }
        // Each output is looked at once, for the hash cache and for the record of this build (a carried one
        // was looked at when it was carried, and the commit left it alone).
        let sourceByPath = Dictionary(scan.sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var recorded: [BuildRecord.Entry] = []
        for entry in entries {
            guard let output = entry.outputStatus ?? openManifestFolder.status(entry.file) else {
                continue
            }
            if usesCache, let sha256 = entry.sha256 {
                let cached = BuildCache.Entry(size: output.size, modified: output.modified, sha256: sha256)
                if cache.files[entry.file] != cached { cache.files[entry.file] = cached }
            }
            guard let source = sourceByPath[entry.sourceFile] else { continue }
            recorded.append(
                BuildRecord.Entry(
                    token: entry.token, source: entry.sourceFile, sourceSize: source.status.size,
                    sourceModified: source.status.modified, output: entry.file, outputSize: output.size,
                    outputModified: output.modified))
        }
        if usesCache { cache.save(to: paths) }
        if let written = FileStatus.of(paths.manifest.path) {
            BuildRecord(
                settings: fingerprint, manifestSize: written.size, manifestModified: written.modified,
                entries: recorded
            )
            .save(paths)
        }
        outcome.warnings = coverageWarnings(
            Set(entries.map { Token($0.token) }), settings: settings, paths: paths, naming: naming)
        return outcome
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
