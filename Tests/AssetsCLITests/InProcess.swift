import AssetsCLI
import CommandKit
import Foundation

/// `assets` run in this process through `AssetsCLI.run`, its output caught by a console that keeps it.
struct InProcess {
    /// The same as a process run's, so a test reads both alike.
    typealias Result = AssetsProcess.Result

    static func run(
        _ arguments: [String], in folder: URL = AssetsProcess.emptyFolder, environment: [String: String] = [:]
    ) -> Result {
        final class Buffers: @unchecked Sendable {
            let lock = NSLock()
            var out = ""
            var err = ""
            func append(_ text: String, error: Bool) {
                lock.lock()
                defer { lock.unlock() }
                if error { err += text } else { out += text }
            }
        }
        let buffers = Buffers()
        let console = Console(
            writeOut: { buffers.append($0, error: false) }, writeError: { buffers.append($0, error: true) },
            isInteractive: false)
        let status = AssetsCLI.run(arguments, console: console, currentFolder: folder, environment: environment)
        return Result(status: status.rawValue, stdout: buffers.out, stderr: buffers.err)
    }
}
