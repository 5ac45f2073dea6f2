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
        for source in sources {
            guard let token = naming.token(forStem: source.stem) else {
                let (problem, reading) = Self.namesNoToken(source, naming: naming, paths: paths)
                problems.append((paths.display(source.url), problem))
                readings[source.stem] = reading
                continue
            }
            byToken[token, default: []].append(source)
            named.append((token, source))
        }
        for (token, sources) in byToken.sorted(by: { $0.key < $1.key }) where sources.count > 1 {
            problems.append(
                (
                    token.text,
                    Diagnostic(
                        .error, .files(sources.map(\.url), shown: sources.map { paths.display($0.url) }), .naming,
                        "\(sources.count) files for the token \(token)", fix: "keep one of them and remove the others")
                ))
        }
    }

    /// A recording whose stem names no token, with the stem it was likely meant to be when one is close, or the
    /// token its name likely says, as apps name their recordings (`tts_yuan`, `sound5`, `wan`): then that token too.
    private static func namesNoToken(_ source: SourceFile, naming: Naming, paths: PackPaths) -> (Diagnostic, Token?) {
        let (subject, stem) = (paths.subject(source.url), source.stem)
        let readings = naming.readings(ofStem: stem)
        if let (near, token) = naming.nearestStem(to: stem), readings.isEmpty || readings == [token] {
            let problem = Diagnostic(
                .error, subject, .naming, "'\(stem)' names no token (did you mean '\(near)', for \(token)?)",
                fix: "rename it to \(renamed(source, to: near))")
            return (problem, nil)
        }
        if let said = readings.first, readings.count == 1 {
            let problem = Diagnostic(
                .error, subject, .naming, "'\(stem)' names no token; its name reads as \(said)",
                fix:
                    "listen to it, then map it in assets.json (\"stems\": {\"\(stem)\": \"\(said)\"}) or rename it to \(renamed(source, to: naming.stem(for: said)))"
            )
            return (problem, said)
        }
        if !readings.isEmpty {
            let either = readings.map(\.text).joined(separator: " or ")
            let problem = Diagnostic(
                .error, subject, .naming, "'\(stem)' names no token; its name reads as \(either), apps say both",
                fix:
                    "listen to it, then map it in assets.json to the one it says (\"stems\": {\"\(stem)\": \"\(readings[0])\"}, or \"\(readings[1])\")"
            )
            return (problem, nil)
        }
        let problem = Diagnostic(
            .error, subject, .naming, "'\(stem)' names no token",
            fix:
                "rename it to a default stem (digit_1, unit_yuan…) or to the token itself (億.wav), map it under \"stems\" or \"phrases\" in assets.json, or move it out of \(paths.display(paths.raw))/ if no amount plays it"
        )
        return (problem, nil)
    }

    /// The file's name with `stem` for its stem, its extension kept.
    private static func renamed(_ source: SourceFile, to stem: String) -> String {
        stem + source.url.lastPathComponent.dropFirst(source.stem.count)
    }

    /// The recordings that are their token's only one, in the sources' order: what a build makes fragments of.
    var unique: [(token: Token, source: SourceFile)] { named.filter { byToken[$0.token]!.count == 1 } }
}
