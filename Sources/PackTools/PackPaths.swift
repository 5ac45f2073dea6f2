import Foundation
import VoicePack

/// Where a pack's parts are, resolved once from flags, `assets.json` and the current folder.
public struct PackPaths: Equatable, Sendable {
    /// The folder paths are shown relative to: the settings file's folder, or the current folder.
    public let root: URL
    public let raw: URL
    public let out: URL
    public let manifest: URL
    /// `.assets/` beside the manifest: the build record, the lock and the commit journal. Not part of the pack.
    public var state: URL { manifest.deletingLastPathComponent().appendingPathComponent(".assets") }
    /// Where a build writes new fragments before they are renamed into `out`.
    public var staging: URL { out.appendingPathComponent(".assets-staging") }

    public init(root: URL, raw: URL, out: URL, manifest: URL) {
        self.root = root.standardizedFileURL
        self.raw = raw.standardizedFileURL
        self.out = out.standardizedFileURL
        self.manifest = manifest.standardizedFileURL
    }

    /// Paths from settings, relative to `root`; a flag's value (relative to the current folder) wins.
    public init(root: URL, settings: Settings, raw: String?, out: String?, manifest: String?, currentFolder: URL) {
        func resolve(_ flag: String?, _ setting: String) -> URL {
            if let flag { return PackPaths.resolve(flag, against: currentFolder) }
            return PackPaths.resolve(setting, against: root)
        }
        self.init(
            root: root, raw: resolve(raw, settings.raw), out: resolve(out, settings.out),
            manifest: resolve(manifest, settings.manifest))
    }

    /// `url`'s path relative to the manifest's folder (`normalized/digit_1.wav`), as the manifest writes it.
    public func manifestRelative(_ url: URL) -> String {
        Self.relative(url.standardizedFileURL.path, to: manifest.deletingLastPathComponent().path)
    }

    /// `url`'s path relative to `root`, for messages.
    public func display(_ url: URL) -> String {
        Self.relative(url.standardizedFileURL.path, to: root.path)
    }

    /// A path from the manifest's folder, as the manifest writes it, back to a URL.
    public func resolveManifestPath(_ path: String) -> URL {
        PackPaths.resolve(path, against: manifest.deletingLastPathComponent()).standardizedFileURL
    }

    /// A manifest-relative `path` (as is when absolute) below the folder at `folder`, joined as strings: for
    /// the thousands of `stat`s of a build, where a URL apiece would cost more than the `stat`.
    static func join(_ folder: String, _ path: String) -> String {
        path.hasPrefix("/") ? path : folder + "/" + path
    }

    /// The same layout around another copy of the pack, whose manifest is at `manifest` (a diff's base): each
    /// path where it lies from that manifest's folder as it lies from this one's.
    public func moved(toManifest manifest: URL) -> PackPaths {
        let (here, there) = (self.manifest.deletingLastPathComponent(), manifest.deletingLastPathComponent())
        func moved(_ url: URL) -> URL { Self.resolve(Self.relative(url.path, to: here.path), against: there) }
        return PackPaths(root: moved(root), raw: moved(raw), out: moved(out), manifest: manifest)
    }

    /// `path` as is when absolute, else below `folder`.
    public static func resolve(_ path: String, against folder: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
    }

    public static func relative(_ path: String, to base: String) -> String {
        let pathParts = path.split(separator: "/", omittingEmptySubsequences: true)
        let baseParts = base.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < min(pathParts.count, baseParts.count) && pathParts[common] == baseParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        let rest = pathParts[common...].map(String.init)
        let joined = (ups + rest).joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }
}

extension PackPaths {
    /// The repository the paths are relative to: `GITHUB_WORKSPACE` in a GitHub Actions job, else the nearest
    /// folder above `folder` with a `.git`, else `folder` itself.
    public static func repository(from folder: URL, environment: [String: String]) -> URL {
        if let workspace = environment["GITHUB_WORKSPACE"], !workspace.isEmpty {
            return URL(fileURLWithPath: workspace)
        }
        var candidate = folder.standardizedFileURL
        while candidate.path != "/" {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) {
                return candidate
            }
            candidate.deleteLastPathComponent()
        }
        return folder
    }
}
