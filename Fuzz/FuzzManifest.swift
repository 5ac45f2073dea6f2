// libFuzzer target: the manifest decoder (schema probe, then the model) and the splicer's readers of
// the fragment files a manifest points at. Built by scripts/fuzz.
import Foundation
import VoicePack

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let manifest = try? Manifest.decode(data, name: "manifest.json") {
        // A manifest that decodes writes canonical bytes that decode to the same value.
        precondition(
            (try? Manifest.decode(manifest.canonicalData(), name: "again")) == manifest, "round trip changed it")
    }
    return 0
}
