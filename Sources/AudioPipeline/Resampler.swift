import CSampleRate
import PackManifest

/// Converts a signal to another rate with libsamplerate; a signal already at that rate passes untouched.
public struct Resample: Equatable, Sendable {
    public var targetRate: Int
    public var quality: ResamplerQuality

    public init(to targetRate: Int, quality: ResamplerQuality) {
        self.targetRate = targetRate
        self.quality = quality
    }

    public func apply(_ signal: Signal) throws(AudioError) -> Signal {
        if signal.sampleRate == targetRate || signal.samples.isEmpty { return signal }
        let converter = try Resampler(quality: quality)
        return Signal(
            samples: try converter.convert(signal.samples, ratio: Double(targetRate) / Double(signal.sampleRate)),
            sampleRate: targetRate)
    }
}

/// One libsamplerate converter state, owned and freed here.
final class Resampler {
    private let state: OpaquePointer

    init(quality: ResamplerQuality, channels: Int = 1) throws(AudioError) {
        var error: Int32 = 0
        guard let state = src_new(Resampler.converterType(quality), Int32(channels), &error) else {
            throw AudioError(file: "libsamplerate", problem: String(cString: src_strerror(error)), fix: "report this")
        }
        self.state = state
    }

    deinit { src_delete(state) }

    /// The whole input converted at `ratio` (output rate / input rate), flushed to the end.
    func convert(_ input: [Float], ratio: Double) throws(AudioError) -> [Float] {
        var output = [Float](repeating: 0, count: Int((Double(input.count) * ratio).rounded(.up)) + 64)
        var consumed = 0
        var produced = 0
        while true {
            if produced == output.count { output += [Float](repeating: 0, count: 4096) }
            let status: Int32 = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    var data = SRC_DATA(
                        data_in: source.baseAddress! + consumed, data_out: target.baseAddress! + produced,
                        input_frames: Int(input.count - consumed), output_frames: Int(target.count - produced),
                        input_frames_used: 0, output_frames_gen: 0, end_of_input: 1, src_ratio: ratio)
                    let status = src_process(state, &data)
                    consumed += Int(data.input_frames_used)
                    produced += Int(data.output_frames_gen)
                    return data.output_frames_gen == 0 && consumed == input.count ? -1 : status
                }
            }
            if status == -1 { break }
            if status != 0 {
                throw AudioError(
                    file: "libsamplerate", problem: String(cString: src_strerror(status)), fix: "report this")
            }
        }
        output.removeLast(output.count - produced)
        return output
    }

    static func converterType(_ quality: ResamplerQuality) -> Int32 {
        switch quality {
        case .best: return Int32(SRC_SINC_BEST_QUALITY)
        case .medium: return Int32(SRC_SINC_MEDIUM_QUALITY)
        case .fastest: return Int32(SRC_SINC_FASTEST)
        }
    }
}
