// libFuzzer target: the manifest decoder (schema probe, then the model), and the split of a manifest's
// text into its fragments' texts that a build carries over (PackTools/FastPaths.swift, compiled in). Built
// by scripts/fuzz.
import Foundation
import PackManifest

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // Any text: the split finds fragments or gives up, without a crash.
    _ = Manifest.fragmentTexts(in: [UInt8](data))
    if let manifest = try? Manifest.decode(data, name: "manifest.json") {
        // A manifest that decodes writes canonical bytes that decode to the same value…
        let canonical = manifest.canonicalData()
        precondition((try? Manifest.decode(canonical, name: "again")) == manifest, "round trip changed it")
        // …and that split into one text per fragment, which put back are the same bytes.
        if Set(manifest.fragments.map(\.token)).count == manifest.fragments.count {
            let texts = Manifest.fragmentTexts(in: [UInt8](canonical))
            precondition(texts?.count == manifest.fragments.count, "the canonical text did not split")
            let joined = Manifest.canonicalData(
                header: manifest, fragmentTexts: manifest.fragments.map { texts![$0.token]! })
            precondition(joined == canonical, "the split texts put back differ")
        }
    }
    return 0
}
