/// Makes one channel out of several without losing the voice.
///
/// Channels more than `silentBelowDB` under the loudest one are left out, so a dead channel does not
/// halve the level; a channel in opposite phase to the loudest is not summed (it would cancel the voice)
/// and the loudest is taken alone; the rest are averaged. The decision is recorded.
public struct Downmix: Sendable {
    /// How far under the loudest channel a channel counts as silent.
    public var silentBelowDB: Double = 30
    /// A correlation with the loudest channel below this counts as opposite phase.
    public var oppositePhaseCorrelation: Double = -0.3

    public init() {}

    public func apply(_ channels: [[Float]], sampleRate: Int) -> (Signal, ChannelDecision) {
        let centred = channels
        if centred.count == 1 { return (Signal(samples: centred[0], sampleRate: sampleRate), .mono) }

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

    /// The mean square: a window's level for the trim and `split`, a channel's for the downmix.
    static func energy(_ samples: some Collection<Float>) -> Double {
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        return samples.isEmpty ? 0 : sum / Double(samples.count)
    }

    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        var product = 0.0
        var aa = 0.0
        var bb = 0.0
        for index in 0..<min(a.count, b.count) {
            let x = Double(a[index])
            let y = Double(b[index])
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

    public var description: String {
        switch self {
        case .mono: return "mono"
        case .mixed(let channels): return "mixed channels " + channels.map(String.init).joined(separator: "+")
        case .picked(let channel, let reason): return "took channel \(channel) (\(reason))"
        }
    }
}
