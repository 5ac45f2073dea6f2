import Foundation
import PackManifest

/// A file that stands where a recording should be but holds none: an empty file (a copy or a download that did
/// not finish), or the pointer Git LFS leaves in a clone that did not fetch the audio — a CI checkout without
/// LFS, most often. Saying so beats "format not recognised": the fix is to fetch the audio, not to export it.
public enum Placeholder {
    /// What the file at `path` is instead of audio, and what to do; nil when it may well be audio (or cannot
    /// be read, which the reader's own error says).
    public static func problem(at path: String) -> (problem: String, fix: String)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: GitLFSPointer.firstLineStart.utf8.count)) ?? Data()
        if head.isEmpty {
            return ("it is empty (0 bytes)", "copy or export it again: an empty file is a copy that did not finish")
        }
        if GitLFSPointer.looksLikeOne(head) {
            return (
                "it is a Git LFS pointer, not the audio itself: this clone did not fetch it",
                "run `git lfs pull` (on GitHub Actions, check out with `lfs: true`)"
            )
        }
        return nil
    }
}
