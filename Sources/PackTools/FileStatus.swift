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
        return FileStatus(info)
    }

    init(_ info: stat) {
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        let type = info.st_mode & S_IFMT
        self.init(
            size: Int(info.st_size), modified: modified, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG)
    }

    init(size: Int, modified: Int64, isDirectory: Bool, isRegularFile: Bool) {
        self.size = size
        self.modified = modified
        self.isDirectory = isDirectory
        self.isRegularFile = isRegularFile
    }

    /// A file's bytes, read straight into the array (a manifest of thousands of fragments is megabytes:
    /// reading it as Data and copying it out would touch them twice), with the status of the file read;
    /// nil when it cannot be read.
    ///
    /// The array is made one byte larger than the file, uninitialised, so the read that finds the end
    /// needs no room of its own: filling it with zeros first, or growing it then, would write every page
    /// twice. A file that grew since its `fstat` is read on in pieces.
    static func contents(of path: String) -> (bytes: [UInt8], status: FileStatus)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        /// Up to `capacity` bytes, read until they fill it or the file ends; nil on an error.
        func bytes(upTo capacity: Int) -> [UInt8]? {
            var failed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                while count < capacity {
                    let got = read(descriptor, buffer.baseAddress! + count, capacity - count)
                    if got < 0 {
                        if errno == EINTR { continue }
                        failed = true
                        return
                    }
                    if got == 0 { break }
                    count += got
                }
            }
            return failed ? nil : bytes
        }
        let size = Int(info.st_size)
        guard var whole = bytes(upTo: size + 1) else { return nil }
        while whole.count > size {
            guard let piece = bytes(upTo: 65_536) else { return nil }
            if piece.isEmpty { break }
            whole += piece
        }
        return (whole, FileStatus(info))
    }

    /// True for a symbolic link itself (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The last `errno` as text.
    static var lastError: String { String(cString: strerror(errno)) }
}

/// A folder held open, so that the files under it are looked up from it rather than from the root: a stat
/// of each of thousands of recordings or fragments walks one or two names instead of the whole path.
final class OpenFolder: Sendable {
    let path: String
    /// -1 when the folder could not be opened: then each path is looked up whole.
    private let descriptor: Int32

    init(_ path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// What `stat` says of `relative` below this folder (an absolute path is taken as it is), following
    /// links: the same as `FileStatus.of` on the joined path.
    func status(_ relative: String) -> FileStatus? {
        guard descriptor >= 0 else { return FileStatus.of(PackPaths.join(path, relative)) }
        var info = stat()
        guard fstatat(descriptor, relative, &info, 0) == 0 else { return nil }
        return FileStatus(info)
    }
}
