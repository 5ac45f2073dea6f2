// libFuzzer target: the decode stage on any bytes — libsndfile first, FFmpeg for what it does not read (AAC and
// ALAC in .m4a) — as `build` meets a delivery. Any input gives samples or an AudioError, never a crash.
import AudioPipeline
import Foundation

private let path =
    (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
    + "/assets-fuzz-decode-\(getpid()).m4a"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: bytes, count: count)) else { return 0 }
    if let (info, channels) = try? Decode.read(path: path, name: "delivery.m4a", maximumSeconds: 10) {
        precondition(channels.count == info.channels && channels.allSatisfy { $0.count == info.frames })
    }
    return 0
}
