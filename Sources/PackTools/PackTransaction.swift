import Foundation
import PackManifest

#if canImport(Glibc)
    import CSyncFS
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a pack so that a crash at any moment leaves the old pack or the new one, never a mix.
///
/// New fragments are written to a staging folder inside the output folder, the new manifest to
/// `.assets/manifest.staged`. The commit point is the journal: a file listing the fragments to move in and
/// the fragments to remove, written to a temporary name and renamed into `.assets/journal.json`. Once it is
/// there, the new pack is decided; applying it (renames, removals, the manifest's rename) is repeatable,
/// and whoever next opens the pack under its lock — `build`, `check`, `audit`, `say` — finishes an
/// interrupted one first.
public struct PackTransaction: Sendable {
    struct Journal: Codable {
        /// File names in the staging folder to rename into the output folder.
        var moves: [String]
        /// File names in the output folder to remove.
        var removals: [String]
    }

    public let paths: PackPaths

    public init(paths: PackPaths) { self.paths = paths }

    /// Held while a commit writes its journal and applies it, and by `abandon()`: an interrupted process
    /// either abandons its build before the commit point or finishes the commit, never half of one.
    static let committing = NSLock()

    /// What an interrupted build (Ctrl-C, SIGTERM) does before it exits: throws away what it staged, so the
    /// output folder an app bundles holds no staging folder — or, when a commit is under way, lets it finish
    /// and returns false. It keeps the commit lock, so no commit starts after it: the process exits next.
    public func abandon() -> Bool {
        if !Self.committing.try() {
            Self.committing.lock()
            return false
        }
        guard !FileManager.default.fileExists(atPath: journalURL.path) else { return false }
        discardStaging()
        try? FileManager.default.removeItem(at: stagedManifestURL)
        return true
    }

    var journalURL: URL { paths.state.appendingPathComponent("journal.json") }
    var stagedManifestURL: URL { paths.state.appendingPathComponent("manifest.staged") }

    /// A clean staging folder for a new build.
    public func prepareStaging() throws -> URL {
        try? FileManager.default.removeItem(at: paths.staging)
        try FileManager.default.createDirectory(at: paths.staging, withIntermediateDirectories: true)
        return paths.staging
    }

    /// Throws away what a failed build staged.
    public func discardStaging() {
        try? FileManager.default.removeItem(at: paths.staging)
    }

    /// Decides the new pack (writes the journal), then applies it.
    public func commit(moves: [String], removals: [String], manifest: Data) throws {
        Self.committing.lock()
        defer { Self.committing.unlock() }
        try apply(try decide(moves: moves, removals: removals, manifest: manifest))
    }

    /// The commit's first step: the staged files made durable, then the journal that points at them. From
    /// here the new pack is decided: a crash after it leaves what `recover()` finishes.
    func decide(moves: [String], removals: [String], manifest: Data) throws -> Journal {
        try FileManager.default.createDirectory(at: paths.out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: paths.state, withIntermediateDirectories: true)
        // The staged fragments and manifest must be on disk before the journal that points at them.
        try Self.writeAtomically(manifest, to: stagedManifestURL, durable: false)
        Self.flush(
            files: moves.map { paths.staging.appendingPathComponent($0).path } + [stagedManifestURL.path],
            folders: [paths.staging.path, paths.state.path])
        let journal = Journal(moves: moves, removals: removals)
        try Self.writeAtomically(CanonicalJSON.data(journal), to: journalURL)
        return journal
    }

    /// Finishes a commit that a crash interrupted, or clears what an uncommitted build staged. The
    /// caller holds the pack's lock. Returns true when it finished a commit.
    @discardableResult
    public func recover() throws -> Bool {
        guard FileManager.default.fileExists(atPath: journalURL.path) else {
            discardStaging()
            try? FileManager.default.removeItem(at: stagedManifestURL)
            return false
        }
        let journal = try JSONDecoder().decode(Journal.self, from: Data(contentsOf: journalURL))
        try apply(journal)
        return true
    }

    private func apply(_ journal: Journal) throws {
        let manager = FileManager.default
        for name in journal.moves {
            let staged = paths.staging.appendingPathComponent(name)
            // Already moved by an earlier, interrupted apply.
            guard manager.fileExists(atPath: staged.path) else { continue }
            if rename(staged.path, paths.out.appendingPathComponent(name).path) != 0 {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [NSFilePathErrorKey: staged.path, NSLocalizedDescriptionKey: FileStatus.lastError])
            }
        }
        for name in journal.removals {
            let url = paths.out.appendingPathComponent(name)
            if manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
        }
        // Already renamed by an earlier, interrupted apply when it is gone.
        if manager.fileExists(atPath: stagedManifestURL.path), rename(stagedManifestURL.path, paths.manifest.path) != 0
        {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: paths.manifest.path, NSLocalizedDescriptionKey: FileStatus.lastError])
        }
        Self.flush(files: [], folders: [paths.out.path, paths.manifest.deletingLastPathComponent().path])
        try manager.removeItem(at: journalURL)
        discardStaging()
    }

    /// Writes to a temporary name beside `url`, flushes it, and renames it over `url`. `durable: false`
    /// leaves the flushing to the system: for the build record, which only saves work, and which a crash can
    /// leave old, cut short or empty without harm, since it is checked against the files it describes and
    /// ignored when it does not parse.
    static func writeAtomically(_ data: Data, to url: URL, durable: Bool = true) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(getpid())")
        // Written, flushed and closed by hand: FileManager's own atomic write would write a second
        // temporary file and rename it, and the flush would need the file opened again.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: temporary.path, NSLocalizedDescriptionKey: FileStatus.lastError])
        }
        var failure: String? = nil
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = FileStatus.lastError
                    return
                }
                offset += count
            }
        }
        if durable, failure == nil, fsync(descriptor) != 0 { failure = FileStatus.lastError }
        close(descriptor)
        if let failure {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path, NSLocalizedDescriptionKey: failure])
        }
        if rename(temporary.path, url.path) != 0 {
            let reason = FileStatus.lastError
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: reason])
        }
        if durable { flush(files: [], folders: [url.deletingLastPathComponent().path]) }
    }

    /// Puts `files`, and the names in `folders`, on disk: each one `fsync`ed when there are a few; the whole
    /// file system flushed in one call (`syncfs`) when there are more, as for the thousands of fragments of a
    /// cold build. A file system flush also waits for every other process's unwritten data there, so a
    /// commit of a few files does without it.
    static func flush(files: [String], folders: [String]) {
        func sync(_ path: String, wholeFileSystem: Bool) {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            #if os(Linux)
                if wholeFileSystem { syncfs(descriptor) } else { fsync(descriptor) }
            #else
                fsync(descriptor)
            #endif
            close(descriptor)
        }
        if files.count > 16 {
            sync(folders.first ?? files[0], wholeFileSystem: true)
        } else {
            for path in files + folders { sync(path, wholeFileSystem: false) }
        }
    }
}
