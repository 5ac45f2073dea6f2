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
    /// The file's inode, and the last change to it or its status (nanoseconds since 1970), as git also looks at:
    /// two takes of one length swapped by name, their times the same whole second (from a checkout or an
    /// archive), keep their sizes and times but not their inodes; a file copied over in place with its old time
    /// put back (`cp -p`) keeps its inode but not its change time.
    public let inode: UInt64
    public let changed: Int64
    public let isDirectory: Bool
    public let isRegularFile: Bool

    /// Follows symbolic links; nil with `errno` set when the path cannot be stat'ed.
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    init(_ info: stat) {
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        let type = info.st_mode & S_IFMT
        self.init(
            size: Int(info.st_size), modified: modified, inode: UInt64(info.st_ino), changed: changed,
            isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG)
    }

    init(size: Int, modified: Int64, inode: UInt64, changed: Int64, isDirectory: Bool, isRegularFile: Bool) {
        self.size = size
        self.modified = modified
        self.inode = inode
        self.changed = changed
        self.isDirectory = isDirectory
        self.isRegularFile = isRegularFile
    }

    /// A file's bytes with the status of the file read; nil when it cannot be read.
    static func contents(of path: String) -> (bytes: [UInt8], status: FileStatus)? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        var info = stat()
        guard fstat(file.fileDescriptor, &info) == 0 else { return nil }
        do {
            return ([UInt8](try file.readToEnd() ?? Data()), FileStatus(info))
        } catch {
            return nil
        }
    }

    /// True for a symbolic link itself (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The last `errno` as text.
    static var lastError: String { String(cString: strerror(errno)) }
}
