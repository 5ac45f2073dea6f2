import AudioPipeline
import Foundation
import SpeechText
import VoicePack

/// Why a session cannot be split: what is wrong and what to do. `labels` holds what was detected, when it was,
/// so that `--labels-out` can still write them for the designer to mend.
public struct SplitError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let fix: String
    public var labels: [AudacityLabel]?

    public init(_ message: String, fix: String, labels: [AudacityLabel]? = nil) {
        self.message = message
        self.fix = fix
        self.labels = labels
    }

    public var description: String { "\(message): \(fix)" }
}

/// What `assets split` is asked to do.
public struct SplitRequest: Sendable {
    public enum Source: Equatable, Sendable {
        /// Tokens or stems in the order they were read; one may come again (a retake).
        case expect([String])
        /// An Audacity label track: each label a token or a stem.
        case labels([AudacityLabel])
    }

    public enum Take: String, CaseIterable, Sendable {
        case first, last
    }

    public var session: URL
    public var sessionName: String
    public var raw: URL
    public var settings: Settings
    public var source: Source
    /// What `split` does unless told otherwise; its help says them from here.
    public static let defaults = (take: Take.last, minimumPauseMs: 250.0, marginBeforeMs: 30.0, marginAfterMs: 60.0)

    public var take = defaults.take
    public var minimumPauseMs = defaults.minimumPauseMs
    public var marginBeforeMs = defaults.marginBeforeMs
    public var marginAfterMs = defaults.marginAfterMs
    public var force = false

    public init(session: URL, sessionName: String, raw: URL, settings: Settings, source: Source) {
        self.session = session
        self.sessionName = sessionName
        self.raw = raw
        self.settings = settings
        self.source = source
    }
}

extension SplitRequest.Source {
    /// What `split` is given: `--expect` (tokens space-separated, or `@FILE` with one a line) or `--labels FILE` (an
    /// Audacity label track), the files' names resolved against `folder`.
    public static func read(expect: String?, labels: String?, folder: URL) throws(SplitError) -> Self {
        // A byte-order mark (Notepad writes one) is read past; Windows line ends split lines as others do.
        func read(_ name: String) throws(SplitError) -> String {
            do {
                let text = try String(contentsOf: PackPaths.resolve(name, against: folder), encoding: .utf8)
                return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
            } catch {
                throw SplitError("\(name): cannot be read as UTF-8 text", fix: "give a text file saved as UTF-8")
            }
        }
        if let labels { return .labels(try AudacityLabel.parse(try read(labels), name: labels)) }
        let list = expect ?? ""
        let text = list.hasPrefix("@") ? try read(String(list.dropFirst())) : list
        let separators: (Character) -> Bool = list.hasPrefix("@") ? { $0.isNewline } : { $0.isWhitespace }
        let tokens = text.split(whereSeparator: separators).map { $0.trimmingCharacters(in: .whitespaces) }
        return .expect(tokens.filter { !$0.isEmpty })
    }
}

/// The cut: which stretch of the session becomes which recording.
public struct SplitPlan: Sendable {
    public struct Piece: Sendable {
        public let token: Token
        /// As the list or the label wrote it.
        public let item: String
        public let frames: Range<Int>
        /// The file it becomes, in the raw folder.
        public let file: String
        /// Recordings of the same token already there, replaced (with `--force`).
        public let replaces: [String]
    }

    public let info: SoundFile.Info
    /// Every take, in session order, as Audacity labels: what `--labels-out` writes.
    public let labels: [AudacityLabel]
    /// The takes kept, in session order.
    public let pieces: [Piece]
    /// Tokens read more than once, in the order first read.
    public let retakes: [Token]
    public let format: FileFormat

    public func seconds(_ frame: Int) -> Double { Double(frame) / Double(info.sampleRate) }
}

/// `assets split`: one recording session in, one recording per token out, the session's samples unchanged.
public enum SessionSplitter {
    public static func plan(_ request: SplitRequest, progress: (Double) -> Void = { _ in }) throws(SplitError)
        -> SplitPlan
    {
        let naming = Naming(settings: request.settings)
        let items: [String]
        switch request.source {
        case .expect(let list): items = list
        case .labels(let labels): items = labels.map(\.text)
        }
        guard !items.isEmpty else {
            throw SplitError("nothing to split into: the list is empty", fix: "name the tokens read, in order")
        }
        var tokens: [Token] = []
        for item in items {
            guard let token = naming.token(forStem: item) else {
                if let (stem, token) = naming.nearestStem(to: item) {
                    throw SplitError(
                        "'\(item)' names no token (did you mean '\(stem)', for \(token)?)", fix: "write \(stem)")
                }
                throw SplitError(
                    "'\(item)' names no token", fix: "use a token (五, 元, 微信收款) or a stem (digit_5, unit_yuan)")
            }
            tokens.append(token)
        }
        let takes = try ranges(request, items: items, progress: progress)
        let labels = zip(takes.ranges, items).map { range, item in
            AudacityLabel(
                startSeconds: takes.seconds(range.lowerBound), endSeconds: takes.seconds(range.upperBound), text: item)
        }
        return try keep(request, takes: takes, tokens: tokens, items: items, labels: labels, naming: naming)
    }

    /// Each take's frames, in the order of `items`.
    private static func ranges(_ request: SplitRequest, items: [String], progress: (Double) -> Void) throws(SplitError)
        -> Takes
    {
        let name = request.sessionName
        let detector = UtteranceDetector(minimumPauseMs: request.minimumPauseMs, trim: Trim(request.settings.trim))
        func detect() throws(SplitError) -> (SoundFile.Info, [Range<Int>]) {
            do {
                let levels = try SessionLevels.read(path: request.session.path, name: name, progress: progress)
                return (levels.info, detector.utterances(in: levels))
            } catch {
                throw SplitError("\(error.file): \(error.problem)", fix: "give the session as WAV, FLAC or AIFF")
            }
        }
        switch request.source {
        case .expect:
            let (info, found) = try detect()
            let cut = Takes(info: info, ranges: withMargins(found, request, info: info))
            guard found.count == items.count else { throw miscount(cut, items: items, name: name) }
            return cut
        case .labels(let labels):
            return try labelled(labels, request, detect: detect)
        }
    }

    /// The session held another number of utterances than the list: each one found, and the labels to mend.
    private static func miscount(_ cut: Takes, items: [String], name: String) -> SplitError {
        let found = cut.ranges.count
        let listed = cut.ranges.enumerated().map { index, range in
            String(format: "%d: %.3f–%.3f s", index + 1, cut.seconds(range.lowerBound), cut.seconds(range.upperBound))
        }
        let labels = cut.ranges.enumerated().map { index, range in
            AudacityLabel(
                startSeconds: cut.seconds(range.lowerBound), endSeconds: cut.seconds(range.upperBound),
                text: index < items.count ? items[index] : "?")
        }
        return SplitError(
            "found \(counted(found, "utterance")) in \(name), the list has \(items.count) (\(listed.joined(separator: ", ")))",
            fix:
                "write them with --labels-out, mend the labels in Audacity, and split with --labels; or set --min-pause-ms",
            labels: labels)
    }

    /// The takes as the labels set them: a range label cut exactly, a point label the utterance it stands in.
    private static func labelled(
        _ labels: [AudacityLabel], _ request: SplitRequest,
        detect: () throws(SplitError) -> (SoundFile.Info, [Range<Int>])
    ) throws(SplitError) -> Takes {
        var info: SoundFile.Info
        var found: [Range<Int>] = []
        if labels.contains(where: \.isPoint) {
            (info, found) = try detect()
        } else {
            do {
                info = try SoundFile.open(reading: request.session.path, name: request.sessionName).info
            } catch {
                throw SplitError("\(error.file): \(error.problem)", fix: "give the session as WAV, FLAC or AIFF")
            }
        }
        let rate = Double(info.sampleRate)
        let detected = withMargins(found, request, info: info)
        var ranges: [Range<Int>] = []
        for (index, label) in labels.enumerated() {
            let start = min(info.frames, Int((label.startSeconds * rate).rounded()))
            guard label.isPoint else {
                ranges.append(start..<max(start, min(info.frames, Int((label.endSeconds * rate).rounded()))))
                continue
            }
            // A point label names the utterance it stands in, or the first one after it.
            let limit = index + 1 < labels.count ? Int(labels[index + 1].startSeconds * rate) : info.frames
            guard let take = zip(found, detected).first(where: { $0.0.upperBound > start && $0.0.lowerBound < limit })
            else {
                throw SplitError(
                    "the point label '\(label.text)' at \(String(format: "%.3f", label.startSeconds)) s stands at no utterance",
                    fix: "move it onto the utterance, or give the label a range")
            }
            ranges.append(take.1)
        }
        return Takes(info: info, ranges: ranges)
    }

    /// Each utterance with the margins before and after, never reaching into its neighbours' sound.
    static func withMargins(_ found: [Range<Int>], _ request: SplitRequest, info: SoundFile.Info) -> [Range<Int>] {
        let before = Int(request.marginBeforeMs * Double(info.sampleRate) / 1000)
        let after = Int(request.marginAfterMs * Double(info.sampleRate) / 1000)
        return found.enumerated().map { index, range in
            let low = index > 0 ? found[index - 1].upperBound : 0
            let high = index + 1 < found.count ? found[index + 1].lowerBound : info.frames
            return max(low, range.lowerBound - before)..<min(high, range.upperBound + after)
        }
    }

    /// The takes kept (the first or the last of each token), their files, and what they replace.
    private static func keep(
        _ request: SplitRequest, takes: Takes, tokens: [Token], items: [String], labels: [AudacityLabel],
        naming: Naming
    ) throws(SplitError) -> SplitPlan {
        var chosen: [Token: Int] = [:]
        var retakes: [Token] = []
        for (index, token) in tokens.enumerated() {
            if chosen[token] != nil, !retakes.contains(token) { retakes.append(token) }
            if chosen[token] == nil || request.take == .last { chosen[token] = index }
        }
        let format = outputFormat(of: takes.info.format)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: request.raw.path)) ?? []
        var pieces: [SplitPlan.Piece] = []
        var refused: [String] = []
        for index in chosen.values.sorted() {
            let token = tokens[index]
            let replaces = existing.filter { name in
                !name.hasPrefix(".") && naming.token(forStem: (name as NSString).deletingPathExtension) == token
            }.sorted()
            if !replaces.isEmpty && !request.force { refused += replaces }
            pieces.append(
                SplitPlan.Piece(
                    token: token, item: items[index], frames: takes.ranges[index],
                    file: "\(naming.stem(for: token)).\(format.container)", replaces: replaces))
        }
        if !refused.isEmpty {
            throw SplitError(
                "\(request.raw.lastPathComponent)/ already has \(refused.joined(separator: ", "))",
                fix: "move them away, or split with --force to replace them")
        }
        return SplitPlan(
            info: takes.info, labels: labels, pieces: pieces, retakes: retakes, format: format)
    }

    /// WAV in the session's own encoding, or FLAC when the session is FLAC; float WAV for a lossy session.
    static func outputFormat(of session: FileFormat) -> FileFormat {
        if session.container == "flac" { return session }
        let kept = ["pcm8", "pcmu8", "pcm16", "pcm24", "pcm32", "float32", "float64"]
        return FileFormat(container: "wav", encoding: kept.contains(session.encoding) ? session.encoding : "float32")
    }

    /// Writes every piece beside its final name, then renames them all, removing what they replace: a failure
    /// leaves the raw folder as it was.
    public static func write(_ plan: SplitPlan, _ request: SplitRequest) throws(SplitError) {
        let manager = FileManager.default
        var staged: [(temporary: URL, final: URL)] = []
        func undo() { for file in staged { try? manager.removeItem(at: file.temporary) } }
        do {
            try manager.createDirectory(at: request.raw, withIntermediateDirectories: true)
            let session = try SoundFile.open(reading: request.session.path, name: request.sessionName)
            for piece in plan.pieces {
                let temporary = request.raw.appendingPathComponent(".assets-split-\(UUID().uuidString)-\(piece.file)")
                staged.append((temporary, request.raw.appendingPathComponent(piece.file)))
                let output = try SoundFile.create(
                    writing: temporary.path, format: plan.format, sampleRate: plan.info.sampleRate,
                    channels: plan.info.channels)
                try session.copy(frames: piece.frames, to: output)
                try output.close()
            }
            try session.close()
        } catch let error as AudioError {
            undo()
            throw SplitError("\(error.file): \(error.problem)", fix: error.fix)
        } catch {
            undo()
            throw SplitError("\(request.raw.path): \(error.localizedDescription)", fix: "check that it is writable")
        }
        do {
            for piece in plan.pieces {
                for old in piece.replaces { try? manager.removeItem(at: request.raw.appendingPathComponent(old)) }
            }
            for file in staged { try manager.moveItem(at: file.temporary, to: file.final) }
        } catch {
            undo()
            throw SplitError("\(request.raw.path): \(error.localizedDescription)", fix: "check that it is writable")
        }
    }
}

/// Each take's frames in the session.
struct Takes {
    let info: SoundFile.Info
    let ranges: [Range<Int>]
    func seconds(_ frame: Int) -> Double { Double(frame) / Double(info.sampleRate) }
}
