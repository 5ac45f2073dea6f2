import Foundation

/// Opening a pack to read it (`check`, `audit`, `say`): finishes a commit a crash interrupted, then holds
/// the pack's lock shared, so no build changes it while it is read.
public enum PackReading {
    /// Returns the shared lock; keep it while reading. Nil when the pack has no state folder to lock and
    /// none can be made (a read-only checkout): reading goes ahead without.
    public static func open(_ paths: PackPaths, waiting: @Sendable () -> Void = {}) throws -> PackLock? {
        let transaction = PackTransaction(paths: paths)
        if FileManager.default.fileExists(atPath: transaction.journalURL.path) {
            let exclusive = try PackLock(paths: paths, mode: .exclusive, waiting: waiting)
            try transaction.recover()
            withExtendedLifetime(exclusive) {}
        }
        return try? PackLock(paths: paths, mode: .shared, waiting: waiting)
    }
}
