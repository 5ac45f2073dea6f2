import Foundation

/// One recording found in the raw folder.
public struct SourceFile: Equatable, Sendable {
    public let url: URL
    /// Relative to the manifest's folder, as the manifest writes it.
    public let path: String
    /// The file name without its extension.
    public let stem: String
    public let status: FileStatus
}

/// Finds the recordings under the raw folder, in sorted order.
///
/// Hidden files and documents that travel with deliveries (`README.txt`, `.DS_Store`, `notes.pdf`) are
/// skipped; everything else is taken for a recording, so a file libsndfile cannot read is reported rather
/// than ignored. Sub-folders are searched; links to folders are not followed, so a link loop cannot trap
/// the walk.
public struct SourceScanner: Sendable {
    static let documentExtensions: Set<String> = [
        "txt", "md", "markdown", "pdf", "rtf", "doc", "docx", "json", "xml", "ini", "db", "plist", "csv", "html",
        "htm", "png", "jpg", "jpeg", "gif", "zip",
    ]

    public let paths: PackPaths

    public init(paths: PackPaths) { self.paths = paths }

    public func scan() -> (sources: [SourceFile], skipped: [String], problems: [Diagnostic]) {
        var sources: [SourceFile] = []
        var skipped: [String] = []
        var problems: [Diagnostic] = []
        guard let status = FileStatus.of(paths.raw.path), status.isDirectory else {
            problems.append(
                Diagnostic(
                    .error, paths.display(paths.raw), "naming", "the recordings folder does not exist",
                    fix: "create it and put the recordings in it, or point --raw (or \"raw\" in assets.json) at them"))
            return ([], [], problems)
        }
        walk(
            paths.raw, relative: paths.manifestRelative(paths.raw), into: &sources, skipped: &skipped,
            problems: &problems)
        sources.sort { $0.path.unicodeScalars.lexicographicallyPrecedes($1.path.unicodeScalars) }
        return (sources, skipped, problems)
    }

    /// `relative` is `folder` relative to the manifest's folder, worked out once rather than per file.
    private func walk(
        _ folder: URL, relative: String, into sources: inout [SourceFile], skipped: inout [String],
        problems: inout [Diagnostic]
    ) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            problems.append(
                Diagnostic(
                    .error, paths.display(folder), "naming", "the folder cannot be read (\(Self.reason(error)))",
                    fix: "make it readable"))
            return
        }
        for name in names.sorted() {
            let url = folder.appendingPathComponent(name)
            if name.hasPrefix(".") || Self.documentExtensions.contains((name as NSString).pathExtension.lowercased())
                || name == "Thumbs.db" || name == "desktop.ini"
            {
                skipped.append(paths.display(url))
                continue
            }
            guard let status = FileStatus.of(url.path) else {
                let said = FileStatus.lastError
                problems.append(
                    Diagnostic(
                        .error, paths.display(url), "naming", "cannot be read (\(said))",
                        fix: FileStatus.isSymbolicLink(url.path)
                            ? "point the link at a recording, or remove it" : "make it readable, or remove it"))
                continue
            }
            if status.isDirectory {
                if FileStatus.isSymbolicLink(url.path) {
                    skipped.append(paths.display(url))
                } else {
                    walk(url, relative: relative + "/" + name, into: &sources, skipped: &skipped, problems: &problems)
                }
                continue
            }
            guard status.isRegularFile else {
                skipped.append(paths.display(url))
                continue
            }
            sources.append(
                SourceFile(
                    url: url, path: relative == "." ? name : relative + "/" + name,
                    stem: (name as NSString).deletingPathExtension, status: status))
        }
    }

    static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return error.localizedDescription
    }
}
