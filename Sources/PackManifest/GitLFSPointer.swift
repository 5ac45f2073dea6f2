import Foundation

/// The short text Git LFS commits in place of a file it keeps apart, and leaves in a clone that did not fetch the
/// file: three lines, `version https://git-lfs.github.com/spec/v1`, `oid sha256:<64 hex digits>` and
/// `size <bytes>`. Teams keep audio in Git LFS, so a pointer can stand where a recording or a fragment should be —
/// in a CI checkout without LFS, in an app built from one, in a revision whose files were not fetched.
public struct GitLFSPointer: Equatable, Sendable {
    /// The SHA-256 of the file it stands for, in lowercase hex: the name Git LFS stores the file under.
    public let oid: String
    /// The file's length in bytes.
    public let size: Int

    /// Every pointer begins with this line's start.
    public static let firstLineStart = "version https://git-lfs.github.com/spec/"
    /// The specification caps a pointer at 1024 bytes; anything longer is a file of its own.
    public static let largest = 1024

    /// Whether `bytes` begin as a pointer does: enough to tell one from audio.
    public static func looksLikeOne(_ bytes: Data) -> Bool {
        bytes.count <= largest && bytes.starts(with: firstLineStart.utf8)
    }

    /// The pointer `bytes` hold, or nil when they are not one (or name no SHA-256 and size).
    public init?(_ bytes: Data) {
        guard Self.looksLikeOne(bytes) else { return nil }
        var oid: String?
        var size: Int?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if parts[0] == "oid", parts[1].hasPrefix("sha256:") {
                let hex = parts[1].dropFirst("sha256:".count)
                if hex.count == 64, hex.allSatisfy(\.isHexDigit) { oid = hex.lowercased() }
            }
            if parts[0] == "size" { size = Int(parts[1]) }
        }
        guard let oid, let size, size >= 0 else { return nil }
        self.oid = oid
        self.size = size
    }

    /// Where Git LFS keeps the file in a repository whose common git folder is `gitFolder` (`.git` of a clone):
    /// `lfs/objects/ab/cd/abcd…`.
    public func storedFile(in gitFolder: URL) -> URL {
        gitFolder.appendingPathComponent("lfs/objects")
            .appendingPathComponent(String(oid.prefix(2)))
            .appendingPathComponent(String(oid.dropFirst(2).prefix(2)))
            .appendingPathComponent(oid)
    }
}
