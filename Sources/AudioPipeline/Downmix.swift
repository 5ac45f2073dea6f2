/// Makes one channel out of several without losing the voice.
///
/// Two channels that hold one voice's samples in turn (`alternateSamples`) are read as the one channel they are,
/// at twice the rate. Otherwise channels more than `silentBelowDB` under the loudest one are left out, so a dead
/// channel does not halve the level; a channel in opposite phase to the loudest is not summed (it would cancel
/// the voice) and the loudest is taken alone; the rest are averaged. The decision is recorded.
public struct Downmix: Sendable {
    /// How far under the loudest channel a channel counts as silent.
    public var silentBelowDB: Double = 30
    /// A correlation with the loudest channel below this counts as opposite phase.
    public var oppositePhaseCorrelation: Double = -0.3
    /// How many times further apart a channel's neighbouring samples must be than each sample and the other
    /// channel's beside it (1 − correlation) for two channels to count as one voice's alternate samples: 1.56–3.92
    /// on the 43 recordings of a real pack written so, at most 1.0 on 100 stereo recordings of six real packs and
    /// the shipped one (BENCHMARKS.md).
    public var alternateSamplesRatio: Double = 1.3

    public init() {}

    public func apply(_ channels: [[Float]], sampleRate: Int) -> (Signal, ChannelDecision) {
        let centred = channels
        if centred.count == 1 { return (Signal(samples: centred[0], sampleRate: sampleRate), .mono) }
        if centred.count == 2, alternateSamples(centred[0], centred[1]) {
            var samples: [Float] = []
            samples.reserveCapacity(2 * centred[0].count)
            for frame in centred[0].indices {
                samples.append(centred[0][frame])
                samples.append(centred[1][frame])
            }
            return (Signal(samples: samples, sampleRate: 2 * sampleRate), .alternateSamples(sampleRate: 2 * sampleRate))
        }

        let energies = centred.map(Self.energy)
        let loudest = energies.indices.max { energies[$0] < energies[$1] }!
        let floor = energies[loudest] * Decibels.gain(-silentBelowDB) * Decibels.gain(-silentBelowDB)
        let silent = energies.indices.filter { $0 != loudest && energies[$0] < floor }
        let active = energies.indices.filter { !silent.contains($0) }
        let opposite = active.filter { index in
            index != loudest && Self.correlation(centred[loudest], centred[index]) < oppositePhaseCorrelation
        }

        if !opposite.isEmpty {
            return (
                Signal(samples: centred[loudest], sampleRate: sampleRate),
                .picked(channel: loudest + 1, reason: "channel \(Self.names(opposite)) in opposite phase")
            )
        }
        if active.count == 1 {
            return (
                Signal(samples: centred[loudest], sampleRate: sampleRate),
                .picked(channel: loudest + 1, reason: "channel \(Self.names(silent)) silent")
            )
        }
        var mixed = [Float](repeating: 0, count: centred[0].count)
        let scale = 1 / Float(active.count)
        for index in active {
            let source = centred[index]
            for frame in mixed.indices { mixed[frame] += source[frame] * scale }
        }
        return (Signal(samples: mixed, sampleRate: sampleRate), .mixed(channels: active.map { $0 + 1 }))
    }

    /// Whether `first` and `second` are one channel's samples in turn, the first in `first`: a mono recording
    /// whose header was written for two channels at half its rate (as a PCM-to-WAV helper copied between Android
    /// apps writes one, taking an output channel mask for an input one). Each sample is then more like the other
    /// channel's beside it, before and after, than like its own channel's next (a sample two steps on in the voice);
    /// two microphones, or one channel copied to both, never are. Read as one channel at twice the rate it keeps
    /// its band; averaged, it would lose everything over a quarter of the rate it was recorded at.
    func alternateSamples(_ first: [Float], _ second: [Float]) -> Bool {
        let across = min(Self.correlation(first, second), Self.correlation(second, first, lag: 1))
        let within = max(Self.correlation(first, first, lag: 1), Self.correlation(second, second, lag: 1))
        return across > 0.5 && (1 - within) > alternateSamplesRatio * (1 - across)
    }

    /// The mean square: a window's level for the trim and `split`, a channel's for the downmix.
    static func energy(_ samples: some Collection<Float>) -> Double {
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        return samples.isEmpty ? 0 : sum / Double(samples.count)
    }

    /// The correlation of `a` with `b` `lag` samples on.
    static func correlation(_ a: [Float], _ b: [Float], lag: Int = 0) -> Double {
        var product = 0.0
        var aa = 0.0
        var bb = 0.0
        for index in 0..<max(0, min(a.count, b.count - lag)) {
            let x = Double(a[index])
            let y = Double(b[index + lag])
            product += x * y
            aa += x * x
            bb += y * y
        }
        return aa > 0 && bb > 0 ? product / (aa * bb).squareRoot() : 0
    }

    private static func names(_ indices: [Int]) -> String {
        indices.map { String($0 + 1) }.joined(separator: ", ")
    }
}

/// How a recording became one channel.
public enum ChannelDecision: Equatable, Sendable, CustomStringConvertible {
    /// It was mono already.
    case mono
    /// These channels (1-based) were averaged.
    case mixed(channels: [Int])
    /// One channel (1-based) was taken alone, for the reason given.
    case picked(channel: Int, reason: String)
    /// Its two channels alternate one voice's samples: read as one channel at `sampleRate`, twice its header's.
    case alternateSamples(sampleRate: Int)

    /// The rate it was read at when its channels alternate one voice's samples.
    public var alternateSamplesRate: Int? {
        if case .alternateSamples(let rate) = self { rate } else { nil }
    }

    public var description: String {
        switch self {
        case .mono: return "mono"
        case .mixed(let channels): return "mixed channels " + channels.map(String.init).joined(separator: "+")
        case .picked(let channel, let reason): return "took channel \(channel) (\(reason))"
        case .alternateSamples(let rate):
            return "read as one channel at \(rate) Hz (its two channels alternate one voice's samples)"
        }
    }
}
