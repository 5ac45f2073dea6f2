import Foundation

/// An Audacity label track as it exports it: one label a line, its start and end in seconds and its text,
/// tab-separated. A point label has its end at its start; a spectral label adds a line that starts with `\`
/// (its frequencies), which belongs to the label before it and is skipped here.
public struct AudacityLabel: Equatable, Sendable {
    public var startSeconds: Double
    public var endSeconds: Double
    public var text: String

    public init(startSeconds: Double, endSeconds: Double, text: String) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
    }

    public var isPoint: Bool { endSeconds <= startSeconds }

    /// The labels of a file's `text`; an error names the line that is not a label.
    public static func parse(_ text: String, name: String) throws(SplitError) -> [AudacityLabel] {
        var labels: [AudacityLabel] = []
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || line.hasPrefix("\\") { continue }
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let start = Double(fields[0].trimmingCharacters(in: .whitespaces)),
                let end = Double(fields[1].trimmingCharacters(in: .whitespaces)), start >= 0, end >= 0
            else {
                throw SplitError(
                    "\(name):\(number + 1): '\(line)' is not an Audacity label (start, end and text, tab-separated)",
                    fix: "export the label track from Audacity again (File ▸ Export ▸ Export Labels)")
            }
            let label = fields.count > 2 ? fields[2].trimmingCharacters(in: .whitespaces) : ""
            labels.append(AudacityLabel(startSeconds: start, endSeconds: end, text: label))
        }
        return labels
    }

    /// Labels in the form Audacity imports (File ▸ Import ▸ Labels).
    public static func text(_ labels: [AudacityLabel]) -> String {
        labels.map { String(format: "%.6f\t%.6f\t", $0.startSeconds, $0.endSeconds) + $0.text + "\n" }.joined()
    }
}
