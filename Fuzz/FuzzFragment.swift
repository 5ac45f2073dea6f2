// libFuzzer target: the splicer's own WAV, CAF and AIFF readers, which an iOS extension runs on files
// from its bundle or App Group. Compiled into the Splicer module by scripts/fuzz, to reach them.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFragment(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let decoded = try? PCMFile.decode(data, name: "fragment") {
        // Whatever reads back writes out and reads back to the same samples.
        let again = try? PCMFile.decode(PCMFile.encode(decoded.audio, as: decoded.container), name: "again")
        precondition(again?.audio.samples.count == decoded.audio.samples.count, "round trip changed the length")
    }
    return 0
}
