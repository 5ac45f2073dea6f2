import Foundation
import PackTools
import VoicePack

/// `check --format xcode` and `--format github`: each finding as a line that Xcode or GitHub Actions turns into
/// an issue on a file. The same findings as the other formats; only the rendering differs.
public struct CheckAnnotations {
    let paths: PackPaths
    /// `assets.json` when the pack has one: where a finding about a token or an alias is mended.
    let settingsFile: URL?

    public init(paths: PackPaths, settingsFile: URL?) {
        self.paths = paths
        self.settingsFile = settingsFile
    }

    /// The file a finding is about: its subject when that is a file of the pack (the first, when it names
    /// several), else the settings file or the manifest — a missing file, a token, an alias or the budget is
    /// mended there.
    func file(of finding: Diagnostic) -> URL {
        finding.subject.existingFile ?? settingsFile ?? paths.manifest
    }

    /// The message, led by the subject when the file does not say it, and by the category unless a title says it.
    func message(of finding: Diagnostic, file: URL, category: Bool) -> String {
        var named = false  // several files: the first is the annotation's, the others are said
        if case .file = finding.subject { named = true }
        var text = (category ? "[\(finding.categoryAndKind)] " : "") + finding.message
        if !finding.fix.isEmpty { text += ": \(finding.fix)" }
        return named ? text : "\(finding.subject.text): \(text)"
    }

    /// `/absolute/path: error: message`, the form Xcode's build log links to the file.
    public func xcode(_ finding: Diagnostic) -> String {
        let file = file(of: finding)
        let text = message(of: finding, file: file, category: true).replacingOccurrences(of: "\n", with: " ")
        return "\(file.path): \(finding.severity.rawValue): \(text)"
    }

    /// `::error file=raw-audio/digit_3.wav,title=sound/cut::message`, the path relative to the repository; the
    /// title, which GitHub shows over the annotation, is the finding's category and kind.
    public func github(_ finding: Diagnostic, repository: URL) -> String {
        let file = file(of: finding)
        let relative = PackPaths.relative(file.path, to: repository.standardizedFileURL.path)
        let title = Self.property(finding.categoryAndKind)
        return "::\(finding.severity.rawValue) file=\(Self.property(relative)),title=\(title)::"
            + Self.data(message(of: finding, file: file, category: false))
    }

    /// GitHub's escaping of a workflow command's message.
    public static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of a workflow command's property value: the message's, and `:` and `,`.
    public static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

extension CheckRendering {
    /// `check --format xcode`: a line per finding that Xcode links to its file, then the summary.
    public static func xcode(_ report: CheckReport, settings: Settings, annotations: CheckAnnotations) -> String {
        report.findings.map { annotations.xcode($0) + "\n" }.joined() + summary(report, settings: settings) + "\n"
    }

    /// `check --format github`: a workflow command per finding, paths relative to `repository`, then the summary.
    public static func github(
        _ report: CheckReport, settings: Settings, annotations: CheckAnnotations, in repository: URL
    ) -> String {
        report.findings.map { annotations.github($0, repository: repository) + "\n" }.joined()
            + summary(report, settings: settings) + "\n"
    }
}
