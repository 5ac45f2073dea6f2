import Foundation

/// The one JSON writer of `assets`: keys sorted by Unicode scalar value and slashes as they are, so the same
/// value gives the same bytes — for the manifest (laid out by `JSONLayout`), what the commands print, the
/// build's fingerprint of its settings and the commit's journal.
public enum CanonicalJSON {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Compact canonical JSON. Every value `assets` writes is encodable, so a failure is a bug.
    public static func data(_ value: some Encodable) -> Data { try! encoder.encode(value) }

    public static func string(_ value: some Encodable) -> String { String(decoding: data(value), as: UTF8.self) }
}
