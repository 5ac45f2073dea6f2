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

    init(_ sources: [SourceFile], naming: Naming, paths: PackPaths) {
        named.reserveCapacity(sources.count)
        for source in sources {
            guard let token = naming.token(forStem: source.stem) else {
                problems.append((paths.display(source.url), Self.namesNoToken(source, naming: naming, paths: paths)))
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

    /// A recording whose stem names no token, with the stem it was likely meant to be when one is close.
    private static func namesNoToken(_ source: SourceFile, naming: Naming, paths: PackPaths) -> Diagnostic {
        guard let (stem, token) = naming.nearestStem(to: source.stem) else {
            return Diagnostic(
                .error, paths.subject(source.url), .naming, "'\(source.stem)' names no token",
                fix:
                    "rename it to a default stem (digit_1, unit_yuan…) or to the token itself (億.wav), or map it under \"stems\" or \"phrases\" in assets.json"
            )
        }
        let renamed = stem + source.url.lastPathComponent.dropFirst(source.stem.count)  // its extension kept
        return Diagnostic(
            .error, paths.subject(source.url), .naming,
            "'\(source.stem)' names no token (did you mean '\(stem)', for \(token)?)", fix: "rename it to \(renamed)")
    }

    /// The recordings that are their token's only one, in the sources' order: what a build makes fragments of.
    var unique: [(token: Token, source: SourceFile)] { named.filter { byToken[$0.token]!.count == 1 } }
}
