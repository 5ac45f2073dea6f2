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

        let scan = SourceScanner(paths: paths).scan()
        outcome.skipped = scan.skipped
        outcome.failures += scan.problems

        // Nothing moved since the last successful build: nothing to do, and the manifest need not be read.
        let fingerprint = BuildRecord.fingerprint(settings, paths: paths)
        if !request.force, scan.problems.isEmpty, let record = BuildRecord.load(paths),
            record.matches(settings: fingerprint, sources: scan.sources, paths: paths)
        {
            outcome.unchanged = record.entries.count
            outcome.warnings = coverageWarnings(
                Set(record.entries.map { Token($0.token) }), settings: settings, paths: paths)
            return outcome
        }

        // Name every source; a file that names no token, or two files for one token, fail the build.
        let naming = Naming(settings: settings)
        var sourcesByToken: [Token: [SourceFile]] = [:]
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
        }
        for (token, sources) in sourcesByToken where sources.count > 1 {
            outcome.failures.append(
                Diagnostic(
                    .error, sources.map { paths.display($0.url) }.joined(separator: ", "), "naming",
                    "\(sources.count) files for the token \(token)", fix: "keep one of them and remove the others"))
        }

        var cache = BuildCache.load(from: paths)
        let previous = try? Manifest.decode(Data(contentsOf: paths.manifest), name: paths.display(paths.manifest))
        let processing = Manifest.Processing(settings)
        let loudness = Manifest.LoudnessTarget(
            targetLUFS: settings.loudness.targetLUFS, truePeakCeilingDBTP: settings.loudness.truePeakCeilingDBTP)
        let compatible =
            previous.map {
                !request.force && $0.format == settings.format && $0.processing == processing
                    && $0.loudness.targetLUFS == loudness.targetLUFS
                    && $0.loudness.truePeakCeilingDBTP == loudness.truePeakCeilingDBTP
            } ?? false
        let previousByToken = Dictionary(
            (previous?.fragments ?? []).map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first })

        // Decide, per token, whether its fragment can stay as it is.
        struct Work: Sendable {
            let token: Token
            let source: SourceFile
            let sourceSHA256: String
            let fileName: String
        }
        var work: [Work] = []
        var fragments: [Manifest.Fragment] = []
        let named = sourcesByToken.keys.sorted().filter { sourcesByToken[$0]!.count == 1 }
        let digests = cache.digests(
            of: named.map { sourcesByToken[$0]![0] }.map { ($0.url, $0.path, $0.status) }, jobs: request.jobs)
        for (token, digest) in zip(named, digests) {
            let source = sourcesByToken[token]![0]
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
            if compatible, let old = previousByToken[token.text], old.source.sha256 == sha,
                old.source.file == source.path,
                old.file == paths.manifestRelative(output), let status = FileStatus.of(output.path),
                (try? cache.sha256(of: output, path: old.file, status: status)) == old.sha256
            {
                fragments.append(old)
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
                    fragments.append(
                        FragmentRecord.make(
                            token: item.token.text, file: paths.manifestRelative(output), sha256: sha,
                            source: item.source,
                            sourceSHA256: item.sourceSHA256, report: report, settings: settings))
                    moves.append(item.fileName)
                    outcome.built.append(item.token.text)
                }
            }
        }

        guard outcome.failures.isEmpty else {
            transaction.discardStaging()
            cache.save(to: paths)
            outcome.built = []
            return outcome
        }

        let manifest = Manifest(
            format: settings.format, loudness: loudness, processing: processing, styles: settings.styles.map(\.name),
            forms: settings.forms.map(\.name),
            aliases: Dictionary(uniqueKeysWithValues: settings.aliases.map { ($0.key.text, $0.value.text) }),
            templates: settings.templates, fragments: fragments)
        let kept = Set(manifest.fragments.map(\.file))
        let removals = (previous?.fragments ?? []).map(\.file).filter { !kept.contains($0) }.compactMap {
            file -> String? in
            let url = paths.resolveManifestPath(file)
            // Only files directly in the output folder that an earlier build wrote.
            return url.deletingLastPathComponent().path == paths.out.path ? url.lastPathComponent : nil
        }
        outcome.removed = removals
        // Rendering the manifest is most of a no-op build's work, so values are compared first: a manifest
        // that decodes to the same value is left as it is.
        if moves.isEmpty && removals.isEmpty && manifest == previous {
            transaction.discardStaging()
        } else {
            try transaction.commit(moves: moves, removals: removals, manifest: manifest.canonicalData())
            outcome.manifestWritten = true
        }
        // Each output is looked at once, for the hash cache and for the record of this build.
        let sourceByPath = Dictionary(scan.sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [BuildRecord.Entry] = []
        for fragment in manifest.fragments {
            guard let output = FileStatus.of(paths.resolveManifestPath(fragment.file).path) else { continue }
            let entry = BuildCache.Entry(size: output.size, modified: output.modified, sha256: fragment.sha256)
            if cache.files[fragment.file] != entry { cache.files[fragment.file] = entry }
            guard let source = sourceByPath[fragment.source.file] else { continue }
            entries.append(
                BuildRecord.Entry(
                    token: fragment.token, source: fragment.source.file, sourceSize: source.status.size,
                    sourceModified: source.status.modified, output: fragment.file, outputSize: output.size,
                    outputModified: output.modified))
        }
        cache.save(to: paths)
        if let written = FileStatus.of(paths.manifest.path) {
            BuildRecord(
                settings: fingerprint, manifestSize: written.size, manifestModified: written.modified, entries: entries
            )
            .save(paths)
        }
        outcome.warnings = coverageWarnings(
            Set(manifest.fragments.map { Token($0.token) }), settings: settings, paths: paths)
        return outcome
    }

    /// A warning for each token the enabled styles, forms and templates need that no fragment serves.
    static func coverageWarnings(_ available: Set<Token>, settings: Settings, paths: PackPaths) -> [Diagnostic] {
        let naming = Naming(settings: settings)
        return Coverage(settings: settings).missing(from: available).map { need in
            Diagnostic(
                .warning, need.token.text, "coverage",
                "no fragment (needed by \(need.neededBy.joined(separator: ", ")))",
                fix:
                    "add \(paths.display(paths.raw))/\(naming.stem(for: need.token)).wav, or an alias in assets.json; `assets check` lists every miss"
            )
        }
    }
}
