// Times the reference splicer on a loaded pack: what a Notification Service Extension does per push.
//
//     swift run -c release splice-benchmark [manifest.json] [rounds]
//
// Prints the median and 95th percentile of splicing one amount (tokens → samples), of that plus encoding
// the file bytes, and of converting the amount to tokens, over `rounds` amounts across every style and form.
import Checksum
import Foundation
import SpeechText
import Splicer

let arguments = CommandLine.arguments.dropFirst()
let manifest = URL(fileURLWithPath: arguments.first ?? "manifest.json")
let rounds = arguments.dropFirst().first.flatMap(Int.init) ?? 20_000

let pack = try SoundPack(manifestAt: manifest, digest: { SHA256.hex(of: $0) })
try pack.loadAll()
let splicer = Splicer(pack: pack)
let clock = ContinuousClock()

/// Mostly everyday amounts, now and then a large one; the same sequence on every run.
struct Amounts {
    var state: UInt64 = 42

    mutating func next() -> Amount {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let fen = state % 8 == 0 ? Int64(state >> 20) % Amount.maximum.fen : Int64(state >> 33) % 10_000_000
        return Amount(fen: fen)!
    }
}
var amounts = Amounts()

var convert: [Duration] = []
var splice: [Duration] = []
var spliceAndEncode: [Duration] = []
var frames = 0
for round in 0..<rounds {
    let converter = SpeechConverter(style: ReadingStyle.allCases[round % 4], form: AmountForm.allCases[round / 4 % 2])
    let amount = amounts.next()
    var tokens: [Token] = []
    convert.append(clock.measure { tokens = converter.reading(of: amount).tokens })
    var sound: PCMAudio?
    splice.append(try clock.measure { sound = try splicer.splice(tokens) })
    spliceAndEncode.append(try clock.measure { _ = splicer.fileData(try splicer.splice(tokens)) })
    frames += sound!.samples.count
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
func report(_ name: String, _ samples: [Duration]) {
    let sorted = samples.map(microseconds).sorted()
    let median = sorted[sorted.count / 2]
    let p95 = sorted[sorted.count * 95 / 100]
    print(String(format: "%-28@ median %8.1f µs   p95 %8.1f µs", name as NSString, median, p95))
}
print(
    "\(rounds) amounts, \(pack.manifest.fragments.count) fragments, mean \(String(format: "%.2f", Double(frames) / Double(rounds) / 44_100)) s per sound"
)
report("amount → tokens", convert)
report("tokens → samples", splice)
report("tokens → samples → WAV bytes", spliceAndEncode)
