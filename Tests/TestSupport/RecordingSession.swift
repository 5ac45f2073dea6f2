import AudioPipeline
import Foundation

/// A recording session made by code, for `assets split`: every token of spoken/yuan read in one take over a
/// noise floor, with random pauses of 0.35–1.2 s, breaths in the long pauses, and 五 read twice (the second
/// take louder), as a file in a folder of its own with an empty `raw-audio/` beside it. In a `room`, the floor is
/// the room's noise (`Signals.roomNoise`: by default a rumble, whose level in 10 ms swings by several dB) and a breath is
/// drawn in every pause.
public struct RecordingSession {
    public let folder: URL
    public let path: URL
    /// Each utterance's first and last sample in the session, in the order read.
    public let utterances: [Range<Int>]
    public let items: [String]
    public let rate: Int

    /// The 20 tokens of spoken/yuan, 五 read twice (the second take louder), as 48 kHz 24-bit WAV; `roomRMS`, a
    /// room's noise at that level (under `roomCornerHz`) instead of the quiet floor, and a breath in every pause.
    public static func make(
        rate: Int = 48_000, seed: UInt64 = 5, format: FileFormat = .init(container: "wav", encoding: "pcm24"),
        roomRMS: Double? = nil, roomCornerHz: Double = 100
    ) throws -> RecordingSession {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assets-split-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("raw-audio"), withIntermediateDirectories: true)
        let items = [
            "零", "digit_1", "二", "三", "四", "五", "六", "七", "八", "九", "五", "两", "十", "百", "千", "万", "亿",
            "元", "角", "unit_fen", "整",
        ]
        var generator = SeededRandom(seed: seed)
        var samples = [Float](repeating: 0, count: Int(0.6 * Double(rate)))
        var utterances: [Range<Int>] = []
        for (index, _) in items.enumerated() {
            let syllable = Signals.syllable(
                vowelRMS: index == 10 ? 0.12 : 0.06 + 0.03 * generator.unit(), fricativeBelowDB: 32,
                fricativeSeconds: 0.05 + 0.04 * generator.unit(), vowelSeconds: 0.18 + 0.3 * generator.unit(),
                rate: rate)
            utterances.append(samples.count..<(samples.count + syllable.count))
            samples += syllable
            let pause = Int((0.35 + 0.85 * generator.unit()) * Double(rate))
            var gap = [Float](repeating: 0, count: pause)
            if pause > Int(0.9 * Double(rate)) || roomRMS != nil {
                // A breath in the middle of the pause: soft, breathy noise, 150 ms.
                let breath = Signals.noise(rms: 0.004, count: Int(0.15 * Double(rate)), seed: UInt64(index))
                let start = (pause - breath.count) / 2
                for (offset, value) in breath.enumerated() {
                    gap[start + offset] = value * Float(sin(Double.pi * Double(offset) / Double(breath.count)))
                }
            }
            samples += gap
        }
        let floor =
            roomRMS.map { Signals.roomNoise(rms: $0, count: samples.count, rate: rate, cornerHz: roomCornerHz) }
            ?? Signals.noise(rms: 0.0003, count: samples.count, seed: 42)
        samples = zip(samples, floor).map { $0 + $1 }
        let path = folder.appendingPathComponent("session.\(format.container)")
        let file = try SoundFile.create(writing: path.path, format: format, sampleRate: rate, channels: 1)
        try file.write(interleaved: samples)
        try file.close()
        return RecordingSession(folder: folder, path: path, utterances: utterances, items: items, rate: rate)
    }
}
