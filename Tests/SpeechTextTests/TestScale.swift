/// How much of the speech converter's exhaustive proofs run: every whole amount up to a million yuan, one by one,
/// and a sample of the rest.
enum TestScale {
    /// Whole amounts proved one by one: 0 up to this.
    static let wholeYuan: Int64 = 1_000_000
    /// Random amounts up to the maximum.
    static let randomAmounts = 200_000
}
