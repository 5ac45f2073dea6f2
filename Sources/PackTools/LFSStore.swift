import Foundation
import PackManifest

/// The files a clone has fetched from Git LFS (`.git/lfs/objects`, by SHA-256). Where a revision is written out as
/// pointers — git-lfs could not fetch what the clone lacks, or is not set up here — the files they stand for are
/// taken from this store when the clone holds them, and the rest named.
struct LFSStore {
    let git: Git
    let repository: URL

    /// Puts in place of each pointer among the files under `folder` the file it stands for, where the store holds
    /// it at the size the pointer says, and returns the pointers left, by their paths from `manifestFolder` (a path
    /// under `folder`), sorted.
    func fill(_ folder: URL, manifestFolder: String) -> [String] {
        let store = gitFolder()
        var left: [String] = []
        for path in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            let file = folder.appendingPathComponent(path)
            guard let size = (try? file.resourceValues(forKeys: [.fileSizeKey]))?.fileSize,
                size <= GitLFSPointer.largest,
                let bytes = try? Data(contentsOf: file), let pointer = GitLFSPointer(bytes)
            else { continue }
            if let store, Self.put(pointer.storedFile(in: store), over: file, size: pointer.size) { continue }
            left.append(PackPaths.relative(path, to: manifestFolder))
        }
        return left.sorted()
    }

    /// The repository's common git folder (a worktree's is its main clone's), where Git LFS keeps its store.
    private func gitFolder() -> URL? {
        guard let said = git.run(["rev-parse", "--git-common-dir"]) else { return nil }
        let path = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .newlines)
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : repository.appendingPathComponent(path)
    }

    private static func put(_ stored: URL, over file: URL, size: Int) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: stored.path),
            (attributes[.size] as? NSNumber)?.intValue == size
        else { return false }
        do {
            try FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: stored, to: file)
            return true
        } catch {
            return false
        }
    }

    /// What fetches `revision`'s files from Git LFS: `git lfs fetch origin main`, from the repository's first
    /// remote (`origin` in a clone).
    static func fetchCommand(_ revision: String, git: Git) -> String {
        let remotes = git.run(["remote"]).map { String(decoding: $0, as: UTF8.self).split(whereSeparator: \.isNewline) }
        let remote = remotes.flatMap { $0.contains("origin") ? "origin" : $0.first.map(String.init) } ?? "origin"
        return "git lfs fetch \(remote) \(revision)"
    }
}
