import Foundation
import SpeechText
import VoicePack

/// The recordings by the token each one names, and what is wrong with their names: a file that names no
/// token, or two files for one token. `build` fails on these and `check` reports them, with the same words.
struct NamedSources {
    /// Each recording that names a token, in the sources' order.
    private(set) var named: [(token: Token, source: SourceFile)] = []
    private(set) var byToken: [Token: [SourceFile]] = [:]
    /// Each problem with the name of what it is about: the recording, or the token two recordings name.
    private(set) var problems: [(name: String, diagnostic: Diagnostic)] = []
    /// The stems that name no token but read as one, as apps name their recordings (`tts_yuan`: 元).
    private(set) var readings: [String: Token] = [:]

    init(_ sources: [SourceFile], naming: Naming, paths: PackPaths) {
        named.reserveCapacity(sources.count)
        var unnamed: [SourceFile] = []
        for source in sources {
            guard let token = naming.token(forStem: source.stem) else {
                unnamed.append(source)
                continue
            }
            byToken[token, default: []].append(source)
            named.append((token, source))
        }
        for source in unnamed {
            let (problem, reading) = Self.namesNoToken(source, naming: naming, paths: paths, named: byToken)
            problems.append((paths.display(source.url), problem))
            readings[source.stem] = reading
        }
        for (token, sources) in byToken.sorted(by: { $0.key < $1.key }) where sources.count > 1 {
            problems.append(
                (
                    token.text,
                    Diagnostic(
                        .error, .files(sources.map(\.url), shown: sources.map { paths.display($0.url) }), .naming,
                        .duplicate,
                        "\(sources.count) files for the token \(token)", fix: "keep one of them and remove the others")
                ))
        }
    }

    /// A recording whose stem names no token, with the stem it was likely meant to be when one is close, or the
    /// token its name likely says, as apps name their recordings (`tts_yuan`, `sound5`, `wan`): then that token too.
    /// Where a recording already names that token (`named`), renaming this one would make two: the fix says so.
    private static func namesNoToken(
        _ source: SourceFile, naming: Naming, paths: PackPaths, named: [Token: [SourceFile]]
    ) -> (Diagnostic, Token?) {
        let (subject, stem) = (paths.subject(source.url), source.stem)
        let readings = naming.readings(ofStem: stem)
        if readings.isEmpty, let problem = take(source, naming: naming, paths: paths, named: named) {
            return (problem, nil)
        }
        if let (near, token) = naming.nearestStem(to: stem), readings.isEmpty || readings == [token] {
            let fix =
                named[token].map { alreadySaid(token, by: $0[0], paths: paths) }
                ?? "rename it to \(renamed(source, to: near))"
            let problem = Diagnostic(
                .error, subject, .naming, .unnamed, "'\(stem)' names no token (did you mean '\(near)', for \(token)?)",
                fix: fix)
            return (problem, nil)
        }
        if let said = readings.first, readings.count == 1 {
            let problem = Diagnostic(
                .error, subject, .naming, .unnamed, "'\(stem)' names no token; its name reads as \(said)",
                fix:
                    "listen to it, then map it in assets.json (\"stems\": {\"\(stem)\": \"\(said)\"}) or rename it to \(renamed(source, to: naming.stem(for: said)))"
            )
            return (problem, said)
        }
        if !readings.isEmpty {
            let either = readings.map(\.text).joined(separator: " or ")
            let problem = Diagnostic(
                .error, subject, .naming, .unnamed,
                "'\(stem)' names no token; its name reads as \(either), apps say both",
                fix:
                    "listen to it, then map it in assets.json to the one it says (\"stems\": {\"\(stem)\": \"\(readings[0])\"}, or \"\(readings[1])\")"
            )
            return (problem, nil)
        }
        let problem = Diagnostic(
            .error, subject, .naming, .unnamed, "'\(stem)' names no token",
            fix:
                "rename it to a default stem (digit_1, unit_yuan…) or to the token itself (億.wav), map it under \"stems\" or \"phrases\" in assets.json, or move it out of \(paths.display(paths.raw))/ if no amount plays it"
        )
        return (problem, nil)
    }

    /// A copy or another take, named as a file manager or an editor names one (`digit_0 copy`, `digit_0 (1)`,
    /// `digit_0-old`, `digit_0_v2`; a name that reads as a token is said by the caller): beside the recording it
    /// copies, or alone, where it is its token's only take (a download saved twice, the first one deleted) and is to
    /// be named as the recording it copies.
    private static func take(
        _ source: SourceFile, naming: Naming, paths: PackPaths, named: [Token: [SourceFile]]
    ) -> Diagnostic? {
        let (subject, stem) = (paths.subject(source.url), source.stem)
        let separated = stem.indices.reversed().filter { beginsATake(stem[$0...]) }.map { String(stem[..<$0]) }
        let beside = named.flatMap { token, sources in sources.map { (token, $0) } }
            .filter { separated.contains($0.1.stem) }
            .max { $0.1.stem.count < $1.1.stem.count }
        if let (token, taken) = beside {
            return Diagnostic(
                .error, subject, .naming, .unnamed,
                "'\(stem)' names no token; it reads as another take of \(paths.display(taken.url)) (\(token))",
                fix: keepOne(taken, paths: paths))
        }
        guard
            let (original, token) = separated.lazy.compactMap({ prefix in
                naming.token(forStem: prefix).map { (prefix, $0) }
            }).first
        else { return nil }
        return Diagnostic(
            .error, subject, .naming, .unnamed,
            "'\(stem)' names no token; it reads as a take of \(original) (\(token))",
            fix: named[token].map { alreadySaid(token, by: $0[0], paths: paths) }
                ?? "rename it to \(renamed(source, to: original))")
    }

    /// Whether `rest` of a name is what a file manager or a designer adds to mark a copy or a take: from a space, a
    /// dash, a dot or a bracket (`（1）` as a Chinese input method writes it too), or an underscore before a version
    /// (`_2`, `_v2`, `_take3`, `_final`, `_副本`). An underscore before anything else goes on naming: `tts_ten_thousand`
    /// is not a take of `tts_ten`.
    static func beginsATake(_ rest: Substring) -> Bool {
        guard let first = rest.first else { return false }
        if " -(.（[【".contains(first) { return true }
        guard first == "_" else { return false }
        let mark = rest.dropFirst().lowercased()
        let number = mark.hasPrefix("take") ? mark.dropFirst(4) : mark.hasPrefix("v") ? mark.dropFirst() : mark[...]
        return (!number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber))
            || takeMarks.contains(mark)
    }

    static let takeMarks: Set<String> = [
        "take", "new", "old", "final", "copy", "bak", "backup", "alt", "edit", "edited", "fixed", "副本", "新", "旧", "最终",
    ]

    private static func keepOne(_ taken: SourceFile, paths: PackPaths) -> String {
        "keep the take you want, named \(taken.url.lastPathComponent), and remove the other or move it out of \(paths.display(paths.raw))/"
    }

    private static func alreadySaid(_ token: Token, by taken: SourceFile, paths: PackPaths) -> String {
        "\(paths.display(taken.url)) already says \(token): " + keepOne(taken, paths: paths)
    }

    /// The file's name with `stem` for its stem, its extension kept.
    private static func renamed(_ source: SourceFile, to stem: String) -> String {
        stem + source.url.lastPathComponent.dropFirst(source.stem.count)
    }

    /// The recordings that are their token's only one, in the sources' order: what a build makes fragments of.
    var unique: [(token: Token, source: SourceFile)] { named.filter { byToken[$0.token]!.count == 1 } }
}
