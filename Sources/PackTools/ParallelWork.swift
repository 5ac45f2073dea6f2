import Foundation

/// Runs `body` for 0..<count on `jobs` threads, each taking the next index when it is free, and returns
/// the results in index order.
enum ParallelWork {
    static func map<Result: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
        let results = ResultSlots<Result>(count: count)
        let next = Counter()
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            group.enter()
            let thread = Thread {
                while true {
                    let index = next.increment() - 1
                    if index >= count { break }
                    results.set(index, body(index))
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return results.values
    }

    /// `first` on this thread while `second` runs on another, or one after the other when `jobs` is 1:
    /// for two independent reads of a build's bookkeeping.
    static func both<First, Second: Sendable>(
        jobs: Int, _ first: () -> First, _ second: @escaping @Sendable () -> Second
    ) -> (First, Second) {
        guard jobs > 1 else { return (first(), second()) }
        let result = ResultSlots<Second>(count: 1)
        let group = DispatchGroup()
        group.enter()
        let thread = Thread {
            result.set(0, second())
            group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
        let firstResult = first()
        group.wait()
        return (firstResult, result.values[0])
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
