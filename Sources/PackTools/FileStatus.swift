import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says of a path: enough to tell an unchanged file without reading it, as make and git do.
public struct FileStatus: Equatable, Sendable, Codable {
    public let size: Int
    /// Modification time in nanoseconds since 1970.
    public let modified: Int64
    public let isDirectory: Bool
    public let isRegularFile: Bool

    /// Follows symbolic links; nil with `errno` set when the path cannot be stat'ed.
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        let type = info.st_mode & S_IFMT
        return FileStatus(
            size: Int(info.st_size), modified: modified, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG)
    }

    /// True for a symbolic link itself (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The last `errno` as text.
    static var lastError: String { String(cString: strerror(errno)) }
}
