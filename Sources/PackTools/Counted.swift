/// A count and its noun, in the plural unless the count is one: "1 problem", "3 warnings", "0 fragments".
public func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
