import AudioPipeline
import Checksum
import Foundation
import VoicePack

/// One fragment's audio work: a recording through the pipeline into the staging folder, under the file
/// name its fragment will have.
struct FragmentJob: Sendable {
    let source: SourceFile
    let fileName: String

    init(source: SourceFile, settings: Settings) {
        self.source = source
        fileName = source.stem.precomposedStringWithCanonicalMapping + "." + settings.format.container.fileExtension
    }

    /// What the manifest and the record need of a finished fragment.
    struct Done: Sendable {
        let report: FragmentReport
        let sha256: String
        /// The staged file's status: moving it into place keeps its size and time.
        let status: FileStatus?
    }

    func run(_ pipeline: FragmentPipeline, staging: URL, paths: PackPaths) -> Result<Done, AudioError> {
        let staged = staging.appendingPathComponent(fileName).path
        return Result { () throws(AudioError) -> Done in
            let report = try pipeline.process(
                sourcePath: source.fullPath, name: paths.display(source.url), outputPath: staged, ditherSeed: fileName)
            guard let sha256 = try? SHA256.hex(ofFileAt: staged) else {
                throw AudioError(file: staged, problem: "cannot be read back", fix: "check the free disk space")
            }
            return Done(report: report, sha256: sha256, status: FileStatus.of(staged))
        }
    }
}

/// Fragments started before the build knows it needs them.
///
/// A rebuild after a few recordings changed finds them in its scan, by the record of the last build; their
/// audio work starts then, on threads of its own, while the sources are named, the last manifest read and
/// the other fragments carried over. Each job writes only its own file in the staging folder. A recording
/// that was only touched (same bytes) is then kept as it was, and its early fragment is thrown away with
/// the staging folder.
final class HeadStart: Sendable {
    private let jobs: [FragmentJob]
    private let results: ResultSlots<Result<FragmentJob.Done, AudioError>>
    private let group = DispatchGroup()

    init(_ jobs: [FragmentJob], pipeline: FragmentPipeline, staging: URL, paths: PackPaths) {
        self.jobs = jobs
        let results = ResultSlots<Result<FragmentJob.Done, AudioError>>(count: jobs.count)
        self.results = results
        for (index, job) in jobs.enumerated() {
            group.enter()
            let thread = Thread { [group] in
                results.set(index, job.run(pipeline, staging: staging, paths: paths))
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// The result of the job for the same recording under the same file name, once it has finished; nil
    /// when no such job was started.
    func result(for job: FragmentJob) -> Result<FragmentJob.Done, AudioError>? {
        guard let index = jobs.firstIndex(where: { $0.source == job.source && $0.fileName == job.fileName }) else {
            return nil
        }
        group.wait()
        return results.values[index]
    }

    /// Returns once every job has finished: no thread is left writing into the staging folder.
    func wait() { group.wait() }
}
