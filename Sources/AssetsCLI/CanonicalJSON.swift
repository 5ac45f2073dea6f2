import Foundation

/// One JSON encoder for everything `assets` prints or writes: sorted keys, so the same value gives the
/// same bytes.
enum CanonicalJSON {
    static func string(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
