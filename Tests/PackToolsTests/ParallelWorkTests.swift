import Foundation
import Testing

@testable import PackTools

/// The build's helpers for doing two things at once give what doing them one after the other gives.
@Suite struct ParallelWorkTests {
    /// Which thread ran each item, to tell that the halves really ran apart.
    final class Threads: @unchecked Sendable {
        private let lock = NSLock()
        private var names: Set<String> = []
        func note() {
            lock.lock()
            names.insert("\(Unmanaged.passUnretained(Thread.current).toOpaque())")
            lock.unlock()
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return names.count
        }
    }

    @Test func halvesComeBackInOrder() {
        for count in [0, 1, 2, 3, 999, 1000, 1001, 4097] {
            let items = (0..<count).map { "item \($0)" }
            let threads = Threads()
            let mapped = ParallelWork.mapInHalves(items, jobs: 2, minimum: 1000) { item -> Int in
                threads.note()
                return Int(item.dropFirst(5))! * 3
            }
            #expect(mapped == (0..<count).map { $0 * 3 }, "\(count) items")
            // Fewer than the minimum stay on the calling thread; at least that many use a second one.
            #expect(threads.count == (count >= 1000 ? 2 : min(count, 1)), "\(count) items")
        }
    }

    @Test func oneJobStaysOnOneThread() {
        let threads = Threads()
        let mapped = ParallelWork.mapInHalves(Array(0..<5000), jobs: 1, minimum: 10) { item -> Int in
            threads.note()
            return item + 1
        }
        #expect(mapped == Array(1...5000))
        #expect(threads.count == 1)
    }

    @Test func bothGivesEachResult() {
        for jobs in [1, 2] {
            let (first, second) = ParallelWork.both(jobs: jobs) {
                (0..<10_000).reduce(0, +)
            } _: {
                String(repeating: "元", count: 3)
            }
            #expect(first == 49_995_000)
            #expect(second == "元元元")
        }
    }
}
