import Foundation
import PackManifest
import SpeechText

/// Splices fragments into one sound: each fragment's samples in order, a gap of silence between them, or —
/// when there is no gap — a short crossfade across their joins.
///
/// Frames of the result = the fragments' frames + a gap at each join − a crossfade at each join (the one
/// or the other), to the sample. Only where fragments overlap are samples mixed; everywhere else they are
/// the fragment's own.
public struct Splicer: Sendable {
    public let pack: SoundPack
    public var gapMs: Double
    public var crossfadeMs: Double

    /// Joins as the pack's manifest says (its `splice`, which the build measured the pack's level on), unless
    /// told otherwise.
    public init(pack: SoundPack, gapMs: Double? = nil, crossfadeMs: Double? = nil) {
        self.pack = pack
        self.gapMs = gapMs ?? pack.manifest.joins.gapMs
        self.crossfadeMs = crossfadeMs ?? pack.manifest.joins.crossfadeMs
    }

    var gapFrames: Int { Splicer.joinFrames(gapMs: gapMs, crossfadeMs: crossfadeMs, sampleRate: sampleRate).gap }
    public var crossfadeFrames: Int {
        Splicer.joinFrames(gapMs: gapMs, crossfadeMs: crossfadeMs, sampleRate: sampleRate).crossfade
    }
    var sampleRate: Int { pack.manifest.format.sampleRate }

    /// A join's gap and crossfade in frames at `sampleRate`: a gap, or when there is none, a crossfade.
    public static func joinFrames(gapMs: Double, crossfadeMs: Double, sampleRate: Int) -> (gap: Int, crossfade: Int) {
        let gap = Int((gapMs * Double(sampleRate) / 1000).rounded())
        return (gap, gap > 0 ? 0 : Int((crossfadeMs * Double(sampleRate) / 1000).rounded()))
    }

    /// The overlap at the join of fragments of these lengths: the crossfade, at most half of either.
    static func overlap(_ crossfade: Int, _ left: Int, _ right: Int) -> Int { min(crossfade, left / 2, right / 2) }

    /// The length the spliced sound would have, from the manifest alone: no audio is read.
    public func frames(for tokens: [Token]) throws(SpliceError) -> Int {
        var lengths: [Int] = []
        for token in tokens {
            guard let fragment = pack.fragment(for: token) else {
                throw SpliceError(
                    .missingFragment, token.text,
                    "no fragment plays this token: add one, or an alias, and run `assets build`")
            }
            lengths.append(fragment.frames)
        }
        return Splicer.frames(lengths: lengths, gap: gapFrames, crossfade: crossfadeFrames)
    }

    /// Where each piece of that length starts in the spliced sound, in frames.
    public func pieceStarts(lengths: [Int]) -> [Int] {
        var starts: [Int] = []
        var start = 0
        for (index, length) in lengths.enumerated() {
            if index > 0 {
                start +=
                    lengths[index - 1] + gapFrames
                    - Splicer.overlap(crossfadeFrames, lengths[index - 1], length)
            }
            starts.append(start)
        }
        return starts
    }

    static func frames(lengths: [Int], gap: Int, crossfade: Int) -> Int {
        guard var total = lengths.first else { return 0 }
        for (left, right) in zip(lengths, lengths.dropFirst()) {
            total += gap + right - overlap(crossfade, left, right)
        }
        return total
    }

    /// Milliseconds at the pack's rate.
    public func durationMs(frames: Int) -> Double { Double(frames) * 1000 / Double(pack.manifest.format.sampleRate) }

    /// The spliced sound of `tokens`, in the manifest's sample format and rate.
    public func splice(_ tokens: [Token]) throws(SpliceError) -> PCMAudio {
        var pieces: [[Float]] = []
        pieces.reserveCapacity(tokens.count)
        for token in tokens { pieces.append(try pack.audio(for: token).samples) }
        let format = pack.manifest.format
        let samples = Splicer.join(
            pieces, gap: gapFrames, crossfade: crossfadeFrames, sampleFormat: format.sampleFormat)
        return PCMAudio(samples: samples, sampleRate: format.sampleRate, sampleFormat: format.sampleFormat)
    }

    /// `pieces` in order, with `gap` frames of silence or a `crossfade` across each join; the mixed joins are put
    /// back on `sampleFormat`'s grid.
    public static func join(_ pieces: [[Float]], gap: Int, crossfade: Int, sampleFormat: SampleFormat) -> [Float] {
        let lengths = pieces.map(\.count)
        let total = Splicer.frames(lengths: lengths, gap: gap, crossfade: crossfade)
        // Non-overlapping stretches are copied as they are; only the joins are mixed (and re-quantized).
        var output = [Float](repeating: 0, count: total)
        // Joins are a whole crossfade long but where a piece is shorter than one: that ramp made once.
        let fullRamp = (0..<crossfade).map { Splicer.ramp($0, crossfade) }
        func ramp(_ length: Int) -> [Float] {
            length == crossfade ? fullRamp : (0..<length).map { Splicer.ramp($0, length) }
        }
        var start = 0
        for (index, piece) in pieces.enumerated() {
            let fadeIn = index == 0 ? 0 : Splicer.overlap(crossfade, lengths[index - 1], piece.count)
            let fadeOut = index == pieces.count - 1 ? 0 : Splicer.overlap(crossfade, piece.count, lengths[index + 1])
            let tail = piece.count - fadeOut
            let (rampIn, rampOut) = (ramp(fadeIn), ramp(fadeOut))
            for frame in 0..<fadeIn { output[start + frame] += piece[frame] * rampIn[frame] }
            output.replaceSubrange((start + fadeIn)..<(start + tail), with: piece[fadeIn..<tail])
            for frame in 0..<fadeOut {
                output[start + tail + frame] = piece[tail + frame] * (1 - rampOut[frame])
            }
            if fadeIn > 0 { Splicer.quantize(&output[start..<(start + fadeIn)], sampleFormat) }
            start += tail + gap
        }
        return output
    }

    /// Mixed samples back on the format's grid, so the sound is exactly what its file will hold.
    static func quantize(_ samples: inout ArraySlice<Float>, _ format: SampleFormat) {
        let steps: Float
        switch format {
        case .pcm16: steps = 32768
        case .pcm24: steps = 8_388_608
        case .float32: return
        }
        for index in samples.indices { samples[index] = Float(PCMFile.quantized(samples[index], steps: steps)) / steps }
    }

    /// A raised-cosine ramp from 0 to 1 over `length` frames; its mirror sums with it to exactly 1.
    static func ramp(_ frame: Int, _ length: Int) -> Float {
        Float(0.5 - 0.5 * cos(Double.pi * (Double(frame) + 0.5) / Double(length)))
    }

    /// The file bytes of a spliced sound in `container` (the manifest's by default).
    public func fileData(_ audio: PCMAudio, container: Container? = nil) -> Data {
        Splicer.fileData(audio, container: container ?? pack.manifest.format.container)
    }

    public static func fileData(_ audio: PCMAudio, container: Container) -> Data {
        PCMFile.encode(audio, as: container)
    }

    /// A file name that changes when the sound does: iOS caches notification sounds by name, so a changed
    /// sound under an old name may never be heard.
    public static func contentName(of data: Data, digest: FragmentDigest, prefix: String = "amount", extension: String)
        -> String
    {
        "\(prefix)-\(digest(data).prefix(16)).\(`extension`)"
    }
}
