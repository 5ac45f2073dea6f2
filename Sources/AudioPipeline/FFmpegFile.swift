import CFFmpeg
import Foundation

/// Reads what libsndfile cannot — AAC and ALAC in `.m4a`, as phones and the seed projects deliver — through
/// FFmpeg's libraries: demux, decode, and hand back 32-bit float samples per channel; nothing else (the
/// pipeline's own stages resample and measure). The encoder delay and padding an MP4 declares (its edit list,
/// iTunes gapless data) are dropped by libavformat and libavcodec as they decode, so the samples are the
/// recording's own.
enum FFmpegFile {
    /// Reads a file libsndfile did not (`libsndfileSaid` is why): a failure names both readers' reasons.
    static func read(path: String, name: String, maximumSeconds: Double, libsndfileSaid: String) throws(AudioError)
        -> (SoundFile.Info, [[Float]])
    {
        // FFmpeg's own log would print to stderr beside ours; what it says reaches the user through our messages.
        let log = FFmpegLog()
        defer { log.stop() }
        func failure(_ problem: String, _ code: Int32? = nil) -> AudioError {
            let ffmpegSaid = log.explaining(code.map { "\(problem): \(describe($0))" } ?? problem)
            return refusal(path: path, name: name, libsndfileSaid: libsndfileSaid, ffmpegSaid: ffmpegSaid)
        }
        var opened: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_open_input(&opened, path, nil, nil)
        defer { avformat_close_input(&opened) }
        guard status >= 0, let format = opened else { throw failure("cannot open it", status) }
        status = avformat_find_stream_info(format, nil)
        guard status >= 0 else { throw failure("cannot read its streams", status) }
        var codec: UnsafePointer<AVCodec>?
        let stream = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
        guard stream >= 0, let codec, let parameters = format.pointee.streams[Int(stream)]?.pointee.codecpar else {
            throw failure("it has no audio stream it can decode")
        }
        var allocated = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&allocated) }
        guard let context = allocated, avcodec_parameters_to_context(context, parameters) >= 0 else {
            throw failure("cannot set up its decoder")
        }
        status = avcodec_open2(context, codec, nil)
        guard status >= 0 else {
            throw failure("cannot open its \(String(cString: codec.pointee.name)) decoder", status)
        }

        let rate = Int(context.pointee.sample_rate)
        let channels = Int(context.pointee.ch_layout.nb_channels)
        guard rate > 0, channels > 0 else { throw failure("it reports \(rate) Hz and \(channels) channels") }
        let limit = Int(maximumSeconds * Double(rate))
        if format.pointee.duration > 0, Double(format.pointee.duration) / Double(AV_TIME_BASE) > maximumSeconds {
            throw AudioError(
                file: name,
                problem:
                    "it is \(SoundFile.seconds(Int(min(1e15, Double(format.pointee.duration) / Double(AV_TIME_BASE) * Double(rate))), rate)) long, which is not a fragment",
                fix: "cut it to one word or phrase, or raise limits.maximumSourceSeconds in assets.json")
        }

        let samples = try decode(
            format, stream: stream, context: context, channels: channels, limit: limit, name: name, failure: failure)
        guard !samples[0].isEmpty else { throw failure("it holds no audio") }
        // FFmpeg names the MP4 family's demuxer "mov,mp4,m4a,3gp,3g2,mj2": `source.format` says `mp4/aac`.
        let demuxer = String(cString: format.pointee.iformat.pointee.name).components(separatedBy: ",")
        let container = demuxer.contains("mp4") ? "mp4" : demuxer[0]
        let info = SoundFile.Info(
            frames: samples[0].count, sampleRate: rate, channels: channels,
            format: FileFormat(container: container, encoding: String(cString: codec.pointee.name)))
        return (info, samples)
    }

    /// A file neither library reads: truncated, when it is an MP4 whose box runs past its end (FFmpeg says only
    /// that its data is invalid, or a packet corrupt), or else in both libraries' words.
    private static func refusal(path: String, name: String, libsndfileSaid: String, ffmpegSaid: String) -> AudioError {
        if let cut = ContainerParts.cut(path: path) {
            return AudioError(
                file: name, problem: cut.problem("FFmpeg", said: ffmpegSaid), fix: "copy or export it again")
        }
        return AudioError(
            file: name, problem: "neither libsndfile (\(libsndfileSaid)) nor FFmpeg (\(ffmpegSaid)) can read it",
            fix: "export it again as WAV, FLAC or M4A (AAC or ALAC)")
    }

    /// Every frame of `stream` decoded, to at most `limit` frames a channel, the last AAC frame's padding cut.
    private static func decode(
        _ format: UnsafeMutablePointer<AVFormatContext>, stream: Int32, context: UnsafeMutablePointer<AVCodecContext>,
        channels: Int, limit: Int, name: String, failure: (String, Int32?) -> AudioError
    ) throws(AudioError) -> [[Float]] {
        let rate = Int(context.pointee.sample_rate)
        var status: Int32 = 0
        var packetSlot = av_packet_alloc()
        var frameSlot = av_frame_alloc()
        defer {
            av_packet_free(&packetSlot)
            av_frame_free(&frameSlot)
        }
        guard let packet = packetSlot, let frame = frameSlot else { throw failure("out of memory", nil) }
        var samples = [[Float]](repeating: [], count: channels)
        func drain() throws(AudioError) {
            while true {
                let received = avcodec_receive_frame(context, frame)
                if received == assets_averror_again() || received == assets_averror_eof() { return }
                guard received >= 0 else { throw failure("decoding failed after \(samples[0].count) frames", received) }
                try append(frame, to: &samples, name: name)
                av_frame_unref(frame)
                if samples[0].count > limit {
                    throw AudioError(
                        file: name,
                        problem: "it is longer than \(SoundFile.seconds(limit, rate)), which is not a fragment",
                        fix: "cut it to one word or phrase, or raise limits.maximumSourceSeconds in assets.json")
                }
            }
        }
        // Where the last packet ends: an AAC encoder pads its last frame, and the file says by how much only
        // in that packet's duration (libavcodec drops the priming at the start by itself).
        var end = Int64.min
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            // A damaged file can hold any numbers here: an end that does not fit is no end.
            let (packetEnd, overflow) = packet.pointee.pts.addingReportingOverflow(packet.pointee.duration)
            if packet.pointee.pts != Int64.min && packet.pointee.duration > 0 && !overflow {
                end = max(end, packetEnd)
            }
            status = avcodec_send_packet(context, packet)
            guard status >= 0 || status == assets_averror_again() else {
                throw failure("decoding failed after \(samples[0].count) frames", status)
            }
            try drain()
        }
        avcodec_send_packet(context, nil)  // the decoder's last frames
        try drain()
        if end != Int64.min, let timing = format.pointee.streams[Int(stream)]?.pointee {
            let start = timing.start_time == Int64.min ? 0 : timing.start_time
            let (span, overflow) = end.subtractingReportingOverflow(start)
            let frames = overflow ? -1 : Int(av_rescale_q(span, timing.time_base, AVRational(num: 1, den: Int32(rate))))
            if frames > 0 && frames < samples[0].count {
                for channel in samples.indices { samples[channel].removeLast(samples[channel].count - frames) }
            }
        }
        return samples
    }

    /// Appends a decoded frame to the channels, whatever sample format the decoder gives (AAC: planar float;
    /// ALAC: planar 16- or 32-bit integers).
    private static func append(
        _ frame: UnsafeMutablePointer<AVFrame>, to samples: inout [[Float]], name: String
    ) throws(AudioError) {
        let count = Int(frame.pointee.nb_samples)
        let channels = samples.count
        guard let data = frame.pointee.extended_data, count > 0 else { return }
        guard Int(frame.pointee.ch_layout.nb_channels) == channels else {
            throw AudioError(
                file: name,
                problem: "its channel count changes from \(channels) to \(frame.pointee.ch_layout.nb_channels)",
                fix: "export it again as WAV or FLAC")
        }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) == 1
        func read<T>(_: T.Type, _ convert: (T) -> Float) {
            for channel in 0..<channels {
                let plane = UnsafeRawPointer(data[planar ? channel : 0]!).assumingMemoryBound(to: T.self)
                samples[channel].reserveCapacity(samples[channel].count + count)
                for index in 0..<count {
                    samples[channel].append(convert(plane[planar ? index : index * channels + channel]))
                }
            }
        }
        switch av_get_packed_sample_fmt(format) {
        case AV_SAMPLE_FMT_FLT: read(Float.self) { $0 }
        case AV_SAMPLE_FMT_DBL: read(Double.self) { Float($0) }
        case AV_SAMPLE_FMT_S16: read(Int16.self) { Float($0) / 32_768 }
        case AV_SAMPLE_FMT_S32: read(Int32.self) { Float(Double($0) / 2_147_483_648) }
        case AV_SAMPLE_FMT_U8: read(UInt8.self) { (Float($0) - 128) / 128 }
        default:
            throw AudioError(
                file: name, problem: "FFmpeg decodes it to an unexpected sample format (\(format.rawValue))",
                fix: "export it again as WAV or FLAC")
        }
    }

    private static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
