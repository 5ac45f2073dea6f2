import AudioPipeline
import Foundation

/// Signals whose levels are known by construction, for tests that derive every expected number.
enum TestSignals {
    /// A sine of peak amplitude `amplitude`.
    static func sine(frequency: Double, amplitude: Double, seconds: Double, rate: Int = 44_100) -> [Float] {
        (0..<Int(seconds * Double(rate))).map {
            Float(amplitude * sin(2 * .pi * frequency * Double($0) / Double(rate)))
        }
    }

    /// White noise of RMS `rms`, the same on every run.
    static func noise(rms: Double, seconds: Double, rate: Int = 44_100, seed: UInt64 = 1) -> [Float] {
        var generator = Generator(seed: seed)
        let scale = rms * 3.0.squareRoot()  // uniform in [-a, a] has RMS a/√3
        return (0..<Int(seconds * Double(rate))).map { _ in Float(scale * (2 * generator.unit() - 1)) }
    }

    /// A vowel-like tone: harmonics of 150 Hz with a 20 ms attack, RMS about `rms`, and a decaying tail.
    static func vowel(rms: Double, seconds: Double, rate: Int = 44_100, tailSeconds: Double = 0.08) -> [Float] {
        let harmonics: [(Int, Double)] = [(1, 1), (2, 0.8), (3, 0.6), (5, 0.5), (8, 0.3), (12, 0.15)]
        let power = harmonics.map { $0.1 * $0.1 / 2 }.reduce(0, +)
        let scale = rms / power.squareRoot()
        let frames = Int(seconds * Double(rate))
        let tail = Int(tailSeconds * Double(rate))
        return (0..<frames).map { index in
            let t = Double(index) / Double(rate)
            let attack = min(1, t / 0.02)
            let release = index >= frames - tail ? exp(-6 * Double(index - (frames - tail)) / Double(tail)) : 1
            let value = harmonics.map { $0.1 * sin(2 * .pi * 150 * Double($0.0) * t) }.reduce(0, +)
            return Float(scale * value * attack * release)
        }
    }

    /// A fricative-like noise onset `fricativeBelowDB` under a vowel: how 三, 四, 十 start.
    static func syllable(
        vowelRMS: Double, fricativeBelowDB: Double, fricativeSeconds: Double = 0.08, vowelSeconds: Double,
        rate: Int = 44_100
    ) -> [Float] {
        let fricativeRMS = vowelRMS * pow(10, -fricativeBelowDB / 20)
        return highPassed(noise(rms: fricativeRMS, seconds: fricativeSeconds, rate: rate, seed: 7))
            + vowel(rms: vowelRMS, seconds: vowelSeconds, rate: rate)
    }

    /// First difference, scaled to keep the RMS of white noise: hiss rather than rumble.
    static func highPassed(_ samples: [Float]) -> [Float] {
        var previous: Float = 0
        return samples.map { sample in
            defer { previous = sample }
            return (sample - previous) / Float(2.0.squareRoot())
        }
    }

    static func rms(_ samples: some Collection<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }
}

/// A folder under the system temporary folder, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("assets-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes channels (one array each) as `format` at `rate`.
    @discardableResult
    func write(_ name: String, channels: [[Float]], rate: Int = 44_100, format: FileFormat) throws -> String {
        let path = path(name)
        let file = try SoundFile.create(writing: path, format: format, sampleRate: rate, channels: channels.count)
        var interleaved = [Float](repeating: 0, count: channels[0].count * channels.count)
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() { interleaved[frame * channels.count + channel] = sample }
        }
        try file.write(interleaved: interleaved)
        try file.close()
        return path
    }

    func read(_ path: String) throws -> (SoundFile.Info, [[Float]]) {
        let file = try SoundFile.open(reading: path, name: path)
        let channels = try file.readChannels(name: path, maxFrames: .max)
        return (file.info, channels)
    }
}
