import Foundation
import SpeechText

/// One recording found in the raw folder.
public struct SourceFile: Equatable, Sendable {
    /// The file's path as the scanner reached it (the raw folder's path and the names below it).
    public let fullPath: String
    /// Relative to the manifest's folder, as the manifest writes it.
    public let path: String
    /// The file name without its extension.
    public let stem: String
    public let status: FileStatus

    public var url: URL { URL(fileURLWithPath: fullPath) }
}

/// Finds the recordings under the raw folder, in sorted order.
///
/// Hidden files, documents and the marks operating systems leave that travel with deliveries (`README.txt`,
/// `.DS_Store`, `notes.pdf`, `digit_1.wav:Zone.Identifier`) are skipped; everything else is taken for a
/// recording, so a file libsndfile cannot read is reported rather than ignored. Sub-folders are searched; links to
/// folders are not followed, so a link loop cannot trap the walk.
public struct SourceScanner: Sendable {
    static let documentExtensions: Set<String> = [
        "txt", "md", "markdown", "pdf", "rtf", "doc", "docx", "json", "xml", "ini", "db", "plist", "csv", "html",
        "htm", "png", "jpg", "jpeg", "gif", "zip",
    ]

    /// Files that travel with a delivery without being recordings: hidden files (`.DS_Store`, and the AppleDouble
    /// `._digit_1.wav` macOS leaves on shared and external drives), documents (`Thumbs.db` and `desktop.ini`
    /// among them), and `digit_1.wav:Zone.Identifier`, the mark Windows gives a downloaded file, which becomes a
    /// file of its own when the recording is copied into WSL or onto a Linux drive.
    static func travelsWithRecordings(_ name: String, pathExtension: String) -> Bool {
        name.hasPrefix(".") || documentExtensions.contains(pathExtension.lowercased())
            || name.lowercased().hasSuffix(":zone.identifier")
    }

    public let paths: PackPaths

    public init(paths: PackPaths) { self.paths = paths }

    public func scan() -> (sources: [SourceFile], skipped: [String], problems: [Diagnostic]) {
        var sources: [SourceFile] = []
        var skipped: [String] = []
        var problems: [Diagnostic] = []
        guard let status = FileStatus.of(paths.raw.path), status.isDirectory else {
            problems.append(
                Diagnostic(
                    .error, .missingFile(paths.raw, shown: paths.display(paths.raw)), .naming, .folder,
                    "the recordings folder does not exist",
                    fix: "create it and put the recordings in it, or point --raw (or \"raw\" in assets.json) at them"))
            return ([], [], problems)
        }
        var nested = false
        walk(
            paths.raw.path, relative: paths.manifestRelative(paths.raw), into: &sources, skipped: &skipped,
            problems: &problems, nested: &nested)
        // Names are walked in order, so the paths of one folder are already in order; a sub-folder's paths
        // sort among its parent's files by the whole path ("a.wav" before "a/b.wav").
        if nested { sources = sources.sorted { Token.inScalarOrder($0.path, $1.path) } }
        return (sources, skipped, problems)
    }

    /// `relative` is `folder` relative to the manifest's folder, worked out once rather than per file; paths
    /// are joined as strings, since a URL per file costs more than the `stat`.
    private func walk(
        _ folder: String, relative: String, into sources: inout [SourceFile], skipped: inout [String],
        problems: inout [Diagnostic], nested: inout Bool
    ) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            problems.append(
                Diagnostic(
                    .error, paths.subject(URL(fileURLWithPath: folder)), .naming, .folder,
                    "the folder cannot be read (\(Self.reason(error)))",
                    fix: "make it readable"))
            return
        }
        for name in names.sorted(by: Token.inScalarOrder) {
            let path = folder + "/" + name
            func display() -> String { paths.display(URL(fileURLWithPath: path)) }
            let (stem, pathExtension) = Self.split(name)
            if Self.travelsWithRecordings(name, pathExtension: pathExtension) {
                skipped.append(display())
                continue
            }
            guard let status = FileStatus.of(path) else {
                let said = FileStatus.lastError
                problems.append(
                    Diagnostic(
                        .error, .file(URL(fileURLWithPath: path), shown: display()), .naming, .unreadable,
                        "cannot be read (\(said))",
                        fix: FileStatus.isSymbolicLink(path)
                            ? "point the link at a recording, or remove it" : "make it readable, or remove it"))
                continue
            }
            if status.isDirectory {
                if FileStatus.isSymbolicLink(path) {
                    skipped.append(display())
                } else {
                    nested = true
                    walk(
                        path, relative: relative + "/" + name, into: &sources, skipped: &skipped, problems: &problems,
                        nested: &nested)
                }
                continue
            }
            guard status.isRegularFile else {
                skipped.append(display())
                continue
            }
            sources.append(
                SourceFile(
                    fullPath: path, path: relative == "." ? name : relative + "/" + name,
                    stem: stem, status: status))
        }
    }

    /// A file name's stem and extension, split at the last dot (not a leading one), as `NSString`'s
    /// `deletingPathExtension` and `pathExtension` do, without bridging each name.
    static func split(_ name: String) -> (stem: String, pathExtension: String) {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else {
            return (name, "")
        }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return error.localizedDescription
    }
}
