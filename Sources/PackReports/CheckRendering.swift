import Foundation
import PackManifest
import PackTools
import SpeechText
import VoicePack

/// `assets check`'s report in text (a line per finding and a summary), JSON and JUnit: pure functions of
/// a `CheckReport`. Xcode and GitHub lines are `CheckAnnotations`.
public enum CheckRendering {
    /// A line per finding, then the summary.
    public static func text(_ report: CheckReport, settings: Settings) -> String {
        report.findings.map { $0.description + "\n" }.joined() + summary(report, settings: settings) + "\n"
    }

    public static func json(_ report: CheckReport) -> String { CanonicalJSON.string(CheckJSON(report)) + "\n" }

    public static func summary(_ report: CheckReport, settings: Settings) -> String {
        let warningText = report.warnings.isEmpty ? "" : ", " + byKind(report.warnings, "warning")
        guard report.passed else {
            return "assets check: " + byKind(report.errors, "problem") + warningText + narrowing(report)
        }
        let tokens = report.cases.filter { $0.category == .coverage }.count
        var line =
            "assets check: ok — \(report.fragmentCount) fragments cover the \(tokens) tokens of "
            + "\(report.styles.map(\.name).joined(separator: ", ")) × \(report.forms.map(\.name).joined(separator: ", "))"
        if !settings.templates.isEmpty {
            line += " and \(counted(settings.templates.count, "template"))"
        }
        if let bound = settings.maximumAmount { line += " up to \(bound.plain) (maximumAmount)" }
        if let longest = report.longestUtterance {
            line += String(format: "; longest utterance %.1f s", longest.durationMs / 1000)
        }
        return line + warningText
    }

    /// `1 problem (consistency/voice), 33 warnings (sound/header 17, sound/cut 16)`, as the audit heads its
    /// findings.
    static func tally(_ report: CheckReport) -> String {
        byKind(report.errors, "problem") + ", " + byKind(report.warnings, "warning")
    }

    /// `33 warnings (sound/header 17, sound/cut 16)`: how many `findings`, named `noun`, and their kinds.
    static func byKind(_ findings: [Diagnostic], _ noun: String) -> String {
        counted(findings.count, noun) + kinds(findings)
    }

    /// What kinds of finding they are, commonest first, as JSON names them, with how many where more than one:
    /// ` (sound/header 17, sound/cut 16, consistency/voice)`, or ` (coverage/missing)` when all are of one kind;
    /// the first `mostKinds` of them.
    static func kinds(_ findings: [Diagnostic]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for finding in findings {
            if counts[finding.categoryAndKind] == nil { order.append(finding.categoryAndKind) }
            counts[finding.categoryAndKind, default: 0] += 1
        }
        guard order.count > 1 else { return order.first.map { " (\($0))" } ?? "" }
        // Kinds as common as each other keep the order in which `check` lists them.
        let ranked = order.enumerated().sorted { first, second in
            let (one, other) = (counts[first.element, default: 0], counts[second.element, default: 0])
            return one != other ? one > other : first.offset < second.offset
        }.map(\.element)
        let shown = ranked.prefix(mostKinds).map { kind in
            counts[kind, default: 0] > 1 ? "\(kind) \(counts[kind, default: 0])" : kind
        }
        return " (" + (shown + (ranked.count > mostKinds ? ["…"] : [])).joined(separator: ", ") + ")"
    }

    /// How many kinds of finding the summary names.
    static let mostKinds = 4

    /// When every style was checked (the settings' default) and some styles and forms lack no fragment, or at
    /// most `closeMisses`, while others lack more — a pack taken over from an app — those closest to covered,
    /// and the settings that ask for them: all of them when they lack nothing and make whole styles × forms,
    /// else the first, with what it lacks.
    static func narrowing(_ report: CheckReport) -> String {
        let pairs = report.coverageByStyleForm
        guard report.styles.count == ReadingStyle.allCases.count, let fewest = pairs.map(\.missing.count).min(),
            fewest <= closeMisses, pairs.contains(where: { $0.missing.count > fewest })
        else { return "" }
        let closest = pairs.filter { $0.missing.count == fewest }
        let lacking = { (pair: StyleFormCoverage) in pair.missing.map(\.text).joined(separator: " ") }
        var styles = report.styles.filter { style in closest.contains { $0.style == style } }
        var forms = report.forms.filter { form in closest.contains { $0.form == form } }
        var line =
            "; "
            + closest.map { $0.missing.isEmpty ? $0.name : "\($0.name) lacks only \(lacking($0))" }
            .joined(separator: ", ")
        if fewest == 0 { line += closest.count == 1 ? " has every fragment" : " have every fragment" }
        if fewest == 0 && styles.count * forms.count == closest.count {
            line += ": if the app says amounts only so, set "
        } else {
            (styles, forms) = ([closest[0].style], [closest[0].form])
            line += ": if the app says amounts as \(closest[0].name), set "
        }
        let list = { (names: [String]) in "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        line += "\"styles\": \(list(styles.map(\.name))) and \"forms\": \(list(forms.map(\.name))) in assets.json"
        return line + (fewest == 0 ? "" : ", and give \(lacking(closest[0])) a recording or an alias")
    }

    /// How many tokens a style and form may lack and still be named as what the pack comes close to covering.
    static let closeMisses = 3

    /// One test suite per check category, one test case per thing checked, each error a failure whose type is
    /// its category and kind; warnings go to system-out.
    public static func junit(_ report: CheckReport) -> String {
        let escape = Markup.escape
        let failing = { (testCase: CheckCase) in testCase.findings.contains { $0.severity == .error } }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"assets check\" tests=\"\(report.cases.count)\" failures=\"\(report.cases.filter(failing).count)\">\n"
        for category in Diagnostic.Category.allCases {
            let cases = report.cases.filter { $0.category == category }
            xml +=
                "  <testsuite name=\"\(category.rawValue)\" tests=\"\(cases.count)\" failures=\"\(cases.filter(failing).count)\">\n"
            for testCase in cases {
                xml += "    <testcase classname=\"assets.check.\(category.rawValue)\" name=\"\(escape(testCase.name))\""
                if testCase.findings.isEmpty {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                for finding in testCase.findings where finding.severity == .error {
                    xml +=
                        "      <failure message=\"\(escape(finding.message))\" type=\"\(finding.categoryAndKind)\">"
                        + "\(escape(finding.description))</failure>\n"
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
public struct CheckJSON: Encodable {
    public struct Longest: Encodable {
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
    public let longestUtterance: Longest?

    public init(_ report: CheckReport) {
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
