/// One finding of `build`, `check` or `audit`: what it is about, what is wrong, and what to do.
public struct Diagnostic: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Severity: String, Equatable, Hashable, Sendable, Codable {
        case error, warning
    }

    public let severity: Severity
    /// The file (relative to the pack) or the token the finding is about.
    public let subject: String
    /// Which check found it: `naming`, `audio`, `coverage`, `manifest`, `stale`, `sound`, `budget`, `settings`.
    public let category: String
    public let message: String
    public let fix: String

    public init(_ severity: Severity, _ subject: String, _ category: String, _ message: String, fix: String) {
        self.severity = severity
        self.subject = subject
        self.category = category
        self.message = message
        self.fix = fix
    }

    /// `raw-audio/x.m4a: error: [audio] libsndfile cannot read it (…): export it as WAV or FLAC`
    public var description: String {
        "\(subject): \(severity.rawValue): [\(category)] \(message)" + (fix.isEmpty ? "" : ": \(fix)")
    }
}
