import Foundation

/// Runs `body` for 0..<count on `jobs` workers, each taking the next index when it is free, and returns
/// the results in index order. The workers are `DispatchQueue.concurrentPerform`'s (one job: the calling
/// thread alone); taking the next index, not a fixed share, keeps both busy when fragments differ in length.
enum ParallelWork {
    static func map<Result: Sendable>(count: Int, jobs: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        let results = ResultSlots<Result>(count: count)
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
            while true {
                let index = next.increment() - 1
                if index >= count { break }
                results.set(index, body(index))
            }
        }
        return results.values
    }
}

/// A counter threads can share.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Adds one and returns the new value.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// One slot per result, filled by whichever thread finishes it.
final class ResultSlots<Result>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Result] { slots.map { $0! } }
}
