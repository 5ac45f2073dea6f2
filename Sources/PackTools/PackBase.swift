import Foundation
import VoicePack

/// The pack a diff compares with: another copy in a folder, or the same pack as a git revision holds it.
///
/// A revision's files are read with `git archive` into a temporary folder outside the work tree, so nothing
/// is checked out or written in the repository; the folder goes when the base is released. Its fragment files
/// that git says are the same in the work tree are not written out but read from there (`borrowed`): a refresh
/// of a few recordings in a pack of thousands writes the few.
public final class PackBase: Sendable {
    /// What the base was named as (`HEAD`, `origin/main`, a folder), for the report.
    public let name: String
    /// The base's manifest, at the same path relative to its folder as the pack's.
    public let manifest: URL
    /// The base's settings: its `assets.json` when it has one, else the defaults.
    public let settings: Settings
    /// By their manifest paths, the base's fragments read from the pack's own folder: a revision's files that the
    /// work tree holds byte for byte.
    public let borrowed: [String: URL]
    /// The base's fragment files that a revision keeps in Git LFS and this clone has not fetched (nil when it has
    /// every one): pointers, not audio.
    public let unfetched: Unfetched?
    private let temporary: URL?

    /// Fragment files of the base kept in Git LFS that this clone has not fetched.
    public struct Unfetched: Equatable, Sendable, Encodable {
        /// Their manifest paths, sorted.
        public let files: [String]
        /// What fetches them: `git lfs fetch origin main`.
        public let fetch: String
    }

    private init(
        name: String, manifest: URL, settings: Settings, borrowed: [String: URL] = [:], unfetched: Unfetched? = nil,
        temporary: URL?
    ) {
        self.name = name
        self.manifest = manifest
        self.settings = settings
        self.borrowed = borrowed
        self.unfetched = unfetched
        self.temporary = temporary
    }

    deinit {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Why a base cannot be read: exit status 2, the message naming the problem.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The base named `name`: a folder when one exists at that path (relative to `currentFolder`), else a git
    /// revision of the repository that holds the pack.
    public static func open(
        _ name: String, paths: PackPaths, settingsFile: URL?, currentFolder: URL
    ) throws(Problem) -> PackBase {
        var isFolder: ObjCBool = false
        let folder = PackPaths.resolve(name, against: currentFolder).standardizedFileURL
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue {
            return try copy(in: folder, name: name, paths: paths, settingsFile: settingsFile)
        }
        return try revision(name, paths: paths, settingsFile: settingsFile)
    }

    /// Another copy of the pack in `folder`, laid out as this one is (its manifest at the same relative path).
    static func copy(in folder: URL, name: String, paths: PackPaths, settingsFile: URL?) throws(Problem) -> PackBase {
        let manifestPath = PackPaths.relative(paths.manifest.path, to: paths.root.path)
        let manifest = PackPaths.resolve(manifestPath, against: folder)
        guard FileManager.default.fileExists(atPath: manifest.path) else {
            throw Problem(message: "\(name): holds no \(manifestPath): give a folder with a built copy of the pack")
        }
        let settings = try settings(
            at: settingsFile.map { folder.appendingPathComponent(PackPaths.relative($0.path, to: paths.root.path)) },
            name: name)
        return PackBase(name: name, manifest: manifest, settings: settings, temporary: nil)
    }

    /// The pack as `revision` of the git repository around it holds it.
    static func revision(_ revision: String, paths: PackPaths, settingsFile: URL?) throws(Problem) -> PackBase {
        guard let top = Git(folder: paths.manifest.deletingLastPathComponent()).run(["rev-parse", "--show-toplevel"])
        else {
            throw Problem(
                message:
                    "\(revision): no such folder, and \(paths.display(paths.manifest.deletingLastPathComponent())) is not in a git repository: give a folder with a copy of the pack, or run diff inside the pack's repository"
            )
        }
        let repository = URL(fileURLWithPath: String(decoding: top, as: UTF8.self).trimmingCharacters(in: .newlines))
            .resolvingSymlinksInPath()
        // From the top, where paths in the repository mean what they say: in a folder of it, `git archive` and
        // `git diff` would take them as relative to that folder (a pack in an app's repository).
        let git = Git(folder: repository)
        guard git.run(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]) != nil else {
            throw Problem(
                message:
                    "\(revision): not a folder and not a revision of \(repository.path): name a commit, a branch or a tag"
            )
        }
        func inRepository(_ url: URL) -> String {
            PackPaths.relative(url.resolvingSymlinksInPath().path, to: repository.path)
        }
        let manifestPath = inRepository(paths.manifest)
        guard git.run(["cat-file", "-e", "\(revision):\(manifestPath)"]) != nil else {
            throw Problem(
                message:
                    "\(revision): has no \(manifestPath) (the pack was not built and committed there): give a revision that holds the built pack"
            )
        }
        let outPath = inRepository(paths.out)
        let configPath = settingsFile.map(inRepository)
        let (fragments, borrowed) = Self.sameInWorkTree(
            revision, folder: outPath, git: git, repository: repository,
            manifestFolder: paths.manifest.deletingLastPathComponent().resolvingSymlinksInPath())
        let wanted =
            [manifestPath, configPath].compactMap { $0 }.filter {
                git.run(["cat-file", "-e", "\(revision):\($0)"]) != nil
            } + fragments
        let temporary = try writeOut(wanted, of: revision, git: git)
        let unfetched = LFSStore(git: git, repository: repository).fill(
            temporary, manifestFolder: (manifestPath as NSString).deletingLastPathComponent)
        let settings: Settings
        do {
            settings = try Self.settings(
                at: configPath.map { temporary.appendingPathComponent($0) }, name: "\(revision):\(configPath ?? "")")
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return PackBase(
            name: revision, manifest: temporary.appendingPathComponent(manifestPath), settings: settings,
            borrowed: borrowed,
            unfetched: unfetched.isEmpty
                ? nil : Unfetched(files: unfetched, fetch: LFSStore.fetchCommand(revision, git: git)),
            temporary: temporary)
    }

    /// The files at `paths` (in the repository) as `revision` holds them, written into a new temporary folder.
    private static func writeOut(_ paths: [String], of revision: String, git: Git) throws(Problem) -> URL {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "assets-diff-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        } catch {
            throw Problem(message: "\(temporary.path): cannot be made (\(error.localizedDescription))")
        }
        let archive = temporary.appendingPathComponent("base.tar")
        let arguments = ["archive", "--format=tar", "--output=\(archive.path)", revision, "--"] + paths
        // With Git LFS set up, git archive has git-lfs fetch each file the clone lacks, and fails whole when one
        // cannot be fetched (no network, no credentials). Then its pointers are written out: `LFSStore` takes
        // what it can from the clone, and the diff says what is missing.
        var failure = git.failure(arguments)
        if failure != nil { failure = git.failure(arguments, environment: ["GIT_LFS_SKIP_SMUDGE": "1"]) }
        guard failure == nil, Git.untar(archive, into: temporary) else {
            try? FileManager.default.removeItem(at: temporary)
            throw Problem(
                message: "\(revision): its files could not be read with git archive"
                    + (failure.map { " (\($0))" } ?? ""))
        }
        try? FileManager.default.removeItem(at: archive)
        return temporary
    }

    /// What `revision` holds under `folder` (paths in the repository) split in two: the files to write out (the
    /// whole folder when most differ), and those the work tree holds byte for byte, by their path from the
    /// manifest's folder, to read from there. `git diff` names the files that differ; it compares contents, so a
    /// fragment touched or damaged since is written out.
    private static func sameInWorkTree(
        _ revision: String, folder: String, git: Git, repository: URL, manifestFolder: URL
    ) -> (writeOut: [String], borrowed: [String: URL]) {
        func files(_ arguments: [String]) -> [String]? {
            git.run(arguments).map { $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } }
        }
        guard let held = files(["ls-tree", "-r", "-z", "--name-only", revision, "--", folder]),
            !held.isEmpty
        else { return ([], [:]) }
        guard let differ = files(["diff", "--name-only", "-z", "--no-renames", revision, "--", folder]).map(Set.init),
            differ.count * 2 < held.count
        else { return ([folder], [:]) }
        var borrowed: [String: URL] = [:]
        for path in held where !differ.contains(path) {
            let file = repository.appendingPathComponent(path)
            borrowed[PackPaths.relative(file.path, to: manifestFolder.path)] = file
        }
        return (held.filter(differ.contains), borrowed)
    }

    private static func settings(at url: URL?, name: String) throws(Problem) -> Settings {
        guard let url, FileManager.default.fileExists(atPath: url.path) else { return Settings() }
        do {
            return try Settings.load(contentsOf: url, name: name)
        } catch {
            throw Problem(message: "the base's settings are not valid: \(error.description)")
        }
    }
}

/// `git` run in a folder: its output read whole, nil on a failure; `failure` says why in git's words.
struct Git {
    let folder: URL

    func run(_ arguments: [String]) -> Data? {
        guard let ran = Self.process("/usr/bin/env", ["git"] + arguments, in: folder), ran.status == 0 else {
            return nil
        }
        return ran.output
    }

    /// Why `git arguments` failed, in git's words (its message's last line); nil when it did not.
    func failure(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        // Its messages go to a file, read once it is done: a pipe left unread could fill and stall it.
        let messages = FileManager.default.temporaryDirectory.appendingPathComponent("assets-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: messages) }
        guard FileManager.default.createFile(atPath: messages.path, contents: nil),
            let errors = try? FileHandle(forWritingTo: messages)
        else { return "\(messages.path) cannot be made" }
        defer { try? errors.close() }
        let ran = Self.process("/usr/bin/env", ["git"] + arguments, in: folder, errors: errors, adding: environment)
        guard let status = ran?.status else { return "git cannot be run" }
        guard status != 0 else { return nil }
        let said = String(decoding: (try? Data(contentsOf: messages)) ?? Data(), as: UTF8.self)
        return said.split(whereSeparator: \.isNewline).last.map(String.init) ?? "exit status \(status)"
    }

    static func untar(_ archive: URL, into folder: URL) -> Bool {
        process("/usr/bin/env", ["tar", "-xf", archive.path], in: folder)?.status == 0
    }

    /// The tool's exit status and output; nil when it cannot be run.
    private static func process(
        _ tool: String, _ arguments: [String], in folder: URL, errors: FileHandle = .nullDevice,
        adding environment: [String: String] = [:]
    ) -> (status: Int32, output: Data)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        // Not `waitUntilExit`: on Linux it checks in steps of 50 ms, which would be most of a diff's time.
        while process.isRunning { usleep(500) }
        return (process.terminationStatus, data)
    }
}
