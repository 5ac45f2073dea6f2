import CSndFile
import PackManifest

/// A container and encoding as libsndfile names them, with the short names `assets` prints and writes in
/// manifests (`wav/pcm16`, `flac/pcm24`, `ogg/vorbis`, `mpeg/mp3`).
public struct FileFormat: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let container: String
    public let encoding: String

    public init(container: String, encoding: String) {
        self.container = container
        self.encoding = encoding
    }

    /// The formats `build` writes.
    public init(_ sampleFormat: SampleFormat, in container: Container) {
        self.init(container: container.rawValue, encoding: sampleFormat.rawValue)
    }

    public var description: String { "\(container)/\(encoding)" }

    /// The libsndfile format code, or nil for a pair libsndfile cannot write.
    var code: Int32? {
        guard let major = FileFormat.containers.first(where: { $0.name == container })?.code,
            let minor = FileFormat.encodings.first(where: { $0.name == encoding })?.code
        else { return nil }
        var info = SF_INFO(frames: 0, samplerate: 44_100, channels: 1, format: major | minor, sections: 0, seekable: 0)
        return sf_format_check(&info) == 1 ? major | minor : nil
    }

    /// The short names of a libsndfile format code; libsndfile's hex code where a name is missing.
    init(code: Int32) {
        let major = code & Int32(SF_FORMAT_TYPEMASK)
        let minor = code & Int32(SF_FORMAT_SUBMASK)
        container = FileFormat.containers.first { $0.code == major }?.name ?? "0x" + String(major, radix: 16)
        encoding = FileFormat.encodings.first { $0.code == minor }?.name ?? "0x" + String(minor, radix: 16)
    }

    private static let containers: [(name: String, code: Int32)] = [
        ("wav", Int32(SF_FORMAT_WAV)), ("aiff", Int32(SF_FORMAT_AIFF)), ("caf", Int32(SF_FORMAT_CAF)),
        ("flac", Int32(SF_FORMAT_FLAC)), ("ogg", Int32(SF_FORMAT_OGG)), ("w64", Int32(SF_FORMAT_W64)),
        ("rf64", Int32(SF_FORMAT_RF64)), ("mpeg", Int32(SF_FORMAT_MPEG)), ("au", Int32(SF_FORMAT_AU)),
        ("raw", Int32(SF_FORMAT_RAW)), ("wavex", Int32(SF_FORMAT_WAVEX)), ("voc", Int32(SF_FORMAT_VOC)),
        ("sd2", Int32(SF_FORMAT_SD2)), ("ircam", Int32(SF_FORMAT_IRCAM)), ("nist", Int32(SF_FORMAT_NIST)),
    ]

    private static let encodings: [(name: String, code: Int32)] = [
        ("pcm8", Int32(SF_FORMAT_PCM_S8)), ("pcmu8", Int32(SF_FORMAT_PCM_U8)), ("pcm16", Int32(SF_FORMAT_PCM_16)),
        ("pcm24", Int32(SF_FORMAT_PCM_24)), ("pcm32", Int32(SF_FORMAT_PCM_32)), ("float32", Int32(SF_FORMAT_FLOAT)),
        ("float64", Int32(SF_FORMAT_DOUBLE)), ("ulaw", Int32(SF_FORMAT_ULAW)), ("alaw", Int32(SF_FORMAT_ALAW)),
        ("vorbis", Int32(SF_FORMAT_VORBIS)), ("opus", Int32(SF_FORMAT_OPUS)), ("alac16", Int32(SF_FORMAT_ALAC_16)),
        ("alac24", Int32(SF_FORMAT_ALAC_24)), ("ima-adpcm", Int32(SF_FORMAT_IMA_ADPCM)),
        ("ms-adpcm", Int32(SF_FORMAT_MS_ADPCM)), ("gsm610", Int32(SF_FORMAT_GSM610)),
        ("mp1", Int32(SF_FORMAT_MPEG_LAYER_I)), ("mp2", Int32(SF_FORMAT_MPEG_LAYER_II)),
        ("mp3", Int32(SF_FORMAT_MPEG_LAYER_III)),
    ]
}
