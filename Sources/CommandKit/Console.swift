import Foundation

/// Where a command writes: stdout carries only what was asked for, stderr the diagnostics and progress.
public struct Console: Sendable {
    public let writeOut: @Sendable (String) -> Void
    public let writeError: @Sendable (String) -> Void
    /// True when stderr is a terminal (and not in CI): progress lines and colour are shown only then.
    public let isInteractive: Bool

    public init(
        writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        isInteractive: Bool
    ) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.isInteractive = isInteractive
    }

    public static var standard: Console {
        let environment = ProcessInfo.processInfo.environment
        let inCI = environment["CI"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false
        return Console(
            writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            isInteractive: isatty(STDERR_FILENO) == 1 && !inCI)
    }

    /// Writes `line` and a newline to stdout.
    public func print(_ line: String) { writeOut(line + "\n") }

    /// Writes `line` and a newline to stderr.
    public func printError(_ line: String) { writeError(line + "\n") }
}

/// One line of progress on a terminal, rewritten in place.
public final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let lock = NSLock()
    private var shown = false

    public init(console: Console) { self.console = console }

    public func show(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        console.writeError("\r\u{1B}[K" + text)
        shown = true
    }

    public func clear() {
        lock.lock()
        defer { lock.unlock() }
        if shown { console.writeError("\r\u{1B}[K") }
        shown = false
    }
}
