/// The sample format of built fragments.
public enum SampleFormat: String, CaseIterable, Codable, Sendable {
    /// 16-bit integer PCM with TPDF dither: the default, and what notification sounds usually are.
    case pcm16
    case pcm24
    case float32

    public var bytesPerSample: Int {
        switch self {
        case .pcm16: return 2
        case .pcm24: return 3
        case .float32: return 4
        }
    }
}

/// The file container of built fragments: the ones iOS plays as notification sounds.
public enum Container: String, CaseIterable, Codable, Sendable {
    case wav, caf, aiff

    /// The file name extension of fragments in this container.
    public var fileExtension: String { rawValue }
}

/// What every built fragment is: rate, channels, sample format and container.
public struct AudioFormat: Codable, Equatable, Hashable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: SampleFormat
    public var container: Container

    public init(
        sampleRate: Int = 44_100, channels: Int = 1, sampleFormat: SampleFormat = .pcm16, container: Container = .wav
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        self.container = container
    }
}

/// libsamplerate's sinc converters, by the names the settings and the manifest use.
public enum ResamplerQuality: String, CaseIterable, Codable, Sendable {
    case best, medium, fastest
}
