import Checksum
import Foundation

/// Remembers the SHA-256 of files by size and modification time, so an unchanged file is not read again
/// (as make and git do). It lives in `.assets/cache.json`, outside the pack; losing it costs one re-hash.
struct BuildCache: Codable {
    struct Entry: Codable, Equatable {
        var size: Int
        var modified: Int64
        var sha256: String
    }

    /// Manifest-relative path → what was last seen there.
    var files: [String: Entry] = [:] {
        didSet { changed = true }
    }
    /// Whether anything was learned since loading: an unchanged cache is not written back.
    private(set) var changed = false

    enum CodingKeys: String, CodingKey { case files }

    static func load(from paths: PackPaths) -> BuildCache {
        let url = paths.state.appendingPathComponent("cache.json")
        guard let data = try? Data(contentsOf: url), let cache = try? JSONDecoder().decode(BuildCache.self, from: data)
        else {
            return BuildCache()
        }
        return cache
    }

    func save(to paths: PackPaths) {
        guard changed else { return }
        let url = paths.state.appendingPathComponent("cache.json")
        try? FileManager.default.createDirectory(at: paths.state, withIntermediateDirectories: true)
        if let data = try? JSONEncoder().encode(self) {
            try? PackTransaction.writeAtomically(data, to: url, durable: false)
        }
    }

    /// The remembered digest of `path`, if its size and modification time are what they were.
    private func cached(_ path: String, _ status: FileStatus) -> String? {
        guard let entry = files[path], entry.size == status.size, entry.modified == status.modified else { return nil }
        return entry.sha256
    }

    /// The digests of many files, those not in the cache read on `jobs` threads at once.
    mutating func digests(of files: [(url: URL, path: String, status: FileStatus)], jobs: Int) -> [Result<
        String, Error
    >] {
        var results = files.map { file in cached(file.path, file.status).map { Result<String, Error>.success($0) } }
        let missing = results.indices.filter { results[$0] == nil }
        let hashed = ParallelWork.map(count: missing.count, jobs: jobs) { index -> Result<String, Error> in
            Result { try SHA256.hex(ofFileAt: files[missing[index]].url.path) }
        }
        for (index, result) in zip(missing, hashed) {
            results[index] = result
            if case .success(let digest) = result {
                let file = files[index]
                self.files[file.path] = Entry(size: file.status.size, modified: file.status.modified, sha256: digest)
            }
        }
        return results.map { $0! }
    }

    /// The digest of the file at `url`: from the cache when its size and time are unchanged.
    mutating func sha256(of url: URL, path: String, status: FileStatus) throws -> String {
        if let digest = cached(path, status) { return digest }
        let digest = try SHA256.hex(ofFileAt: url.path)
        files[path] = Entry(size: status.size, modified: status.modified, sha256: digest)
        return digest
    }
}
