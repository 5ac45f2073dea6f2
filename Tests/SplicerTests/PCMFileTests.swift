import Foundation
import PackManifest
import Testing

@testable import Splicer

/// The splicer's own readers refuse what is not a WAV, CAF or AIFF fragment, without crashing.
@Suite struct PCMFileTests {
    /// Inputs the fuzzer found (scripts/fuzz), kept so they stay fixed.
    static let fuzzFindings = [
        // An AIFF whose 80-bit sample rate is infinite.
        "Rk9STQACN2BBSUZGQ09NTQAAABIAAQB5eXl5eXl5eXl5eXl5eXl5eXl5eXkAU04AAAAAAAA="
    ]

    @Test(arguments: fuzzFindings)
    func fuzzFindingsAreRefused(base64: String) {
        let data = Data(base64Encoded: base64)!
        #expect(throws: SpliceError.self) { try PCMFile.decode(data, name: "fragment") }
    }

    @Test func headersThatLieAreRefused() {
        // A CAF whose data chunk claims almost 2^63 bytes, and whose rate is NaN.
        var caf = Array("caff".utf8) + [0, 1, 0, 0] + Array("desc".utf8) + PCMFile.be64(32)
        caf += PCMFile.be64(Double.nan.bitPattern) + Array("lpcm".utf8) + [UInt8](repeating: 0, count: 20)
        #expect(throws: SpliceError.self) { try PCMFile.decode(Data(caf), name: "nan.caf") }
        var huge = Array("caff".utf8) + [0, 1, 0, 0] + Array("data".utf8) + PCMFile.be64(UInt64(Int64.max - 5))
        huge += [0, 0, 0, 0]
        #expect(throws: SpliceError.self) { try PCMFile.decode(Data(huge), name: "huge.caf") }
        // An AIFF whose sound chunk is shorter than its own header.
        let aiff =
            Array("FORM".utf8) + PCMFile.be32(30) + Array("AIFF".utf8) + Array("COMM".utf8) + PCMFile.be32(18)
            + PCMFile.be16(1) + PCMFile.be32(1) + PCMFile.be16(16) + PCMFile.extended(44_100) + Array("SSND".utf8)
            + PCMFile.be32(2) + [0, 0]
        #expect(throws: SpliceError.self) { try PCMFile.decode(Data(aiff), name: "short.aiff") }
    }

    @Test func everyFormatRoundTrips() throws {
        let samples: [Float] = [0, 0.5, -0.5, 1 / 32768, -1, 0.999_969_5]
        for format in SampleFormat.allCases {
            for container in Container.allCases {
                let audio = PCMAudio(samples: samples, sampleRate: 44_100, sampleFormat: format)
                let decoded = try PCMFile.decode(PCMFile.encode(audio, as: container), name: "x")
                #expect(decoded.audio == audio && decoded.container == container, "\(format) in \(container)")
            }
        }
    }
}
