import CSndFile
import Foundation

/// An open libsndfile handle: the only owner of its `SNDFILE` pointer, closed by `close()` or on deinit.
public final class SoundFile {
    /// Frames, rate, channels and format of the file as libsndfile reports them.
    public struct Info: Equatable, Sendable {
        public let frames: Int
        public let sampleRate: Int
        public let channels: Int
        public let format: FileFormat
    }

    public let path: String
    public let info: Info
    /// What libsndfile's decoders printed while opening the file (mpg123's warnings), for our messages.
    let librarySaid: String
    private var handle: OpaquePointer?

    /// libsndfile reports failed opens through one global error slot: opens take turns.
    private static let openLock = NSLock()

    private init(path: String, handle: OpaquePointer, info: SF_INFO, librarySaid: String = "") {
        self.path = path
        self.handle = handle
        self.librarySaid = librarySaid
        self.info = Info(
            frames: Int(info.frames), sampleRate: Int(info.samplerate), channels: Int(info.channels),
            format: FileFormat(code: info.format))
    }

    deinit { if let handle { sf_close(handle) } }

    /// Opens `path` for reading. The error names `name` (the path as the user knows it) and says what
    /// libsndfile said.
    public static func open(reading path: String, name: String) throws(AudioError) -> SoundFile {
        switch try openIfReadable(path, name: name) {
        case .opened(let file): return file
        case .unreadable(let said):
            throw AudioError(
                file: name, problem: "libsndfile cannot read it (\(said))", fix: "export it as WAV or FLAC")
        }
    }

    enum Opening {
        case opened(SoundFile)
        /// libsndfile does not read this file at all (what it said): another decoder may.
        case unreadable(String)
    }

    /// Opens `path` for reading when libsndfile reads its format; throws when it does but the file is damaged, or
    /// when it holds no audio at all (`Placeholder`).
    ///
    /// libsndfile is given the open file, not its path: given a path, it takes a file named `._<name>` beside it
    /// (the AppleDouble file macOS leaves on shared and external drives) for a Sound Designer II resource fork,
    /// before it looks for an MP3 without ID3 tags, and then fails to read the MP3 at all.
    static func openIfReadable(_ path: String, name: String) throws(AudioError) -> Opening {
        var info = SF_INFO()
        openLock.lock()
        defer { openLock.unlock() }
        let descriptor = openDescriptor(path)
        guard descriptor >= 0 else { return .unreadable("System error : \(String(cString: strerror(errno)))") }
        let (opened, said) = LibraryMessages.capturing {
            sf_open_fd(descriptor, Int32(SFM_READ), &info, 1)  // closes the descriptor, opened or not
        }
        guard let handle = opened else {
            if let (problem, fix) = Placeholder.problem(at: path) {
                throw AudioError(file: name, problem: problem, fix: fix)
            }
            let reason = String(cString: sf_strerror(nil))
            // FFmpeg would read a cut CAF's audio to the cut without a word.
            if let cut = ContainerParts.cutCAFChunk(path: path) {
                throw AudioError(
                    file: name, problem: cut.problem("libsndfile", said: reason), fix: "copy or export it again")
            }
            return .unreadable(reason)
        }
        let file = SoundFile(path: path, handle: handle, info: info, librarySaid: said)
        if let (promised, held) = file.truncatedAudioChunk() {
            throw AudioError(
                file: name,
                problem: "it is truncated: the header promises \(promised) bytes of audio, the file holds \(held)",
                fix: "copy or export it again")
        }
        // An Ogg stream's length is the position its last page gives, and that page carries an end-of-stream flag;
        // a file cut short has neither, and libsndfile counts its length as unknown.
        if file.info.format.container == "ogg", info.frames == Int64.max {
            let noted = file.headerLog.first { $0.contains("ended unexpectedly") }.map { " (libsndfile: \($0))" }
            throw AudioError(
                file: name,
                problem: "it is truncated: its last Ogg page, which ends the stream and gives its length, is missing"
                    + (noted ?? ""),
                fix: "copy or export it again")
        }
        guard info.samplerate > 0, info.channels > 0 else {
            throw AudioError(
                file: name, problem: "libsndfile reports \(info.samplerate) Hz and \(info.channels) channels",
                fix: "export it again as WAV or FLAC")
        }
        return .opened(file)
    }

    /// Creates `path` for writing `format` at `sampleRate`, replacing any file there.
    public static func create(
        writing path: String, format: FileFormat, sampleRate: Int, channels: Int
    ) throws(AudioError) -> SoundFile {
        guard let code = format.code else {
            throw AudioError(file: path, problem: "libsndfile cannot write \(format)", fix: "choose another format")
        }
        var info = SF_INFO(
            frames: 0, samplerate: Int32(sampleRate), channels: Int32(channels), format: code, sections: 0, seekable: 0)
        openLock.lock()
        defer { openLock.unlock() }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            let said = String(cString: sf_strerror(nil))
            throw AudioError(
                file: path, problem: "cannot create it (\(said))", fix: "check that its folder is writable")
        }
        // A PEAK chunk carries a timestamp, which would make two builds differ.
        sf_command(handle, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        // Out-of-range floats written to integer formats clip rather than wrap around.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        return SoundFile(path: path, handle: handle, info: info)
    }

    /// libsndfile opens a file cut short and reads what is there; its log notes the audio chunk's size
    /// as "data : 30902 (should be 14956)". Returns (promised, held) bytes when that chunk is short.
    ///
    /// A size of 0xFFFFFFFF promises nothing: it is what a writer puts when it cannot go back to fill the size in
    /// (ffmpeg writing to a pipe, a speech service streaming its answer), and libsndfile, like FFmpeg,
    /// reads such a chunk to the end of the file.
    ///
    /// Wave64 notes a short file on its riff chunk only ("riff : 92128 (should be 46064)"): its audio lacks what
    /// the riff chunk lacks.
    private func truncatedAudioChunk() -> (Int, Int)? {
        let log = headerLog
        for line in log where line.hasPrefix("data ") || line.hasPrefix("SSND ") || line.hasPrefix("ds64 ") {
            if let (declared, actual) = Self.sizes(noted: line), let actual, actual < declared,
                declared != Int(UInt32.max)
            {
                return (declared, actual)
            }
        }
        guard info.format.container == "w64",
            let (whole, actual) = log.first(where: { $0.hasPrefix("riff ") }).flatMap(Self.sizes(noted:)),
            let actual, actual < whole,
            let (audio, _) = log.first(where: { $0.hasPrefix("data ") }).flatMap(Self.sizes(noted:))
        else { return nil }
        return (audio, max(0, audio - (whole - actual)))
    }

    /// The size a log line notes for a chunk, and the size libsndfile found instead: "data : 30902 (should be
    /// 14956)" gives (30902, 14956), "data : 92048" (92048, nil).
    private static func sizes(noted line: Substring) -> (Int, Int?)? {
        let open = line.range(of: "(should be ")
        let declared = line[..<(open?.lowerBound ?? line.endIndex)].split(separator: ":").last.flatMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        return declared.map { ($0, open.flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }) }
    }

    /// The bytes after a WAV header whose data size was never written: it reads "data : 0", and the parser then
    /// meets the audio as a chunk it does not know ("Unknown chunk marker … at position 44"). A recorder or an
    /// exporter that stopped before it closed the file leaves this.
    private func bytesAfterAnUnfinishedHeader() -> Int? {
        let lines = headerLog
        guard lines.contains("data : 0"),
            let length = lines.lazy.compactMap({ $0.hasPrefix("Length : ") ? Int($0.dropFirst(9)) : nil }).first,
            let stop = lines.first(where: { $0.contains("Unknown chunk marker") }),
            let at = stop.range(of: "at position "),
            let position = Int(stop[at.upperBound...].prefix { $0.isNumber }), length > position
        else { return nil }
        return length - position
    }

    /// What libsndfile noted while it read the header, a line each, without their indentation.
    private var headerLog: [Substring] {
        var log = [CChar](repeating: 0, count: 4096)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "\n").map { $0.drop { $0 == " " } }
    }

    /// Reads every frame, one array per channel. Refuses more than `maxFrames` frames without reading
    /// them, a file shorter than its header says, and NaN or infinite samples.
    public func readChannels(name: String, maxFrames: Int) throws(AudioError) -> [[Float]] {
        guard let handle else { preconditionFailure("read after close") }
        let channels = info.channels
        if info.frames > maxFrames {
            throw AudioError(
                file: name,
                problem: "it is \(Self.seconds(info.frames, info.sampleRate)) long, which is not a fragment",
                fix: "cut it to one word or phrase, or raise limits.maximumSourceSeconds in assets.json")
        }
        let mpeg = info.format.container == "mpeg" ? MPEGLength.inspect(path: path) : nil
        let promised = promisedFrames(isDeclaredMP3: mpeg?.isDeclared)
        var deinterleaved = [[Float]](repeating: [], count: channels)
        for channel in 0..<channels { deinterleaved[channel].reserveCapacity(max(0, info.frames)) }
        let chunkFrames = 16_384
        var buffer = [Float](repeating: 0, count: chunkFrames * channels)
        var total = 0
        while true {
            let read = buffer.withUnsafeMutableBufferPointer {
                sf_readf_float(handle, $0.baseAddress, sf_count_t(chunkFrames))
            }
            if read <= 0 { break }
            let frames = Int(read)
            total += frames
            if total > maxFrames {
                throw AudioError(
                    file: name,
                    problem: "it is longer than \(Self.seconds(maxFrames, info.sampleRate)), which is not a fragment",
                    fix: "cut it to one word or phrase, or raise limits.maximumSourceSeconds in assets.json")
            }
            let chunk = buffer[0..<(frames * channels)]
            if let bad = chunk.firstIndex(where: { !$0.isFinite }) {
                throw AudioError(
                    file: name,
                    problem:
                        "sample \(total - frames + bad / channels) of channel \(bad % channels + 1) is \(chunk[bad])",
                    fix: "export it again from the editor; NaN and infinity are not sound")
            }
            Self.append(chunk, frames: frames, channels: channels, to: &deinterleaved)
        }
        try finished(total: total, promised: promised, cutMP3Frame: mpeg?.cut, name: name)
        return deinterleaved
    }

    /// The frames the header promises, and by how many fewer the file may hold: none when the length is
    /// unknown, or only an estimate (an MP3 without a Xing, Info or VBRI header); an MP3 that declares its
    /// length may hold its encoder's delay and padding fewer. `isDeclaredMP3` is nil for a file that is no MP3.
    /// MPEG audio in a WAV (`wav/mp3`, as Windows' ACM codecs and ffmpeg write it) counts its frames in a fact chunk
    /// that holds the delay and padding too; a cut shows in its data chunk's size (`truncatedAudioChunk`).
    private func promisedFrames(isDeclaredMP3: Bool?) -> (frames: Int, tolerated: Int)? {
        guard info.frames > 0 && info.frames < Int(Int32.max) else { return nil }
        guard let isDeclaredMP3 else {
            let isMPEGAudio = ["mp1", "mp2", "mp3"].contains(info.format.encoding)
            return (info.frames, isMPEGAudio ? MPEGLength.toleratedFrames : 0)
        }
        return isDeclaredMP3 ? (info.frames, MPEGLength.toleratedFrames) : nil
    }

    /// Appends an interleaved chunk to one array per channel.
    private static func append(
        _ chunk: ArraySlice<Float>, frames: Int, channels: Int, to deinterleaved: inout [[Float]]
    ) {
        guard channels > 1 else {
            deinterleaved[0].append(contentsOf: chunk)
            return
        }
        // Over a range the appended count is known, so each channel grows once per chunk.
        chunk.withUnsafeBufferPointer { interleaved in
            for channel in 0..<channels {
                deinterleaved[channel].append(
                    contentsOf: (0..<frames).lazy.map { interleaved[$0 * channels + channel] })
            }
        }
    }

    /// The read ended where it should: without an error, with what the header promised, on a whole MPEG frame (an
    /// MP3), with audio.
    private func finished(
        total: Int, promised: (frames: Int, tolerated: Int)?, cutMP3Frame: (held: Int, size: Int?)?, name: String
    ) throws(AudioError) {
        if sf_error(handle) != 0 {
            let said = String(cString: sf_strerror(handle))
            if let promised, total < promised.frames {
                throw AudioError(
                    file: name,
                    problem:
                        "it is cut short or damaged: reading stopped after \(total) of the \(promised.frames) frames"
                        + " its header promises (\(said))",
                    fix: "copy or export it again")
            }
            throw AudioError(
                file: name, problem: "reading failed after \(total) frames (\(said))",
                fix: "export it again as WAV or FLAC")
        }
        if let promised, total < promised.frames - promised.tolerated {
            throw AudioError(
                file: name,
                problem: "it is truncated: the header promises \(promised.frames) frames, the file holds \(total)"
                    + (librarySaid.isEmpty ? "" : " (the decoder said: \(librarySaid))"),
                fix: "copy or export it again")
        }
        if let (held, size) = cutMP3Frame {
            throw AudioError(
                file: name,
                problem: "it is truncated: it ends \(held == 1 ? "1 byte" : "\(held) bytes") into an MPEG frame"
                    + (size.map { " of \($0) bytes" } ?? "'s header") + ", where an encoder writes whole frames",
                fix: "copy or export it again")
        }
        if total == 0, let following = bytesAfterAnUnfinishedHeader() {
            throw AudioError(
                file: name,
                problem: "its header says it holds no audio, and \(following) bytes follow it: the program that wrote"
                    + " it stopped before it closed the file",
                fix: "export it again")
        }
        if total == 0 {
            throw AudioError(file: name, problem: "it holds no audio", fix: "export the recording again")
        }
    }

    /// Writes interleaved samples in [-1, 1]; libsndfile converts to the file's encoding.
    public func write(interleaved samples: [Float]) throws(AudioError) {
        try write(count: samples.count) { handle, frames in
            samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, frames) }
        }
    }

    /// Writes interleaved 16-bit samples exactly as given.
    public func write(interleaved samples: [Int16]) throws(AudioError) {
        try write(count: samples.count) { handle, frames in
            samples.withUnsafeBufferPointer { sf_writef_short(handle, $0.baseAddress, frames) }
        }
    }

    /// Writes interleaved 32-bit samples exactly as given (24-bit files keep the top 24 bits).
    public func write(interleaved samples: [Int32]) throws(AudioError) {
        try write(count: samples.count) { handle, frames in
            samples.withUnsafeBufferPointer { sf_writef_int(handle, $0.baseAddress, frames) }
        }
    }

    private func write(count: Int, _ body: (OpaquePointer, sf_count_t) -> sf_count_t) throws(AudioError) {
        guard let handle else { preconditionFailure("write after close") }
        let frames = count / info.channels
        let written = body(handle, sf_count_t(frames))
        if written != frames {
            throw AudioError(
                file: path, problem: "wrote \(written) of \(frames) frames (\(String(cString: sf_strerror(handle))))",
                fix: "check the free disk space")
        }
    }

    /// Finishes the file: for a written file, the header is completed here, so a failure matters.
    public func close() throws(AudioError) {
        guard let handle else { return }
        self.handle = nil
        let status = sf_close(handle)
        if status != 0 {
            throw AudioError(
                file: path, problem: "closing failed (\(String(cString: sf_error_number(status))))",
                fix: "check the free disk space")
        }
    }

    static func seconds(_ frames: Int, _ rate: Int) -> String {
        let seconds = Double(frames) / Double(max(rate, 1))
        return seconds >= 60 ? "\(Int(seconds / 60)) min \(Int(seconds) % 60) s" : "\((seconds * 10).rounded() / 10) s"
    }
}

extension SoundFile {
    /// Copies frames `range` of this file into `output`, sample for sample: integers as integers, floats as
    /// floats, in blocks, so a long session is never held whole.
    public func copy(frames range: Range<Int>, to output: SoundFile) throws(AudioError) {
        guard let handle, let target = output.handle else { preconditionFailure("copy after close") }
        guard sf_seek(handle, sf_count_t(range.lowerBound), SEEK_SET) == sf_count_t(range.lowerBound) else {
            throw AudioError(
                file: path,
                problem: "cannot seek to frame \(range.lowerBound) (\(String(cString: sf_strerror(handle))))",
                fix: "export the session again as WAV or FLAC")
        }
        let block = 65_536
        let channels = info.channels
        var left = range.count
        func pass<T: Numeric>(
            _ zero: T, _ read: (OpaquePointer, UnsafeMutablePointer<T>, sf_count_t) -> sf_count_t,
            _ write: (OpaquePointer, UnsafePointer<T>, sf_count_t) -> sf_count_t
        ) throws(AudioError) {
            var buffer = [T](repeating: zero, count: block * channels)
            while left > 0 {
                let wanted = min(block, left)
                let read = buffer.withUnsafeMutableBufferPointer { read(handle, $0.baseAddress!, sf_count_t(wanted)) }
                guard read == wanted else {
                    throw AudioError(
                        file: path, problem: "it ended \(left - Int(max(read, 0))) frames early",
                        fix: "copy or export the session again")
                }
                let written = buffer.withUnsafeBufferPointer { write(target, $0.baseAddress!, read) }
                guard written == read else {
                    throw AudioError(
                        file: output.path, problem: "wrote \(written) of \(read) frames",
                        fix: "check the free disk space")
                }
                left -= wanted
            }
        }
        switch info.format.encoding {
        case "float32": try pass(Float(0), { sf_readf_float($0, $1, $2) }, { sf_writef_float($0, $1, $2) })
        case "float64": try pass(Double(0), { sf_readf_double($0, $1, $2) }, { sf_writef_double($0, $1, $2) })
        default: try pass(Int32(0), { sf_readf_int($0, $1, $2) }, { sf_writef_int($0, $1, $2) })
        }
    }

    /// Reads on from where the last read ended: up to `frames` frames, interleaved; empty at the end.
    public func readInterleaved(frames: Int) throws(AudioError) -> [Float] {
        guard let handle else { preconditionFailure("read after close") }
        var buffer = [Float](repeating: 0, count: frames * info.channels)
        let read = buffer.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, sf_count_t(frames)) }
        if read < 0 || sf_error(handle) != 0 {
            throw AudioError(
                file: path, problem: "reading failed (\(String(cString: sf_strerror(handle))))",
                fix: "export the session again as WAV or FLAC")
        }
        buffer.removeLast(buffer.count - Int(read) * info.channels)
        return buffer
    }
}

/// The C library's `open`, which `SoundFile.open` hides inside the class.
private func openDescriptor(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
