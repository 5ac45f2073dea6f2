import Foundation
import Testing

@testable import PackTools

/// The build's pool: every index once, results in index order, on as many threads as its jobs say.
@Suite struct ParallelWorkTests {
    /// Which thread ran each item, to tell that the work really ran apart.
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

    @Test(arguments: [1, 2, 5])
    func everyIndexOnceInOrder(jobs: Int) {
        let threads = Threads()
        let results = ParallelWork.map(count: 200, jobs: jobs) { index in
            threads.note()
            // Uneven work, so a worker that finishes early takes the next index.
            return (0..<(index % 7) * 1_000).reduce(index, +)
        }
        #expect(results == (0..<200).map { index in (0..<(index % 7) * 1_000).reduce(index, +) })
        #expect(threads.count <= jobs)
        if jobs == 1 { #expect(threads.count == 1) }
    }
}
