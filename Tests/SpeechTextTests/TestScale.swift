import Foundation

/// How much of the exhaustive proofs to run: all of it, or — under the sanitizers, which look for memory
/// and thread errors rather than wrong readings — a tenth (`ASSETS_TEST_SCALE=reduced`).
enum TestScale {
    static let reduced = ProcessInfo.processInfo.environment["ASSETS_TEST_SCALE"] == "reduced"

    /// Whole amounts proved one by one: 0 up to this.
    static var wholeYuan: Int64 { reduced ? 100_000 : 1_000_000 }
    /// Random amounts up to the maximum.
    static var randomAmounts: Int { reduced ? 20_000 : 200_000 }
}
