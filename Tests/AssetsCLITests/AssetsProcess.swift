import Foundation

/// The built `assets` executable, run as a user would run it.
struct AssetsProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `assets` binary beside the test bundle in the build folder.
    static let executable: URL = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("assets")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        fatalError("no assets binary near \(Bundle.main.bundleURL.path): run swift build first")
    }()

    /// A folder with no pack and no settings in it.
    static let emptyFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assets-empty-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        executable: URL = AssetsProcess.executable
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Not the package folder, whose own pack would change what commands print.
        process.currentDirectoryURL = directory ?? emptyFolder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
