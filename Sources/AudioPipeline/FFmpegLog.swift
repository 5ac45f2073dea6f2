import CFFmpeg
import Foundation

/// FFmpeg's log, kept for the thread that reads a file instead of printed: what it says about a file it refuses
/// ("moov atom not found") appears inside our own message, and nothing of it reaches the terminal by itself.
///
/// FFmpeg has one log callback for the process; each reading thread sets its own `Collector` (a thread-specific
/// value), so parallel jobs keep their files' messages apart. Messages from FFmpeg's own worker threads, which
/// have no collector, are dropped.
final class FFmpegLog {
    /// The errors and warnings logged on this thread while it lives, at most `keep` of them. FFmpeg may log a
    /// line in parts: a line is whole at its newline.
    var lines: [String] { finished + [pending].filter { !$0.isEmpty } }
    private var finished: [String] = []
    private var pending = ""
    static let keep = 4

    init() {
        _ = Self.installed
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops collecting on this thread; call it before the collector goes away (`defer`).
    func stop() { pthread_setspecific(Self.key, nil) }

    /// `said` and, after it, what FFmpeg logged that it did not already say.
    func explaining(_ said: String) -> String {
        let more = lines.filter { !said.localizedCaseInsensitiveContains($0) }
        return more.isEmpty ? said : "\(said); \(more.joined(separator: "; "))"
    }

    fileprivate func append(_ text: String) {
        pending += text
        while let end = pending.firstIndex(where: \.isNewline) {
            let line = pending[..<end].trimmingCharacters(in: .whitespaces)
            pending = String(pending[pending.index(after: end)...])
            if line.contains(where: \.isLetter) && finished.count < Self.keep && !finished.contains(line) {
                finished.append(line)
            }
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static let installed: Void = av_log_set_callback { _, level, format, arguments in
        guard level <= AV_LOG_WARNING, let format, let arguments, let slot = pthread_getspecific(FFmpegLog.key) else {
            return
        }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        Unmanaged<FFmpegLog>.fromOpaque(slot).takeUnretainedValue().append(text)
    }
}
