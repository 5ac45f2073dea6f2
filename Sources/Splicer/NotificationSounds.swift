import Foundation

/// The folder a Notification Service Extension writes its spliced sounds to — `Library/Sounds` of the App Group
/// container — each named by its content (iOS caches a notification sound by its name), and no more than
/// `keeping` of them: every amount said is a new file of a few hundred kB, and a container that only grows
/// would hold hundreds of MB after a few thousand payments. A sound is needed only until its notification has
/// played, so the newest few are plenty.
public struct NotificationSounds: Sendable {
    public let folder: URL
    /// How many of its sounds (the newest) stay in the folder.
    public var keeping: Int
    /// The name each sound starts with: what the folder's pruning removes, and nothing else.
    public var prefix: String

    public init(folder: URL, keeping: Int = 32, prefix: String = "amount") {
        self.folder = folder
        self.keeping = max(1, keeping)
        self.prefix = prefix
    }

    /// Writes `data` under its content name (`amount-<16 hex>.<extension>`), readable while the phone is locked,
    /// removes all but the `keeping` newest of the folder's sounds, and returns the name for
    /// `UNNotificationSoundName`. A sound already there is kept and counted as the newest.
    public func write(_ data: Data, digest: FragmentDigest, extension: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = Splicer.contentName(of: data, digest: digest, prefix: prefix, extension: `extension`)
        let url = folder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: url.path) {
            #if canImport(Darwin)
                try data.write(to: url, options: [.atomic, .noFileProtection])
            #else
                try data.write(to: url, options: .atomic)
            #endif
        }
        // Stamped here, finer than a file system's own clock, so that sounds written in one burst keep their order.
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        try prune()
        return name
    }

    /// Removes all but the `keeping` newest of the folder's sounds (files named `prefix-…`); other files stay.
    public func prune() throws {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        let sounds = try FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: keys, options: .skipsHiddenFiles
        ).filter { $0.lastPathComponent.hasPrefix(prefix + "-") }
        guard sounds.count > keeping else { return }
        func modified(_ url: URL) -> Date {
            (try? url.resourceValues(forKeys: Set(keys)).contentModificationDate) ?? .distantPast
        }
        let newestFirst = sounds.map { ($0, modified($0)) }.sorted { $0.1 > $1.1 }
        for (url, _) in newestFirst.dropFirst(keeping) { try? FileManager.default.removeItem(at: url) }
    }
}
