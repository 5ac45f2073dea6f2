import AudioPipeline
import Checksum
import Foundation
import PackManifest
import SpeechText
import VoicePack

/// One fragment's audio work: a recording of `token` through the pipeline into the staging folder, under the
/// file name its fragment will have.
struct FragmentJob: Sendable {
    let source: SourceFile
    let fileName: String
    /// How many the recording says: the voice analysis judges one syllable's pitch as gliding throughout.
    let syllables: Int

    init(source: SourceFile, token: Token, settings: Settings) {
        self.source = source
        fileName = source.stem.precomposedStringWithCanonicalMapping + "." + settings.format.container.fileExtension
        syllables = Manifest.Analysis.syllables(in: token.text)
    }

    /// What the manifest and the record need of a finished fragment.
    struct Done: Sendable {
        let report: FragmentReport
        let sha256: String
        /// The staged file's status: moving it into place keeps its size and time.
        let status: FileStatus?
    }

    /// The recording through the stages that do not depend on the level, as `prepared` holds it when earlier
    /// work of the build prepared it (`sourceSHA256` says it is the same recording), else prepared now and kept.
    func prepare(
        _ pipeline: FragmentPipeline, paths: PackPaths, sourceSHA256: String, prepared: PreparedRecordings
    ) throws(AudioError) -> PreparedRecording {
        try prepared.prepared(path: source.fullPath, sha256: sourceSHA256) { () throws(AudioError) in
            try pipeline.prepare(sourcePath: source.fullPath, name: paths.display(source.url), syllables: syllables)
        }
    }

    /// Builds the fragment into `staging`, from the recording as `prepared` holds it when an earlier pass of
    /// the build prepared it (`sourceSHA256` says it is the same recording).
    func run(
        _ pipeline: FragmentPipeline, staging: URL, paths: PackPaths, sourceSHA256: String,
        prepared: PreparedRecordings
    ) -> Result<Done, AudioError> {
        let staged = staging.appendingPathComponent(fileName).path
        let name = paths.display(source.url)
        return Result { () throws(AudioError) -> Done in
            let recording = try prepare(pipeline, paths: paths, sourceSHA256: sourceSHA256, prepared: prepared)
            // The search a forecast made at this target: the fit's own would find the same gain again.
            let searched = prepared.searchedGain(
                path: source.fullPath, sha256: sourceSHA256, targetPhon: pipeline.normalize.targetPhon)
            let report = try pipeline.finish(
                recording, name: name, outputPath: staged, ditherSeed: fileName, fitStart: searched)
            guard let sha256 = try? SHA256.hex(ofFileAt: staged) else {
                throw AudioError(file: staged, problem: "cannot be read back", fix: "check the free disk space")
            }
            return Done(report: report, sha256: sha256, status: FileStatus.of(staged))
        }
    }
}
