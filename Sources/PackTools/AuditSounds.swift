import Checksum
import Foundation
import PackManifest
import Splicer
import VoicePack

/// The utterances' sounds, written beside the report in `<report name>-sounds/`, each named by its content.
public enum AuditSounds {
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): cannot be written (\(reason)): check that the folder is writable" }
    }

    /// Writes every playable utterance; returns each one's path relative to the report, by index. Sounds of an
    /// earlier audit that this one did not write are removed, so the folder holds this report's sounds only.
    public static func write(_ report: AuditReport, settings: Settings, besides output: URL) throws -> [Int: String] {
        let name = output.deletingPathExtension().lastPathComponent + "-sounds"
        let folder = output.deletingLastPathComponent().appendingPathComponent(name)
        let container = settings.format.container
        var written: [Int: String] = [:]
        var names: Set<String> = []
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, utterance) in report.utterances.enumerated() {
                guard let spliced = utterance.spliced else { continue }
                let data = Splicer.fileData(spliced.audio, container: container)
                let file = Splicer.contentName(
                    of: data, digest: { SHA256.hex(of: $0) }, prefix: "utterance", extension: container.rawValue)
                if !names.contains(file) { try data.write(to: folder.appendingPathComponent(file), options: .atomic) }
                names.insert(file)
                written[index] = "\(name)/\(file)"
            }
            for old in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where old.hasPrefix("utterance-") && !names.contains(old) {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(old))
            }
        } catch {
            throw Failure(path: folder.path, reason: error.localizedDescription)
        }
        return written
    }
}
