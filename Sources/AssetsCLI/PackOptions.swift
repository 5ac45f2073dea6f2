import CommandKit
import Foundation
import PackTools
import VoicePack

/// The options every pack command shares: where the pack's parts are, and the settings file.
public struct PackOptions: Equatable, Sendable {
    public var raw: String?
    public var out: String?
    public var manifest: String?
    public var config: String?

    /// `--raw`, `--out`, `--manifest` and `--config`, for every pack command's table (`Option.pack`).
    static let table: [Option<PackOptions>] = [
        Option("--raw", value: "DIR", "the recordings (default: raw-audio, or \"raw\" in assets.json)") { $0.raw = $1 },
        Option("--out", value: "DIR", "the built fragments (default: normalized, or \"out\")") { $0.out = $1 },
        Option("--manifest", value: "FILE", "the manifest (default: manifest.json, or \"manifest\")") {
            $0.manifest = $1
        },
        Option("--config", value: "FILE", "the settings (default: assets.json in the current folder, if there is one)")
        {
            $0.config = $1
        },
    ]

    /// The settings file: `--config`, else `assets.json` in the current folder (which need not exist).
    func configURL(currentFolder: URL) -> URL {
        config.map { PackPaths.resolve($0, against: currentFolder) }
            ?? currentFolder.appendingPathComponent("assets.json")
    }

    /// The settings and resolved paths, or a usage error (exit 2) listing every problem of the settings.
    func load(command: Command, currentFolder: URL) throws(UsageError) -> (Settings, PackPaths) {
        let configURL = configURL(currentFolder: currentFolder)
        var settings = Settings()
        let root = config == nil ? currentFolder : configURL.deletingLastPathComponent()
        if config != nil || FileManager.default.fileExists(atPath: configURL.path) {
            let name = config ?? "assets.json"
            if config != nil && !FileManager.default.fileExists(atPath: configURL.path) {
                throw UsageError(command, "\(name): no such settings file")
            }
            do {
                settings = try Settings.load(contentsOf: configURL, name: name)
            } catch {
                throw UsageError(command, error.description, multiline: true)
            }
        }
        let paths = PackPaths(
            root: root, settings: settings, raw: raw, out: out, manifest: manifest, currentFolder: currentFolder)
        return (settings, paths)
    }
}
