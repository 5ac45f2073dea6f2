import AudioPipeline
import Foundation
import Testing

/// `assets build` as a user runs it: in a pack folder, reading assets.json, with its exit status.
@Suite struct BuildEndToEndTests {
    final class Folder: @unchecked Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assets-e2e-\(UUID().uuidString)")
        init() {
            try! FileManager.default.createDirectory(
                at: url.appendingPathComponent("raw-audio"), withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// A tone of `seconds` as `raw-audio/<name>`, faded in over 10 ms and decaying over its last 60 ms as a
        /// voice does (one stopped within 10 ms is a voice cut off), between 200 ms of digital silence either side.
        func record(_ name: String, rate: Int = 48_000, seconds: Double = 0.4) throws {
            let frames = Int((seconds + 0.4) * Double(rate))
            var samples = [Float](repeating: 0, count: frames)
            let start = Int(0.2 * Double(rate))
            let count = Int(seconds * Double(rate))
            let (fadeIn, decay) = (Double(rate) / 100, Double(rate) * 0.06)
            for offset in 0..<count {
                let t = Double(offset) / Double(rate)
                // No click at either end, so every recording has the same band.
                let envelope = min(1, Double(offset) / fadeIn, pow(Double(count - offset) / decay, 3))
                samples[start + offset] = Float(
                    envelope * (0.1 * sin(2 * .pi * 220 * t) + 0.05 * sin(2 * .pi * 660 * t)))
            }
            let file = try SoundFile.create(
                writing: url.appendingPathComponent("raw-audio/\(name)").path,
                format: FileFormat(container: "wav", encoding: "pcm16"), sampleRate: rate, channels: 1)
            try file.write(interleaved: samples)
            try file.close()
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
        }

        func exists(_ name: String) -> Bool {
            FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
        }
    }

    @Test func buildsThenHasNothingToDo() throws {
        let pack = Folder()
        try pack.record("digit_1.wav")
        try pack.record("digit_2.wav", rate: 22_050)
        let first = InProcess.run(["build"], in: pack.url, environment: ["CI": "true"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("built 2, unchanged 0: wrote manifest.json"))
        #expect(pack.exists("normalized/digit_1.wav") && pack.exists("normalized/digit_2.wav"))
        // Not a terminal: no progress lines, only the coverage warnings for what is still missing.
        #expect(!first.stderr.contains("\r"))
        #expect(first.stderr.contains("零: warning: [coverage/missing]"))

        let second = InProcess.run(["build"], in: pack.url)
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("built 0, unchanged 2: manifest.json is up to date"))
    }

    /// A pack as an Android app ships it (`tts_5.mp3`, `tts_ten_thousand.mp3`): each recording's name is read as
    /// the token it says, and the "stems" mapping the build prints, put in assets.json, builds the pack.
    @Test func appNamesAreReadAndTheMappingItPrintsBuilds() throws {
        let pack = Folder()
        let digits = (0...9).map { "tts_\($0)" }
        let units = [
            "tts_ten", "tts_hundred", "tts_thousand", "tts_ten_thousand", "tts_billion", "tts_dot", "tts_yuan",
        ]
        for stem in digits + units + ["tts_success", "yi"] { try pack.record(stem + ".wav") }
        let settings = #"{"styles": ["spoken"], "forms": ["decimal"], "aliases": {"两": "二"}"#
        try pack.write("assets.json", settings + "}")
        let named = InProcess.run(["build"], in: pack.url)
        #expect(named.status == 1)
        #expect(
            named.stderr.contains(
                #"raw-audio/tts_ten_thousand.wav: error: [naming/unnamed] 'tts_ten_thousand' names no token; its name reads as 万: listen to it, then map it in assets.json ("stems": {"tts_ten_thousand": "万"}) or rename it to unit_wan.wav"#
            ))
        #expect(named.stderr.contains("[naming/unnamed] 'tts_success' names no token: rename it to a default stem"))
        #expect(
            named.stderr.contains(
                #"[naming/unnamed] 'yi' names no token; its name reads as 一 or 亿, apps say both: listen to it, then map it in assets.json to the one it says ("stems": {"yi": "一"}, or "亿")"#
            ))
        #expect(named.stderr.contains("assets build: 17 recordings are named as apps name them"))
        let block = try #require(named.stderr.components(separatedBy: "(a new one can be this):\n").last)
        let json = block.components(separatedBy: "\n}\n")[0] + "\n}"
        let stems = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: String]])?["stems"])
        #expect(stems.count == 17 && stems["tts_billion"] == "亿" && stems["tts_0"] == "零" && stems["tts_dot"] == "点")

        // The designer listens, pastes the mapping, and leaves out what the app no longer says.
        let mapping = String(json.dropFirst().dropLast().trimmingCharacters(in: .whitespacesAndNewlines))
        try pack.write("assets.json", settings + ", " + mapping + "}")
        for name in ["tts_success.wav", "yi.wav"] {
            try FileManager.default.removeItem(at: pack.url.appendingPathComponent("raw-audio/" + name))
        }
        let mapped = InProcess.run(["build"], in: pack.url)
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stdout.hasPrefix("built 17, unchanged 0"))
        let check = InProcess.run(["check"], in: pack.url)
        #expect(!check.stdout.contains("[naming/") && !check.stdout.contains("[coverage/"), "\(check.stdout)")
    }

    @Test func aBadRecordingExitsOneAndChangesNothing() throws {
        let pack = Folder()
        try pack.record("digit_1.wav")
        try pack.write("raw-audio/digit_2.m4a", "not audio")
        try pack.write("raw-audio/whatever.wav", "")
        let run = InProcess.run(["build"], in: pack.url)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.contains(
                "raw-audio/digit_2.m4a: error: [audio/unreadable] neither libsndfile (Format not recognised.) nor FFmpeg"
            ))
        #expect(run.stderr.contains("raw-audio/whatever.wav: error: [naming/unnamed] 'whatever' names no token"))
        #expect(run.stderr.contains("2 problems; normalized and manifest.json are unchanged"))
        #expect(!pack.exists("manifest.json") && !pack.exists("normalized/digit_1.wav"))
    }

    /// FFmpeg and mpg123 (under libsndfile) write to stderr by themselves; a real process shows only our lines,
    /// each naming its file, with what the library said inside.
    @Test func whatTheDecodersSayIsInsideOurLinesOnly() throws {
        let pack = Folder()
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("PackToolsTests/Fixtures")
        try pack.record("digit_1.wav")
        for (fixture, name) in [("voice-aac-faststart-cut.m4a", "digit_2.m4a"), ("voice-xing-cut.mp3", "digit_3.mp3")] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(fixture), to: pack.url.appendingPathComponent("raw-audio/\(name)"))
        }
        let run = try AssetsProcess.run(["build"], in: pack.url, environment: ["CI": "true"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.allSatisfy { $0.hasPrefix("raw-audio/") || $0.hasPrefix("assets build: ") }, "\(run.stderr)")
        #expect(lines.contains { $0.hasPrefix("raw-audio/digit_2.m4a: error:") && $0.contains("Packet corrupt") })
        #expect(lines.contains { $0.hasPrefix("raw-audio/digit_3.mp3: error:") && $0.contains("Xing stream size") })
    }

    @Test func badSettingsExitTwoListingEveryProblem() throws {
        let pack = Folder()
        try pack.record("digit_1.wav")
        try pack.write("assets.json", "{\n  \"loudnes\": {},\n  \"format\": {\"container\": \"mp4\"}\n}\n")
        let run = InProcess.run(["build"], in: pack.url)
        #expect(run.status == 2)
        #expect(
            run.stderr == """
                assets.json:2:3: loudnes: unknown key (did you mean 'loudness'?)
                assets.json:3:27: format.container: unknown value 'mp4': use one of wav, caf, aiff

                """)
        #expect(!pack.exists("manifest.json"))
    }

    @Test func pathsComeFromFlagsAndSettings() throws {
        let pack = Folder()
        try FileManager.default.createDirectory(
            at: pack.url.appendingPathComponent("voice"), withIntermediateDirectories: true)
        try pack.record("digit_3.wav")
        try FileManager.default.moveItem(
            at: pack.url.appendingPathComponent("raw-audio/digit_3.wav"),
            to: pack.url.appendingPathComponent("voice/digit_3.wav"))
        try pack.write("assets.json", #"{"raw": "voice", "out": "fragments", "format": {"container": "caf"}}"#)
        let run = InProcess.run(["build", "--manifest", "pack.json", "--jobs=1"], in: pack.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(pack.exists("fragments/digit_3.caf") && pack.exists("pack.json"))
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: pack.url.appendingPathComponent("pack.json")))
            as? [String: Any]
        let fragments = manifest?["fragments"] as? [[String: Any]]
        #expect(fragments?.first?["file"] as? String == "fragments/digit_3.caf")
        #expect((fragments?.first?["source"] as? [String: Any])?["file"] as? String == "voice/digit_3.wav")
    }

    @Test func wrongFlagsExitTwo() throws {
        let run = InProcess.run(["build", "--jobs", "0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--jobs takes a whole number from 1 to 256, not '0'"))
    }
}

/// A recording nobody may read. Root reads everything, so as root the build runs as `nobody` (setpriv).
@Suite struct UnreadableFileTests {
    @Test func anUnreadableRecordingIsNamed() throws {
        let pack = BuildEndToEndTests.Folder()
        try pack.record("digit_1.wav")
        try pack.record("digit_2.wav")
        let locked = pack.url.appendingPathComponent("raw-audio/digit_2.wav")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        var arguments = ["build"]
        var executable = AssetsProcess.executable
        if getuid() == 0 {
            // The pack must be open to nobody, all but the locked file.
            for path in [pack.url.path, pack.url.appendingPathComponent("raw-audio").path] {
                try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: path)
            }
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: pack.url.appendingPathComponent("raw-audio/digit_1.wav").path)
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", AssetsProcess.executable.path, "build"]
            executable = URL(fileURLWithPath: "/usr/bin/setpriv")
        }
        let run = try AssetsProcess.run(arguments, in: pack.url, executable: executable)
        #expect(run.status == 1, "\(run.stderr)")
        let line = run.stderr.split(separator: "\n").first { $0.contains("digit_2.wav") }.map(String.init) ?? ""
        #expect(line.hasPrefix("raw-audio/digit_2.wav: error: [audio/unreadable] cannot be read ("), "\(run.stderr)")
        #expect(line.lowercased().contains("permission"), "\(line)")
        #expect(line.hasSuffix("make it readable"))
        #expect(!pack.exists("manifest.json"))
    }
}
