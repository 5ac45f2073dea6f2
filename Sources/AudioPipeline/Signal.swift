import Foundation

/// Mono samples at a rate: what flows between the stages after `Downmix`.
public struct Signal: Equatable, Sendable {
    public var samples: [Float]
    public var sampleRate: Int

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var frames: Int { samples.count }
    public var durationMs: Double { Double(samples.count) * 1000 / Double(sampleRate) }

    /// The samples from `range` (in ms), clamped to the signal.
    public func slice(ms range: ClosedRange<Double>) -> Signal {
        let start = min(frames, max(0, self.frames(ms: range.lowerBound)))
        let end = max(start, min(frames, self.frames(ms: range.upperBound)))
        return Signal(samples: Array(samples[start..<end]), sampleRate: sampleRate)
    }

    /// Frames in `milliseconds` at this signal's rate, rounded.
    public func frames(ms milliseconds: Double) -> Int { Int((milliseconds * Double(sampleRate) / 1000).rounded()) }
}

/// Decibels of a power ratio, and back.
enum Decibels {
    static func power(_ ratio: Double) -> Double { ratio > 0 ? 10 * log10(ratio) : -.infinity }
    static func amplitude(_ ratio: Double) -> Double { ratio > 0 ? 20 * log10(ratio) : -.infinity }
    static func gain(_ decibels: Double) -> Double { pow(10, decibels / 20) }
}
