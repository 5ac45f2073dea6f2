import Foundation
import PackManifest
import SpeechText
import VoicePack

/// What the last build left that this one can reuse.
///
/// When the record of the last build vouches for the manifest — written under the same settings and not
/// touched since — the manifest is only split into its fragments' texts, and a fragment whose source and
/// output have not moved is carried over as its text: a changed recording in a pack of thousands costs
/// that one fragment, not a decode and an encode of the whole manifest. Otherwise the manifest is decoded.
struct PreviousPack: Sendable {
    /// The manifest's bytes as read (none when there is no manifest).
    let data: [UInt8]
    /// The files the last manifest lists, relative to its folder.
    let files: [String]
    private let kind: Kind

    private enum Kind: Sendable {
        case recorded(RecordedBuild, texts: [String: ArraySlice<UInt8>])
        /// The decoded fragments by token; none when the manifest was built under other settings.
        case decoded([String: Manifest.Fragment])
    }

    /// `force` keeps nothing: every fragment is built again.
    static func load(
        paths: PackPaths, settings: Settings, fingerprint: String, record recorded: RecordedBuild?, force: Bool
    ) -> PreviousPack {
        let read = FileStatus.contents(of: paths.manifest.path)
        let data = read?.bytes ?? []
        if !force, let recorded, case let record = recorded.record, record.settings == fingerprint,
            let status = read?.status, status.size == record.manifestSize, status.modified == record.manifestModified,
            let texts = Manifest.fragmentTexts(in: data), texts.count == record.entries.count
        {
            return PreviousPack(
                data: data, files: record.entries.map(\.output), kind: .recorded(recorded, texts: texts))
        }
        guard !data.isEmpty, let manifest = try? Manifest.decode(Data(data), name: paths.display(paths.manifest))
        else {
            return PreviousPack(data: data, files: [], kind: .decoded([:]))
        }
        let compatible = !force && manifest.shapesSamplesLike(Manifest.header(settings))
        let byToken =
            compatible
            ? Dictionary(manifest.fragments.map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
        return PreviousPack(data: data, files: manifest.fragments.map(\.file), kind: .decoded(byToken))
    }

    /// The fragment for `token` as its text, when the record says neither `source` nor the output moved.
    func carried(_ token: Token, source: SourceFile) -> NewEntry? {
        guard case .recorded(let recorded, let texts) = kind, let (entry, output) = recorded.unmoved(source),
            entry.token == token.text, let text = texts[token.text]
        else { return nil }
        return NewEntry(carried: text, entry: entry, outputStatus: output)
    }

    /// The last manifest's fragment for `token`, decoded, if it was built under these settings.
    func fragment(_ token: Token) -> Manifest.Fragment? {
        switch kind {
        case .recorded(_, let texts): return texts[token.text].flatMap { try? Manifest.decodeFragment($0) }
        case .decoded(let byToken): return byToken[token.text]
        }
    }
}

/// A fragment of the manifest being written: its text, and what the record of the build keeps of it.
struct NewEntry: Sendable {
    let token: String
    let file: String
    let sourceFile: String
    let sourceSHA256: String
    let sha256: String
    let text: ArraySlice<UInt8>
    /// The output's status as this build last looked at it (a new one in the staging folder: the rename
    /// into place keeps its size and time); nil when it could not be looked at, and then it is not recorded.
    let outputStatus: FileStatus?

    init(_ fragment: Manifest.Fragment, outputStatus: FileStatus?) {
        token = fragment.token
        file = fragment.file
        sourceFile = fragment.source.file
        sourceSHA256 = fragment.source.sha256
        sha256 = fragment.sha256
        text = Manifest.canonicalText(of: fragment)[...]
        self.outputStatus = outputStatus
    }

    /// A fragment carried over as the last manifest's text, as the record describes it.
    init(carried text: ArraySlice<UInt8>, entry: BuildRecord.Entry, outputStatus: FileStatus) {
        token = entry.token
        file = entry.output
        sourceFile = entry.source
        sourceSHA256 = entry.sourceSHA256
        sha256 = entry.outputSHA256
        self.text = text
        self.outputStatus = outputStatus
    }
}
