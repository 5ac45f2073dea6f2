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

    /// With one job both run on the calling thread; with two, the second runs on a thread of its own.
    @Test(arguments: [1, 2])
    func bothRunsWhereItsJobsSay(jobs: Int) {
        let threads = Threads()
        _ = ParallelWork.both(jobs: jobs) {
            threads.note()
        } _: {
            threads.note()
        }
        #expect(threads.count == jobs)
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
