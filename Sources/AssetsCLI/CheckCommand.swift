import Foundation
import PackManifest
import PackReports
import PackTools
import SpeechText
import VoicePack

/// `assets check`: fail (exit 1) on a missing, stale or mismatched fragment.
public struct CheckOptions: Equatable, Sendable {
    public var pack = PackOptions()
    public var styles: [ReadingStyle]?
    public var forms: [AmountForm]?
    public var format: OutputFormat = .text

    static let help = """
        usage: assets check [--raw DIR] [--out DIR] [--manifest FILE] [--config FILE] [--styles LIST] [--forms LIST]
                            [--format text|json|junit|xcode|github]

        Finds every problem of the pack without rebuilding it, lists all of them, and exits 1 if there is
        any; 0 with a one-line summary when the pack is fine. It checks coverage (every token of the enabled
        styles, forms and templates has a fragment or an alias), the manifest against its files (bytes,
        frames, format), the manifest against the recordings (changed, new, removed), naming, sound
        (loudness, true peak, clipping, length), and the longest utterance against iOS's 30 s limit.

        \(PackOptions.help)
          --styles LIST    the styles to cover (default: "styles" in assets.json, else all)
          --forms LIST     the forms to cover (default: "forms" in assets.json, else all)
          --format F       text (default: a line per finding), json, junit (a test case per check),
                           xcode (`/absolute/path: error: message`, for a Run Script build phase), or
                           github (`::error file=…,title=…::message` workflow commands, paths relative to
                           $GITHUB_WORKSPACE or the git repository, for annotations on a pull request)
        """

    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> CheckOptions {
        var options = CheckOptions()
        while let item = try reader.next() {
            switch item {
            case .option("--styles"):
                options.styles = try ReadingStyle.parseList(try reader.value(of: "--styles"), command: .check)
            case .option("--forms"):
                options.forms = try AmountForm.parseList(try reader.value(of: "--forms"), command: .check)
            case .option("--format"):
                options.format = try OutputFormat.parse(
                    try reader.value(of: "--format"), allowed: [.text, .json, .junit, .xcode, .github], command: .check)
            case .option(let name):
                if try options.pack.take(name, from: &reader) { continue }
                throw reader.unknown(name, known: PackOptions.known + ["--styles", "--forms", "--format"])
            case .positional(let text):
                throw UsageError(.check, "unexpected argument '\(text)'")
            }
        }
        return options
    }
}

enum CheckCommand {
    static func run(
        _ options: CheckOptions, console: Console, currentFolder: URL, environment: [String: String]
    ) -> ExitStatus {
        let settings: Settings
        let paths: PackPaths
        do {
            (settings, paths) = try options.pack.load(command: .check, currentFolder: currentFolder)
        } catch {
            console.printError(error.description)
            return .usageError
        }
        let coverFor = (options.styles ?? settings.styles, options.forms ?? settings.forms)
        let report = PackChecker.check(paths: paths, settings: settings, coverFor: coverFor)
        let configURL = options.pack.configURL(currentFolder: currentFolder)
        let annotations = CheckAnnotations(
            paths: paths, settingsFile: FileManager.default.fileExists(atPath: configURL.path) ? configURL : nil)
        switch options.format {
        case .json: console.print(CanonicalJSON.string(CheckJSON(report)))
        case .junit: console.writeOut(junit(report))
        case .xcode:
            for finding in report.findings { console.print(annotations.xcode(finding)) }
            console.print(summary(report, settings: settings))
        case .github:
            let repository = CheckAnnotations.repository(from: currentFolder, environment: environment)
            for finding in report.findings { console.print(annotations.github(finding, repository: repository)) }
            console.print(summary(report, settings: settings))
        default: text(report, settings: settings, console: console)
        }
        return report.passed ? .success : .problemsFound
    }

    static func text(_ report: CheckReport, settings: Settings, console: Console) {
        for finding in report.findings { console.print(finding.description) }
        console.print(summary(report, settings: settings))
    }

    static func summary(_ report: CheckReport, settings: Settings) -> String {
        let warnings = report.warnings.count
        let warningText = warnings == 0 ? "" : ", \(warnings) warning\(warnings == 1 ? "" : "s")"
        guard report.passed else {
            let errors = report.errors.count
            return "assets check: \(errors) problem\(errors == 1 ? "" : "s")\(warningText)"
        }
        let tokens = report.cases.filter { $0.category == "coverage" }.count
        var line =
            "assets check: ok — \(report.fragmentCount) fragments cover the \(tokens) tokens of "
            + "\(report.styles.map(\.name).joined(separator: ", ")) × \(report.forms.map(\.name).joined(separator: ", "))"
        if !settings.templates.isEmpty {
            line += " and \(settings.templates.count) template\(settings.templates.count == 1 ? "" : "s")"
        }
        if let bound = settings.maximumAmount { line += " up to \(bound.plain) (maximumAmount)" }
        if let longest = report.longestUtterance {
            line += String(format: "; longest utterance %.1f s", longest.durationMs / 1000)
        }
        return line + warningText
    }

    /// One test suite per check category, one test case per thing checked; warnings go to system-out.
    static func junit(_ report: CheckReport) -> String {
        let escape = Markup.escape
        let categories = ["manifest", "stale", "naming", "coverage", "sound", "consistency", "budget"]
        let failing = { (testCase: CheckCase) in testCase.findings.contains { $0.severity == .error } }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"assets check\" tests=\"\(report.cases.count)\" failures=\"\(report.cases.filter(failing).count)\">\n"
        for category in categories {
            let cases = report.cases.filter { $0.category == category }
            xml +=
                "  <testsuite name=\"\(category)\" tests=\"\(cases.count)\" failures=\"\(cases.filter(failing).count)\">\n"
            for testCase in cases {
                xml += "    <testcase classname=\"assets.check.\(category)\" name=\"\(escape(testCase.name))\""
                if testCase.findings.isEmpty {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                for finding in testCase.findings where finding.severity == .error {
                    xml +=
                        "      <failure message=\"\(escape(finding.message))\">\(escape(finding.description))</failure>\n"
                }
                let warnings = testCase.findings.filter { $0.severity == .warning }
                if !warnings.isEmpty {
                    xml +=
                        "      <system-out>\(escape(warnings.map(\.description).joined(separator: "\n")))</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}

/// `check --format json`: the same findings as data.
struct CheckJSON: Encodable {
    struct Longest: Encodable {
        let text: String
        let amount: String
        let style: String
        let form: String
        let template: String?
        let tokens: [String]
        let durationMs: Double
    }

    let passed: Bool
    let fragments: Int
    let checked: Int
    let errors: Int
    let warnings: Int
    let findings: [Diagnostic]
    let longestUtterance: Longest?

    init(_ report: CheckReport) {
        passed = report.passed
        fragments = report.fragmentCount
        checked = report.cases.count
        errors = report.errors.count
        warnings = report.warnings.count
        findings = report.findings
        longestUtterance = report.longestUtterance.map {
            Longest(
                text: $0.text, amount: $0.amount.plain, style: $0.style.name, form: $0.form.name, template: $0.template,
                tokens: $0.tokens.map(\.text), durationMs: ($0.durationMs * 100).rounded() / 100)
        }
    }
}
