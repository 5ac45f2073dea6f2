// libFuzzer target: the JSON parser and the assets.json reader. Built by scripts/fuzz.
import PackManifest
import VoicePack

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    if let node = try? JSONNode.parse(text) {
        // What parses writes out canonically, and that parses to the same canonical text.
        let canonical = node.canonicalText
        precondition((try? JSONNode.parse(canonical))?.canonicalText == canonical, "canonical text is not stable")
    }
    do {
        _ = try Settings.parse(text, name: "assets.json")
    } catch {
        precondition(!error.issues.isEmpty, "an error with no issue")
    }
    return 0
}
