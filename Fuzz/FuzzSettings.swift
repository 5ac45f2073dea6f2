// libFuzzer target: the JSON parser and the assets.json reader. Built by scripts/fuzz.
import PackManifest
import VoicePack

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let parsed = (try? JSONNode.parse(text)) != nil
    do {
        _ = try Settings.parse(text, name: "assets.json")
        // The settings reader reads through the parser: what it accepts, the parser does.
        precondition(parsed, "settings read from text the JSON parser refuses")
    } catch {
        precondition(!error.issues.isEmpty, "an error with no issue")
    }
    return 0
}
