import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock on a pack (`flock` on `.assets/lock`): one build at a time; checks share it, so they
/// never see a build half way. Released when the process ends, however it ends.
public final class PackLock {
    public enum Mode { case exclusive, shared }

    private let descriptor: Int32

    /// Takes the lock, calling `waiting` once if another process holds it, then waiting for it.
    public init(paths: PackPaths, mode: Mode, waiting: () -> Void) throws {
        try FileManager.default.createDirectory(at: paths.state, withIntermediateDirectories: true)
        let path = paths.state.appendingPathComponent("lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        let operation = mode == .exclusive ? LOCK_EX : LOCK_SH
        if flock(descriptor, operation | LOCK_NB) != 0 {
            waiting()
            while flock(descriptor, operation) != 0 && errno == EINTR {}
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
