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
    /// reading it as Data and copying it out would touch them twice); nil when it cannot be read.
    ///
    /// The array is made one byte larger than the file, uninitialised, so the read that finds the end
    /// needs no room of its own: filling it with zeros first, or growing it then, would write every page
    /// twice. A file that grew since its `fstat` is read on in pieces.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        /// Reads into `buffer` until it is full or the file ends; the count read, or nil on an error.
        func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int? {
            var filled = 0
            while filled < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if count == 0 { break }
                filled += count
            }
            return filled
        }
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size) + 1) { buffer, count in
            guard let filled = fill(UnsafeMutableRawBufferPointer(buffer)) else {
                failed = true
                return
            }
            count = filled
        }
        while !failed && bytes.count > Int(info.st_size) {
            let piece = [UInt8](unsafeUninitializedCapacity: 65_536) { buffer, count in
                guard let filled = fill(UnsafeMutableRawBufferPointer(buffer)) else {
                    failed = true
                    return
                }
                count = filled
            }
            if piece.isEmpty { break }
            bytes += piece
        }
        return failed ? nil : bytes
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
