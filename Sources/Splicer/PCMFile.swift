import Foundation
import PackManifest

/// Linear PCM in WAV, CAF or AIFF — the files `assets build` writes and iOS plays as notification sounds —
/// read and written with Foundation only, so the splicer compiles unchanged in an iOS extension.
public struct PCMAudio: Equatable, Sendable {
    /// Samples in [-1, 1): 16- and 24-bit values divided by 2^15 and 2^23, exactly.
    public var samples: [Float]
    public var sampleRate: Int
    public var sampleFormat: SampleFormat

    public init(samples: [Float], sampleRate: Int, sampleFormat: SampleFormat) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.sampleFormat = sampleFormat
    }
}

enum PCMFile {
    struct Decoded {
        var audio: PCMAudio
        var channels: Int
        var container: Container
    }

    struct Layout {
        var sampleFormat: SampleFormat
        var bigEndian: Bool
    }

    // MARK: Reading

    static func decode(_ data: Data, name: String) throws(SpliceError) -> Decoded {
        let bytes = [UInt8](data)
        func fail(_ message: String) -> SpliceError { SpliceError(.unreadableFragment, name, message) }
        guard bytes.count >= 12 else { throw fail("too short to be a WAV, CAF or AIFF file") }
        let magic = String(decoding: bytes[0..<4], as: UTF8.self)
        switch magic {
        case "RIFF": return try decodeWAV(bytes, fail: fail)
        case "FORM": return try decodeAIFF(bytes, fail: fail)
        case "caff": return try decodeCAF(bytes, fail: fail)
        default: throw fail("not a WAV, CAF or AIFF file")
        }
    }

    private static func decodeWAV(_ bytes: [UInt8], fail: (String) -> SpliceError) throws(SpliceError) -> Decoded {
        guard String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE" else {
            throw fail("a RIFF file that is not WAVE")
        }
        var offset = 12
        var layout: Layout?
        var channels = 0
        var rate = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(readUInt32(bytes, offset + 4, bigEndian: false))
            let body = offset + 8
            guard size <= bytes.count - body || id == "data" else { throw fail("the \(id) chunk runs past the end") }
            switch id {
            case "fmt ":
                guard size >= 16 else { throw fail("the fmt chunk is too short") }
                var tag = Int(readUInt16(bytes, body, bigEndian: false))
                channels = Int(readUInt16(bytes, body + 2, bigEndian: false))
                rate = Int(readUInt32(bytes, body + 4, bigEndian: false))
                let bits = Int(readUInt16(bytes, body + 14, bigEndian: false))
                if tag == 0xFFFE, size >= 26 { tag = Int(readUInt16(bytes, body + 24, bigEndian: false)) }
                switch (tag, bits) {
                case (1, 16): layout = Layout(sampleFormat: .pcm16, bigEndian: false)
                case (1, 24): layout = Layout(sampleFormat: .pcm24, bigEndian: false)
                case (3, 32): layout = Layout(sampleFormat: .float32, bigEndian: false)
                default: throw fail("WAV format \(tag) with \(bits) bits is not 16- or 24-bit PCM or 32-bit float")
                }
            case "data":
                guard let layout else { throw fail("the data chunk comes before the fmt chunk") }
                let end = min(bytes.count, body + size)
                return Decoded(
                    audio: try samples(bytes[body..<end], layout, channels: channels, rate: rate, fail: fail),
                    channels: channels, container: .wav)
            default: break
            }
            offset = body + size + (size & 1)
        }
        throw fail("no data chunk")
    }

    private static func decodeAIFF(_ bytes: [UInt8], fail: (String) -> SpliceError) throws(SpliceError) -> Decoded {
        let form = String(decoding: bytes[8..<12], as: UTF8.self)
        guard form == "AIFF" || form == "AIFC" else { throw fail("a FORM file that is not AIFF") }
        var offset = 12
        var layout: Layout?
        var channels = 0
        var rate = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(readUInt32(bytes, offset + 4, bigEndian: true))
            let body = offset + 8
            guard size <= bytes.count - body else { throw fail("the \(id) chunk runs past the end") }
            switch id {
            case "COMM":
                guard size >= 18 else { throw fail("the COMM chunk is too short") }
                channels = Int(readUInt16(bytes, body, bigEndian: true))
                let bits = Int(readUInt16(bytes, body + 6, bigEndian: true))
                rate = try sampleRate(readExtended(bytes, body + 8), fail: fail)
                var compression = "NONE"
                if form == "AIFC", size >= 22 {
                    compression = String(decoding: bytes[(body + 18)..<(body + 22)], as: UTF8.self)
                }
                switch (compression, bits) {
                case ("NONE", 16), ("twos", 16): layout = Layout(sampleFormat: .pcm16, bigEndian: true)
                case ("NONE", 24), ("twos", 24): layout = Layout(sampleFormat: .pcm24, bigEndian: true)
                case ("sowt", 16): layout = Layout(sampleFormat: .pcm16, bigEndian: false)
                case ("sowt", 24): layout = Layout(sampleFormat: .pcm24, bigEndian: false)
                case ("fl32", _), ("FL32", _): layout = Layout(sampleFormat: .float32, bigEndian: true)
                default:
                    throw fail(
                        "AIFF compression '\(compression)' with \(bits) bits is not 16- or 24-bit PCM or 32-bit float")
                }
            case "SSND":
                guard let layout else { throw fail("the SSND chunk comes before the COMM chunk") }
                guard size >= 8 else { throw fail("the SSND chunk is too short") }
                let start = body + 8 + Int(readUInt32(bytes, body, bigEndian: true))
                guard start <= body + size else { throw fail("the SSND offset runs past its chunk") }
                return Decoded(
                    audio: try samples(
                        bytes[start..<(body + size)], layout, channels: channels, rate: rate, fail: fail),
                    channels: channels, container: .aiff)
            default: break
            }
            offset = body + size + (size & 1)
        }
        throw fail("no SSND chunk")
    }

    private static func decodeCAF(_ bytes: [UInt8], fail: (String) -> SpliceError) throws(SpliceError) -> Decoded {
        var offset = 8
        var layout: Layout?
        var channels = 0
        var rate = 0
        while offset + 12 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let declared = Int64(bitPattern: readUInt64(bytes, offset + 4))
            let body = offset + 12
            // A data chunk may declare -1: it runs to the end of the file.
            let size = declared < 0 ? bytes.count - body : Int(declared)
            guard size <= bytes.count - body else { throw fail("the \(id) chunk runs past the end") }
            switch id {
            case "desc":
                guard size >= 32 else { throw fail("the desc chunk is too short") }
                rate = try sampleRate(Double(bitPattern: readUInt64(bytes, body)), fail: fail)
                let format = String(decoding: bytes[(body + 8)..<(body + 12)], as: UTF8.self)
                let flags = readUInt32(bytes, body + 12, bigEndian: true)
                channels = Int(readUInt32(bytes, body + 24, bigEndian: true))
                let bits = Int(readUInt32(bytes, body + 28, bigEndian: true))
                guard format == "lpcm" else { throw fail("CAF format '\(format)' is not linear PCM") }
                let isFloat = flags & 1 != 0
                let bigEndian = flags & 2 == 0
                switch (isFloat, bits) {
                case (false, 16): layout = Layout(sampleFormat: .pcm16, bigEndian: bigEndian)
                case (false, 24): layout = Layout(sampleFormat: .pcm24, bigEndian: bigEndian)
                case (true, 32): layout = Layout(sampleFormat: .float32, bigEndian: bigEndian)
                default: throw fail("CAF linear PCM with \(bits) bits is not 16- or 24-bit PCM or 32-bit float")
                }
            case "data":
                guard let layout else { throw fail("the data chunk comes before the desc chunk") }
                guard size >= 4 else { throw fail("the data chunk is too short") }
                return Decoded(
                    audio: try samples(
                        bytes[(body + 4)..<(body + size)], layout, channels: channels, rate: rate, fail: fail),
                    channels: channels, container: .caf)
            default: break
            }
            offset = body + size
        }
        throw fail("no data chunk")
    }

    private static func samples(
        _ bytes: ArraySlice<UInt8>, _ layout: Layout, channels: Int, rate: Int, fail: (String) -> SpliceError
    ) throws(SpliceError) -> PCMAudio {
        guard channels == 1 else { throw fail("\(channels) channels; fragments are mono") }
        guard rate > 0 else { throw fail("a sample rate of \(rate) Hz") }
        let width = layout.sampleFormat.bytesPerSample
        let count = bytes.count / width
        var samples = [Float](repeating: 0, count: count)
        let base = bytes.startIndex
        for index in 0..<count {
            let at = base + index * width
            switch layout.sampleFormat {
            case .pcm16:
                let raw =
                    layout.bigEndian
                    ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at])
                samples[index] = Float(Int16(bitPattern: raw)) / 32768
            case .pcm24:
                let (high, middle, low) =
                    layout.bigEndian
                    ? (bytes[at], bytes[at + 1], bytes[at + 2]) : (bytes[at + 2], bytes[at + 1], bytes[at])
                let raw = Int32(bitPattern: UInt32(high) << 24 | UInt32(middle) << 16 | UInt32(low) << 8) >> 8
                samples[index] = Float(raw) / 8_388_608
            case .float32:
                let raw =
                    layout.bigEndian
                    ? UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
                        | UInt32(bytes[at + 3])
                    : UInt32(bytes[at + 3]) << 24 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8
                        | UInt32(bytes[at])
                samples[index] = Float(bitPattern: raw)
            }
        }
        return PCMAudio(samples: samples, sampleRate: rate, sampleFormat: layout.sampleFormat)
    }

    // MARK: Writing

    /// A mono file of `audio`: WAV and CAF little-endian, AIFF big-endian (AIFC for float).
    static func encode(_ audio: PCMAudio, as container: Container) -> Data {
        let bigEndian = container == .aiff
        let width = audio.sampleFormat.bytesPerSample
        var payload: [UInt8] = []
        payload.reserveCapacity(audio.samples.count * width)
        for sample in audio.samples {
            let word: UInt32
            switch audio.sampleFormat {
            case .pcm16: word = UInt32(bitPattern: quantized(sample, steps: 32768))
            case .pcm24: word = UInt32(bitPattern: quantized(sample, steps: 8_388_608))
            case .float32: word = sample.bitPattern
            }
            // The word's low `width` bytes, in the container's order.
            for byte in 0..<width {
                payload.append(UInt8(truncatingIfNeeded: word >> (8 * (bigEndian ? width - 1 - byte : byte))))
            }
        }
        let isFloat = audio.sampleFormat == .float32
        var out = [UInt8]()
        out.reserveCapacity(payload.count + 128)
        switch container {
        case .wav:
            let formatChunk: [UInt8] =
                le16(isFloat ? 3 : 1) + le16(1) + le32(audio.sampleRate)
                + le32(audio.sampleRate * width) + le16(width) + le16(width * 8) + (isFloat ? le16(0) : [])
            let factChunk: [UInt8] = isFloat ? Array("fact".utf8) + le32(4) + le32(audio.samples.count) : []
            let riffSize = 4 + 8 + formatChunk.count + factChunk.count + 8 + payload.count + (payload.count & 1)
            out += Array("RIFF".utf8) + le32(riffSize) + Array("WAVE".utf8)
            out += Array("fmt ".utf8) + le32(formatChunk.count) + formatChunk + factChunk
            out += Array("data".utf8) + le32(payload.count)
            out += payload
            if payload.count & 1 == 1 { out.append(0) }
        case .caf:
            let flags: UInt32 = (isFloat ? 1 : 0) | 2
            out += Array("caff".utf8) + be16(1) + be16(0)
            out += Array("desc".utf8) + be64(32)
            out += be64(Double(audio.sampleRate).bitPattern) + Array("lpcm".utf8) + be32(flags)
            out += be32(UInt32(width)) + be32(1) + be32(1) + be32(UInt32(width * 8))
            out += Array("data".utf8) + be64(UInt64(payload.count + 4)) + be32(0)
            out += payload
        case .aiff:
            var common =
                be16(1) + be32(UInt32(audio.samples.count)) + be16(UInt16(width * 8)) + extended(audio.sampleRate)
            if isFloat { common += Array("fl32".utf8) + [4] + Array("fl32".utf8) + [0] }
            let soundSize = 8 + payload.count
            let version: [UInt8] = isFloat ? Array("FVER".utf8) + be32(4) + be32(0xA280_5140) : []
            let formSize = 4 + version.count + 8 + common.count + (common.count & 1) + 8 + soundSize + (soundSize & 1)
            out += Array("FORM".utf8) + be32(UInt32(formSize)) + Array((isFloat ? "AIFC" : "AIFF").utf8) + version
            out += Array("COMM".utf8) + be32(UInt32(common.count)) + common
            if common.count & 1 == 1 { out.append(0) }
            out += Array("SSND".utf8) + be32(UInt32(soundSize)) + be32(0) + be32(0)
            out += payload
            if soundSize & 1 == 1 { out.append(0) }
        }
        return Data(out)
    }

    /// `sample` × `steps`, rounded half away from zero and clipped to the format's range. (Adding ½ and
    /// truncating is one instruction on every x86-64; `rounded()` is a library call there.)
    @inline(__always)
    static func quantized(_ sample: Float, steps: Float) -> Int32 {
        let scaled = max(-steps, min(steps - 1, sample * steps))
        return Int32(scaled + (scaled < 0 ? -0.5 : 0.5))
    }

    /// A positive whole number as an 80-bit IEEE extended number.
    static func extended(_ value: Int) -> [UInt8] {
        let exponent = (Int.bitWidth - 1) - value.leadingZeroBitCount
        let mantissa = UInt64(value) << UInt64(63 - exponent)
        return be16(UInt16(exponent + 16383)) + be64(mantissa)
    }

    /// A sample rate read from a header, or a failure for one no recording has.
    static func sampleRate(_ value: Double, fail: (String) -> SpliceError) throws(SpliceError) -> Int {
        guard value.isFinite, value >= 1, value <= 10_000_000 else { throw fail("a sample rate of \(value) Hz") }
        return Int(value.rounded())
    }

    // MARK: Bytes

    static func readUInt16(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt16 {
        bigEndian ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at])
    }

    static func readUInt32(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    static func readUInt64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(readUInt32(bytes, at, bigEndian: true)) << 32 | UInt64(readUInt32(bytes, at + 4, bigEndian: true))
    }

    /// An 80-bit IEEE extended number (AIFF's sample rate).
    static func readExtended(_ bytes: [UInt8], _ at: Int) -> Double {
        let exponent = Int(readUInt16(bytes, at, bigEndian: true) & 0x7FFF) - 16383
        let mantissa = readUInt64(bytes, at + 2)
        return Double(mantissa) * pow(2, Double(exponent - 63))
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }
    static func be64(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }
}
