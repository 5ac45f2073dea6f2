/// The known name nearest to a misspelt one, for "did you mean …?" in flags and settings keys.
public enum Suggestion {
    /// The candidate within a small edit distance of `name` (about a third of its length), or nil.
    public static func nearest(to name: String, in candidates: [String]) -> String? {
        allNearest(to: name, in: candidates).first
    }

    /// Every candidate at the smallest edit distance from `name`, within the limit, in `candidates`' order.
    public static func allNearest(to name: String, in candidates: [String]) -> [String] {
        let limit = max(1, name.count / 3)
        var best: (candidates: [String], distance: Int) = ([], limit + 1)
        for candidate in candidates {
            let distance = editDistance(Array(name.lowercased()), Array(candidate.lowercased()))
            if distance < best.distance {
                best = ([candidate], distance)
            } else if distance == best.distance {
                best.candidates.append(candidate)
            }
        }
        return best.candidates
    }

    /// Levenshtein distance, with a transposition counted as one edit (`stlye` → `style`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](0...b.count)
        var previous = before
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
