import Foundation

/// What a C library prints to standard error by itself — mpg123, under libsndfile, warns there about MP3
/// headers ("Xing stream size off by more than 1%") with no way to turn it off — taken from the terminal
/// and handed back, so that it appears only inside our own message, when it explains a refusal.
///
/// Standard error is one per process, so the caller must hold a lock that every capture shares
/// (`SoundFile`'s open lock). Our diagnostics are written after the files are read; a progress line drawn in
/// that moment is lost, and the next one draws it again.
enum LibraryMessages {
    /// Runs `body` with standard error sent to an unnamed temporary file; returns its result and the text.
    static func capturing<T>(_ body: () -> T) -> (T, String) {
        fflush(nil)
        guard let scratch = tmpfile() else { return (body(), "") }
        defer { fclose(scratch) }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(fileno(scratch), STDERR_FILENO) >= 0 else {
            if saved >= 0 { close(saved) }
            return (body(), "")
        }
        let result = body()
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        rewind(scratch)
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, scratch)
            if count <= 0 { break }
            text += chunk[0..<count]
        }
        let lines = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline)
        return (result, lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
    }
}
