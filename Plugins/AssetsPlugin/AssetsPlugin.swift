import Foundation
import PackagePlugin

/// `swift package assets build|check|audit|diff|say …`: runs the `assets` tool on the voice pack at the top of the
/// package (its `assets.json`, `raw-audio/`, `normalized/` and `manifest.json`), with the arguments given.
/// From Xcode, the same command runs on the project's folder.
@main
struct AssetsPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try Self.run(context.tool(named: "assets").url, arguments: arguments, in: context.package.directoryURL)
    }

    /// Runs `assets` in `folder`, its output passed through; a status other than 0 fails the command with it.
    static func run(_ tool: URL, arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(arguments: arguments, status: process.terminationStatus)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        var description: String {
            "assets \(arguments.joined(separator: " ")) exited with status \(status)"
                + (status == 1 ? " (it found problems, listed above)" : status == 2 ? " (see its usage above)" : "")
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension AssetsPlugin: XcodeCommandPlugin {
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            try Self.run(
                context.tool(named: "assets").url, arguments: arguments, in: context.xcodeProject.directoryURL)
        }
    }
#endif
