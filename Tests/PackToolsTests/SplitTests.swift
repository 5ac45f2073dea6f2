import AudioPipeline
import Foundation
import SpeechText
import TestSupport
import Testing
import VoicePack

@testable import PackTools

/// `assets split` on sessions made by code: every token of spoken/yuan read in one take over a noise floor,
/// with random pauses of 0.35–1.2 s, breaths in the long pauses and a retake, each utterance's place known.
@Suite struct SplitTests {
    static func request(_ session: RecordingSession, _ source: SplitRequest.Source) -> SplitRequest {
        var settings = Settings()
        settings.styles = [.spoken]
        settings.forms = [.yuan]
        return SplitRequest(
            session: session.path, sessionName: "session.wav", raw: session.folder.appendingPathComponent("raw-audio"),
            settings: settings, source: source)
    }

    static func samples(_ path: URL) throws -> [Float] {
        let file = try SoundFile.open(reading: path.path, name: path.lastPathComponent)
        return try file.readChannels(name: path.lastPathComponent, maxFrames: .max)[0]
    }

    @Test(arguments: [UInt64(5), 6, 7])
    func eachRecordingIsItsWholeUtteranceAndNothingOfItsNeighbours(seed: UInt64) throws {
        let session = try RecordingSession.make(seed: seed)
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let request = Self.request(session, .expect(session.items))
        let plan = try SessionSplitter.plan(request)
        #expect(plan.pieces.count == 20)
        #expect(plan.retakes == ["五"])
        try SessionSplitter.write(plan, request)
        let whole = try Self.samples(session.path)
        for piece in plan.pieces {
            let read = session.items.indices.filter {
                Naming(settings: request.settings).token(forStem: session.items[$0]) == piece.token
            }
            // The later take of 五 is kept.
            let index = read.last!
            let utterance = session.utterances[index]
            #expect(piece.frames.lowerBound <= utterance.lowerBound, "\(piece.token): the onset is cut")
            #expect(piece.frames.upperBound >= utterance.upperBound, "\(piece.token): the decay is cut")
            if index > 0 { #expect(piece.frames.lowerBound >= session.utterances[index - 1].upperBound) }
            if index + 1 < session.utterances.count {
                #expect(piece.frames.upperBound <= session.utterances[index + 1].lowerBound)
            }
            let output = session.folder.appendingPathComponent("raw-audio/\(piece.file)")
            let file = try SoundFile.open(reading: output.path, name: piece.file)
            #expect(file.info.sampleRate == 48_000 && file.info.channels == 1)
            #expect(file.info.format == FileFormat(container: "wav", encoding: "pcm24"))
            #expect(try Self.samples(output) == Array(whole[piece.frames]), "\(piece.token): not the session's samples")
        }
        let names = try FileManager.default.contentsOfDirectory(
            atPath: session.folder.appendingPathComponent("raw-audio").path)
        #expect(
            names.count == 20 && names.contains("digit_5.wav") && names.contains("unit_fen.wav")
                && names.contains("unit_zheng.wav"))
    }

    /// A room's rumble rising over the threshold for a few windows, or a breath, in a pause does not end the pause
    /// short: before, a session with a breath in every pause, or a rumble, was one utterance or a few.
    @Test(arguments: [UInt64(5), 6])
    func aBreathOrARoomsRumbleInAPauseLeavesItAPause(seed: UInt64) throws {
        let session = try RecordingSession.make(seed: seed, roomRMS: 0.0005)
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let plan = try SessionSplitter.plan(Self.request(session, .expect(session.items)))
        #expect(plan.pieces.count == 20)
        for (piece, utterance) in zip(plan.labels, session.utterances) {
            let frames = Int(piece.startSeconds * 48_000)..<Int(piece.endSeconds * 48_000)
            #expect(frames.lowerBound <= utterance.lowerBound + 48, "\(piece.text): the onset is cut")
            #expect(frames.upperBound >= utterance.upperBound - 48, "\(piece.text): the decay is cut")
        }
    }

    /// Under a room's noise 50 dB under full scale (most of it under 1 kHz), each syllable's fricative (32 dB under
    /// its vowel) lies under the threshold the noise sets; its hiss over 3 kHz starts the utterance: before, the
    /// onsets were cut.
    @Test func aFricativeUnderARoomsNoiseStartsItsUtterance() throws {
        let session = try RecordingSession.make(seed: 6, roomRMS: 0.003, roomCornerHz: 1_000)
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let plan = try SessionSplitter.plan(Self.request(session, .expect(session.items)))
        #expect(plan.pieces.count == 20)
        for (piece, utterance) in zip(plan.labels, session.utterances) {
            let start = Int(piece.startSeconds * 48_000)
            #expect(start <= utterance.lowerBound + 48, "\(piece.text): the onset is cut")
            #expect(start >= utterance.lowerBound - 48 * 60, "\(piece.text): starts in the room's noise")
        }
    }

    @Test func takeFirstKeepsTheFirstReading() throws {
        let session = try RecordingSession.make()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        var request = Self.request(session, .expect(session.items))
        request.take = .first
        let five = try #require(try SessionSplitter.plan(request).pieces.first { $0.token == "五" })
        #expect(five.frames.contains(session.utterances[5].lowerBound))
    }

    /// The labels written from a detection, mended by hand and read back, are cut exactly.
    @Test func labelsAreCutExactly() throws {
        let session = try RecordingSession.make()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        var labels = try SessionSplitter.plan(Self.request(session, .expect(session.items))).labels
        labels[3].startSeconds -= 0.02
        labels[3].endSeconds += 0.1
        let text = AudacityLabel.text(labels) + "\\\t200.0\t4000.0\n"  // a spectral line, as Audacity writes it
        let read = try AudacityLabel.parse(text, name: "labels.txt")
        #expect(read.count == labels.count)
        // The same labels saved by Notepad (a byte-order mark, Windows line ends), and a list of tokens.
        let notepad = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
        try Data(notepad.utf8).write(to: session.folder.appendingPathComponent("notepad.txt"))
        let fromNotepad = try SplitRequest.Source.read(expect: nil, labels: "notepad.txt", folder: session.folder)
        #expect(fromNotepad == .labels(read))
        try Data("\u{FEFF}零\r\n一\r\n".utf8).write(to: session.folder.appendingPathComponent("list.txt"))
        #expect(
            try SplitRequest.Source.read(expect: "@list.txt", labels: nil, folder: session.folder)
                == .expect(["零", "一"]))
        let request = Self.request(session, .labels(read))
        let plan = try SessionSplitter.plan(request)
        try SessionSplitter.write(plan, request)
        let three = try #require(plan.pieces.first { $0.token == "三" })
        #expect(
            three.frames == Int(
                (read[3].startSeconds * 48_000).rounded())..<Int((read[3].endSeconds * 48_000).rounded()))
        let whole = try Self.samples(session.path)
        #expect(
            try Self.samples(session.folder.appendingPathComponent("raw-audio/digit_3.wav"))
                == Array(whole[three.frames]))
    }

    @Test func aPointLabelTakesTheUtteranceItStandsIn() throws {
        let session = try RecordingSession.make()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let middle = Double(session.utterances[2].lowerBound + session.utterances[2].upperBound) / 2 / 48_000
        let plan = try SessionSplitter.plan(
            Self.request(session, .labels([AudacityLabel(startSeconds: middle, endSeconds: middle, text: "二")])))
        let two = try #require(plan.pieces.first)
        #expect(two.frames.lowerBound <= session.utterances[2].lowerBound)
        #expect(two.frames.upperBound >= session.utterances[2].upperBound)
    }

    /// A count that does not match writes nothing, and says where the utterances are.
    @Test func aWrongCountWritesNothingAndListsTheUtterances() throws {
        let session = try RecordingSession.make()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let request = Self.request(session, .expect(Array(session.items.dropLast())))
        #expect {
            try SessionSplitter.plan(request)
        } throws: { error in
            guard let error = error as? SplitError else { return false }
            return error.message.hasPrefix("found 21 utterances in session.wav, the list has 20 (1: ")
                && error.labels?.count == 21 && error.labels?.last?.text == "?"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: request.raw.path).isEmpty)
    }

    @Test func refusesWhatItCannotDo() throws {
        let session = try RecordingSession.make()
        defer { try? FileManager.default.removeItem(at: session.folder) }
        func message(_ request: SplitRequest) -> String? {
            do {
                _ = try SessionSplitter.plan(request)
                return nil
            } catch { return error.message }
        }
        #expect(message(Self.request(session, .expect(["零", "壹x"]))) == "'壹x' names no token")
        #expect(
            message(Self.request(session, .expect(["零", "digit5"])))
                == "'digit5' names no token (did you mean 'digit_5', for 五?)")
        // A recording already there for a token (in another format), unless --force replaces it.
        let existing = session.folder.appendingPathComponent("raw-audio/digit_1.flac")
        try Data("old".utf8).write(to: existing)
        var request = Self.request(session, .expect(session.items))
        #expect(message(request) == "raw-audio/ already has digit_1.flac")
        request.force = true
        try SessionSplitter.write(try SessionSplitter.plan(request), request)
        #expect(!FileManager.default.fileExists(atPath: existing.path))
        #expect(
            FileManager.default.fileExists(atPath: session.folder.appendingPathComponent("raw-audio/digit_1.wav").path))
        // Not audio.
        let text = session.folder.appendingPathComponent("notes.wav")
        try Data("not a recording".utf8).write(to: text)
        var notAudio = Self.request(session, .expect(session.items))
        notAudio.session = text
        #expect(message(notAudio)?.contains("libsndfile cannot read it") == true)
    }

    /// A FLAC session splits into FLAC recordings, their samples the session's.
    @Test func aFlacSessionGivesFlacRecordings() throws {
        let session = try RecordingSession.make(format: FileFormat(container: "flac", encoding: "pcm16"))
        defer { try? FileManager.default.removeItem(at: session.folder) }
        let request = Self.request(session, .expect(session.items))
        let plan = try SessionSplitter.plan(request)
        try SessionSplitter.write(plan, request)
        let whole = try Self.samples(session.path)
        let one = try #require(plan.pieces.first { $0.token == "一" })
        #expect(one.file == "digit_1.flac")
        #expect(
            try Self.samples(session.folder.appendingPathComponent("raw-audio/digit_1.flac"))
                == Array(whole[one.frames]))
    }
}

/// What `split` is given, read into the splitter's source: a list on the command line, a list file, a label file.
@Suite struct SplitSourceTests {
    @Test func aListIsSplitAtSpacesAndAListFileAtLineEnds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("split-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("零\n unit_fen \n\n收款 成功\n".utf8).write(to: folder.appendingPathComponent("list.txt"))
        try Data("0.5\t0.9\t五\n".utf8).write(to: folder.appendingPathComponent("labels.txt"))

        guard case .expect(let spaced) = try SplitRequest.Source.read(expect: " 零  一\t二 ", labels: nil, folder: folder),
            case .expect(let lines) = try SplitRequest.Source.read(expect: "@list.txt", labels: nil, folder: folder),
            case .labels(let labels) = try SplitRequest.Source.read(expect: nil, labels: "labels.txt", folder: folder)
        else {
            Issue.record("the wrong kind of source")
            return
        }
        #expect(spaced == ["零", "一", "二"])
        #expect(lines == ["零", "unit_fen", "收款 成功"])
        #expect(labels.map(\.text) == ["五"])
    }

    @Test func aFileThatCannotBeReadIsNamedWithTheFix() {
        let folder = FileManager.default.temporaryDirectory
        #expect(throws: SplitError.self) {
            try SplitRequest.Source.read(expect: "@no-such.txt", labels: nil, folder: folder)
        }
        do {
            _ = try SplitRequest.Source.read(expect: nil, labels: "no-such-labels.txt", folder: folder)
            Issue.record("read a file that is not there")
        } catch {
            #expect(
                error.description == "no-such-labels.txt: cannot be read as UTF-8 text: give a text file saved as UTF-8"
            )
        }
    }
}
