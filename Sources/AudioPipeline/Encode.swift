import PackManifest

/// Quantizes a signal to the configured sample format and writes it in the configured container.
///
/// 16-bit output gets TPDF dither (two uniform draws, ±1 LSB). Its noise comes from a generator seeded by
/// the fragment's name, so the same inputs give the same bytes.
public struct Encode: Sendable {
    public var sampleFormat: SampleFormat
    public var container: Container

    public init(sampleFormat: SampleFormat, container: Container) {
        self.sampleFormat = sampleFormat
        self.container = container
    }

    /// The samples exactly as they will read back from the file.
    public func quantize(_ signal: Signal, ditherSeed: UInt64) -> Signal {
        switch sampleFormat {
        case .pcm16:
            var noise = DitherNoise(seed: ditherSeed)
            let samples = signal.samples.map { sample -> Float in
                let dithered = (Double(sample) * 32768 + noise.triangular()).rounded()
                return Float(min(32767, max(-32768, dithered))) / 32768
            }
            return Signal(samples: samples, sampleRate: signal.sampleRate)
        case .pcm24:
            let samples = signal.samples.map { sample -> Float in
                Float(min(8_388_607, max(-8_388_608, (Double(sample) * 8_388_608).rounded()))) / 8_388_608
            }
            return Signal(samples: samples, sampleRate: signal.sampleRate)
        case .float32:
            return signal
        }
    }

    /// Writes samples from `quantize` to `path`.
    public func write(_ quantized: Signal, to path: String) throws(AudioError) {
        let file = try SoundFile.create(
            writing: path, format: FileFormat(sampleFormat, in: container), sampleRate: quantized.sampleRate,
            channels: 1)
        switch sampleFormat {
        case .pcm16:
            try file.write(interleaved: quantized.samples.map { Int16($0 * 32768) })
        case .pcm24:
            try file.write(interleaved: quantized.samples.map { Int32($0 * 8_388_608) << 8 })
        case .float32:
            try file.write(interleaved: quantized.samples)
        }
        try file.close()
    }
}

/// SplitMix64: numbers that are the same for the same seed on every run and platform — the dither of a
/// fragment, and the tests' random inputs, so a failure can be replayed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1), from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Triangular noise in (−1, 1) LSB.
struct DitherNoise {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func triangular() -> Double { random.unit() + random.unit() - 1 }

    /// FNV-1a of a name: the seed for that fragment's dither.
    static func seed(for name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return hash
    }
}
