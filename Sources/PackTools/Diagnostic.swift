import Foundation
import VoicePack

/// One finding of `build`, `check` or `audit`: what it is about, what is wrong, and what to do.
public struct Diagnostic: Equatable, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// How bad it is: the same two levels `consistency.severity` chooses between.
    public typealias Severity = Settings.Severity

    /// Which check found it. Every renderer lists every case (JUnit a suite each), so a category added here
    /// appears in every format without touching one.
    public enum Category: String, CaseIterable, Equatable, Hashable, Sendable, Encodable {
        case manifest, stale, naming, coverage, audio, sound, consistency, budget
    }

    /// What a finding is about, holding file paths as paths.
    public enum Subject: Equatable, Hashable, Sendable {
        /// A file of the pack: where it is, and how messages name it (relative to the pack).
        case file(URL, shown: String)
        /// A file the pack should have and does not (a removed recording, a manifest never built).
        case missingFile(URL, shown: String)
        /// Several files at once (two recordings for one token).
        case files([URL], shown: [String])
        /// A token the pack cannot say.
        case token(String)
        /// An alias from one token to another, as `assets.json` maps it.
        case alias(String, to: String)
        /// The longest utterance against iOS's 30 s.
        case budget
        /// The settings file (`assets.json`).
        case settings

        /// As messages write it: `raw-audio/digit_3.wav`, `〇`, `亿 → 億`, `budget`.
        public var text: String {
            switch self {
            case .file(_, let shown), .missingFile(_, let shown): return shown
            case .files(_, let shown): return shown.joined(separator: ", ")
            case .token(let token): return token
            case .alias(let alias, let target): return "\(alias) → \(target)"
            case .budget: return "budget"
            case .settings: return "assets.json"
            }
        }

        /// The file it is, when it is one that exists (the first of several).
        public var existingFile: URL? {
            switch self {
            case .file(let url, _): return url
            case .files(let urls, _): return urls.first
            default: return nil
            }
        }
    }

    /// What it is within its category: a name that stays when the message is reworded, which JSON carries and
    /// `check`'s summary counts (`sound/cut 16`), so that CI and scripts tell findings apart without reading
    /// their messages. One case can serve several categories; the pair names the finding.
    public enum Kind: String, CaseIterable, Equatable, Hashable, Sendable, Encodable {
        /// `manifest`: there is none; it cannot be read; a fragment file it lists is missing or not what it
        /// says; a file in the output folder it does not list.
        case missing, unreadable, file, unlisted
        /// `stale`: the settings, or a recording, changed since the build.
        case settings, recording
        /// `naming`: the recordings folder is missing or unreadable; two files for one token; a file that names
        /// no token; an alias that leads nowhere.
        case folder, duplicate, unnamed, alias
        /// `sound`: heard louder or quieter than the rest (or than the target, as `build` notes), over the
        /// true-peak ceiling, too short or long; the recording's voice cut, a sound apart from it, its noise
        /// heard, its header wrong, clipped; and what `build` notes of a fragment: one of its channels taken, or
        /// more than two; its peaks limited deeply.
        case loudness, peak, length, cut, apart, noise, header, clipped, channels, limited
        /// `consistency`: what sets a recording apart from the voice (`VoiceConsistency.Kind`), and an
        /// acceptance in `consistency.accept` that no longer holds.
        case voice, tone, onset, vowel, band, pace, unmeasured, delivery, accept
        /// `budget`: the longest utterance at iOS's 30 s, or past the warning threshold.
        case overLimit, nearLimit
    }

    public let severity: Severity
    public let subject: Subject
    public let category: Category
    public let kind: Kind
    public let message: String
    public let fix: String

    public init(
        _ severity: Severity, _ subject: Subject, _ category: Category, _ kind: Kind, _ message: String, fix: String
    ) {
        self.severity = severity
        self.subject = subject
        self.category = category
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    /// `sound/cut`: the category and kind, as `check`'s summary counts them.
    public var categoryAndKind: String { "\(category.rawValue)/\(kind.rawValue)" }

    /// `raw-audio/x.m4a: error: [audio/unreadable] libsndfile cannot read it (…): export it as WAV or FLAC`
    public var description: String {
        "\(subject.text): \(severity.rawValue): [\(categoryAndKind)] \(message)" + (fix.isEmpty ? "" : ": \(fix)")
    }

    private enum CodingKeys: String, CodingKey {
        case severity, subject, category, kind, message, fix
    }

    /// As JSON: the subject as messages write it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity.rawValue, forKey: .severity)
        try container.encode(subject.text, forKey: .subject)
        try container.encode(category, forKey: .category)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        try container.encode(fix, forKey: .fix)
    }
}

extension PackPaths {
    /// `url` as the subject of a finding, named relative to the pack.
    public func subject(_ url: URL) -> Diagnostic.Subject { .file(url.standardizedFileURL, shown: display(url)) }

    /// A path as the manifest writes it (relative to its folder), as the subject of a finding.
    public func subject(manifestPath path: String) -> Diagnostic.Subject {
        .file(resolveManifestPath(path), shown: path)
    }
}
