/// The pipeline's first stage: a recording's samples, one array per channel, and what it was.
///
/// libsndfile reads everything it knows (WAV, FLAC, AIFF, CAF, Ogg, MP3, W64…); what it does not open at all
/// goes to FFmpeg, which reads AAC and ALAC in `.m4a`. A file libsndfile opens but finds damaged is not
/// passed on: its message is the one that says what is wrong.
public enum Decode {
    public static func read(path: String, name: String, maximumSeconds: Double) throws(AudioError) -> (
        info: SoundFile.Info, channels: [[Float]]
    ) {
        switch try SoundFile.openIfReadable(path, name: name) {
        case .opened(let file):
            let channels = try file.readChannels(
                name: name, maxFrames: Int(maximumSeconds * Double(file.info.sampleRate)))
            try file.close()
            // What decoded, not the header's figure: an MP3's may be an estimate.
            let info = file.info
            return (
                SoundFile.Info(
                    frames: channels[0].count, sampleRate: info.sampleRate, channels: info.channels,
                    format: info.format),
                channels
            )
        case .unreadable(let libsndfileSaid):
            return try FFmpegFile.read(
                path: path, name: name, maximumSeconds: maximumSeconds, libsndfileSaid: libsndfileSaid)
        }
    }
}
