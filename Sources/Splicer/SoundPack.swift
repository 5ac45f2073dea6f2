import Foundation
import PackManifest
import SpeechText

#if canImport(CryptoKit)
    import CryptoKit
#endif

/// Computes a fragment file's SHA-256 as lowercase hex. On Apple platforms `SoundPack.cryptoKitSHA256`
/// does it; elsewhere the caller passes one (the `assets` tool passes OpenSSL's).
public typealias FragmentDigest = @Sendable (Data) -> String

/// A built pack, opened for splicing: its manifest, and its fragments loaded (and checked) as needed.
///
/// It refuses a manifest whose schema it does not know, whose paths leave its folder, or whose fragment
/// bytes do not match their `sha256` or their format. An iOS Notification Service Extension opens one from
/// its bundle or its App Group container.
public final class SoundPack: @unchecked Sendable {
    public let manifest: Manifest
    public let folder: URL
    private let digest: FragmentDigest
    private let staged: [String: URL]
    private let byToken: [Token: Manifest.Fragment]
    private let aliases: AliasResolver
    private let lock = NSLock()
    private var loaded: [Token: PCMAudio] = [:]

    #if canImport(CryptoKit)
        /// SHA-256 by CryptoKit.
        public static let cryptoKitSHA256: FragmentDigest = { data in
            CryptoKit.SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        }

        public convenience init(manifestAt url: URL) throws(SpliceError) {
            try self.init(manifestAt: url, digest: SoundPack.cryptoKitSHA256)
        }
    #endif

    /// The pack whose manifest is at `url`; `staged` as below.
    public convenience init(
        manifestAt url: URL, digest: @escaping FragmentDigest, staged: [String: URL] = [:]
    ) throws(SpliceError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SpliceError(
                .manifest, url.lastPathComponent, "cannot be read (\(error.localizedDescription)): run `assets build`")
        }
        try self.init(
            manifest: data, name: url.lastPathComponent, folder: url.deletingLastPathComponent(), digest: digest,
            staged: staged)
    }

    /// A pack whose manifest's bytes are `data` (`name` in errors), its paths relative to `folder`. `staged` gives,
    /// by their manifest paths, fragments that are not yet where the manifest says: a build measures the pack it
    /// has staged before it puts it in place.
    public init(
        manifest data: Data, name: String, folder: URL, digest: @escaping FragmentDigest, staged: [String: URL] = [:]
    ) throws(SpliceError) {
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(data, name: name)
        } catch {
            throw SpliceError(.manifest, name, error.message)
        }
        self.manifest = manifest
        self.folder = folder.standardizedFileURL
        self.digest = digest
        self.staged = staged
        guard manifest.format.channels == 1, [.pcm16, .pcm24, .float32].contains(manifest.format.sampleFormat) else {
            throw SpliceError(.unsupportedFormat, name, "fragments must be mono PCM")
        }
        var byToken: [Token: Manifest.Fragment] = [:]
        for fragment in manifest.fragments {
            _ = try SoundPack.resolve(fragment.file, in: folder)
            byToken[Token(fragment.token)] = fragment
        }
        self.byToken = byToken
        self.aliases = AliasResolver(
            Dictionary(manifest.aliases.map { (Token($0.key), Token($0.value)) }, uniquingKeysWith: { a, _ in a }))
    }

    /// The fragment that plays for `token`, by the rule of `AliasResolver`.
    public func fragment(for token: Token) -> Manifest.Fragment? {
        aliases.player(of: token) { byToken[$0] != nil }.flatMap { byToken[$0] }
    }

    /// The samples of `token`'s fragment, read and checked on first use.
    public func audio(for token: Token) throws(SpliceError) -> PCMAudio {
        guard let fragment = fragment(for: token) else {
            throw SpliceError(
                .missingFragment, token.text,
                "no fragment plays this token: add one, or an alias, and run `assets build`")
        }
        let key = Token(fragment.token)
        lock.lock()
        let cached = loaded[key]
        lock.unlock()
        if let cached { return cached }
        let audio = try load(fragment)
        lock.lock()
        loaded[key] = audio
        lock.unlock()
        return audio
    }

    /// Where the fragment file at manifest path `file` is read from: where the pack has it staged, or the path
    /// under the manifest's folder.
    public func location(of file: String) -> URL {
        staged[file] ?? folder.appendingPathComponent(file).standardizedFileURL
    }

    /// Loads every fragment now, so that splicing does no file work.
    public func loadAll() throws(SpliceError) {
        for fragment in manifest.fragments { _ = try audio(for: Token(fragment.token)) }
    }

    private func load(_ fragment: Manifest.Fragment) throws(SpliceError) -> PCMAudio {
        let url: URL
        if let stagedURL = staged[fragment.file] {
            url = stagedURL
        } else {
            url = try SoundPack.resolve(fragment.file, in: folder)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SpliceError(
                .unreadableFragment, fragment.file, "cannot be read (\(error.localizedDescription)): run `assets build`"
            )
        }
        // An app built from a clone that kept its audio in Git LFS and did not fetch it ships the pointers.
        guard !GitLFSPointer.looksLikeOne(data) else {
            throw SpliceError(
                .notFetched, fragment.file,
                "it is a Git LFS pointer, not the audio: this copy of the pack did not fetch it: run `git lfs pull`")
        }
        let actual = digest(data)
        guard actual == fragment.sha256 else {
            throw SpliceError(
                .checksumMismatch, fragment.file,
                "its bytes do not match the manifest (sha256 \(actual.prefix(12))…, expected \(fragment.sha256.prefix(12))…): run `assets build`"
            )
        }
        let decoded = try PCMFile.decode(data, name: fragment.file)
        let format = manifest.format
        guard decoded.audio.sampleRate == format.sampleRate, decoded.audio.sampleFormat == format.sampleFormat,
            decoded.container == format.container, decoded.audio.samples.count == fragment.frames
        else {
            throw SpliceError(
                .formatMismatch, fragment.file,
                "it is \(decoded.container.rawValue)/\(decoded.audio.sampleFormat.rawValue) at \(decoded.audio.sampleRate) Hz with \(decoded.audio.samples.count) frames; the manifest says \(format.container.rawValue)/\(format.sampleFormat.rawValue) at \(format.sampleRate) Hz with \(fragment.frames)"
            )
        }
        return decoded.audio
    }

    /// A manifest path as a URL inside `folder`; a path that leaves it is refused.
    static func resolve(_ path: String, in folder: URL) throws(SpliceError) -> URL {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !path.isEmpty, !parts.contains(".."), !path.contains("\\") else {
            throw SpliceError(
                .pathOutsidePack, path, "leaves the manifest's folder: fragment paths must be relative and inside it")
        }
        let url = folder.appendingPathComponent(path).standardizedFileURL
        // The folder holding the file exists even when the file does not: resolve links through it.
        let resolved = url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(
            url.lastPathComponent
        )
        .resolvingSymlinksInPath().path
        let base = folder.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
            throw SpliceError(.pathOutsidePack, path, "leads outside the manifest's folder through a link")
        }
        return url
    }
}

extension SoundPack {
    /// The largest amount the pack was checked for: its coverage and its longest utterance (under iOS's 30 s)
    /// hold up to it. Nil: every amount the converter says.
    public var maximumAmount: Amount? { manifest.maximumAmount.flatMap { try? Amount(parsing: $0) } }

    /// `amount` read as the pack reads it (`speechConverter`); refused over `maximumAmount`, where the pack may
    /// lack a fragment or make a sound iOS will not play, so that the app can fall back to its default sound.
    public func reading(of amount: Amount) throws(SpliceError) -> Reading {
        if let maximumAmount, amount > maximumAmount {
            throw SpliceError(
                .overMaximumAmount, amount.plain,
                "more than the pack says: its maximumAmount is \(maximumAmount.plain); play the default sound")
        }
        return speechConverter.reading(of: amount)
    }

    /// How the pack reads an amount: in the first style and form its manifest lists, as `assets say` does (the
    /// converter's spoken and yuan where it lists none this version knows), so the app says what the pack covers.
    public var speechConverter: SpeechConverter {
        SpeechConverter(
            style: manifest.styles.lazy.compactMap(ReadingStyle.init(rawValue:)).first ?? .spoken,
            form: manifest.forms.lazy.compactMap(AmountForm.init(rawValue:)).first ?? .yuan)
    }
}
