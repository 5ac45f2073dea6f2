import Foundation

/// Removes DC offset (and rumble under `cutoffHz`) from each channel with a one-pole high-pass filter.
///
/// Subtracting the mean would be wrong for speech: a voice's waveform is asymmetric, so its own mean is
/// not an offset, and taking it out of the whole file would lift the silence around it to that level.
/// The filter starts from the first sample, so an offset present from the start makes no thump.
public struct RemoveDC: Sendable {
    public var cutoffHz = 20.0

    public init() {}

    public func apply(_ channels: [[Float]], sampleRate: Int) -> [[Float]] {
        let pole = exp(-2 * Double.pi * cutoffHz / Double(sampleRate))
        return channels.map { samples in
            guard let first = samples.first else { return samples }
            var output = [Float](repeating: 0, count: samples.count)
            var previousInput = Double(first)
            var previousOutput = 0.0
            for index in samples.indices {
                let input = Double(samples[index])
                previousOutput = input - previousInput + pole * previousOutput
                previousInput = input
                output[index] = Float(previousOutput)
            }
            return output
        }
    }
}
