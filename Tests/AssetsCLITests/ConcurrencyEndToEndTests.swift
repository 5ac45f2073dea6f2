import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two builds on one pack at once: the second waits for the first, saying so; the pack is never a mix.
@Suite struct ConcurrencyEndToEndTests {
    @Test func aSecondBuildWaitsForTheFirst() throws {
        let pack = BuildEndToEndTests.Folder()
        for stem in ["digit_1", "digit_2", "digit_3", "digit_4", "digit_5", "digit_6", "digit_7", "digit_8"] {
            try pack.record("\(stem).wav", rate: 96_000)
        }
        // The first build, on one job, holds the pack for a while; the second starts once the lock is taken.
        let results = Results()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            results.append(try? Self.stampedBuild(pack.url), finished: "first")
            group.leave()
        }
        let lock = pack.url.appendingPathComponent(".assets/lock").path
        let deadline = Date().addingTimeInterval(20)
        while !Self.isLocked(lock) && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(Self.isLocked(lock), "the first build never took the pack's lock")
        let second = try Self.stampedBuild(pack.url)
        results.append(second, finished: "second")
        group.wait()

        // By the machine's clock, not by when this test's threads got round to noticing (under a loaded
        // test run the first's reader thread can wake after the second build is long done).
        let first = try #require(results.runs["first"], "the first build could not be run")
        #expect(first.exited < second.exited, "the second build finished before the first")
        #expect(second.result.stderr.contains("another build is running on this pack; waiting for it to finish"))
        let runs = results.runs.values.map(\.result)
        #expect(runs.count == 2)
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        let check = try AssetsProcess.run(
            ["check", "--styles", "spoken", "--forms", "yuan", "--format", "json"], in: pack.url)
        let object = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]] ?? []
        #expect(findings.filter { ($0["category"] as? String) == "manifest" }.isEmpty)
        #expect(object?["fragments"] as? Int == 8)
    }

    /// A forced one-job build of `pack`, and the time it exited (seconds since 1970), stamped by the shell
    /// that ran it the moment it ended.
    static func stampedBuild(_ pack: URL) throws -> Stamped {
        let run = try AssetsProcess.run(
            [
                "-c", #""$0" build --jobs 1 --force; status=$?; date "+exited %s.%N" >&2; exit $status"#,
                AssetsProcess.executable.path,
            ],
            in: pack, executable: URL(fileURLWithPath: "/bin/sh"))
        let stamp = run.stderr.split(separator: "\n").last { $0.hasPrefix("exited ") }
        let exited = try #require(stamp.flatMap { Double($0.dropFirst("exited ".count)) }, "\(run.stderr)")
        return Stamped(result: run, exited: exited)
    }

    struct Stamped {
        let result: AssetsProcess.Result
        let exited: Double
    }

    /// Whether a process holds the lock file at `path` (another `flock` on it would block).
    static func isLocked(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return true
    }

    /// While another process holds the pack's lock, a build says it waits, and does; it finishes once
    /// the lock is released.
    @Test func aBuildWaitsWhileThePackIsLocked() throws {
        let pack = BuildEndToEndTests.Folder()
        try pack.record("digit_1.wav")
        let state = pack.url.appendingPathComponent(".assets")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let descriptor = open(state.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        #expect(flock(descriptor, LOCK_EX) == 0)

        let process = Process()
        process.executableURL = AssetsProcess.executable
        process.arguments = ["build"]
        process.currentDirectoryURL = pack.url
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var said = Data()
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: said, as: UTF8.self).contains("waiting") && Date() < deadline {
            said += errors.fileHandleForReading.availableData
        }
        #expect(
            String(decoding: said, as: UTF8.self).contains(
                "another build is running on this pack; waiting for it to finish"))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(process.isRunning, "the build went ahead while the pack was locked")
        #expect(!FileManager.default.fileExists(atPath: pack.url.appendingPathComponent("manifest.json").path))

        flock(descriptor, LOCK_UN)
        close(descriptor)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: pack.url.appendingPathComponent("manifest.json").path))
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var runs: [String: Stamped] = [:]
        func append(_ value: Stamped?, finished name: String) {
            lock.lock()
            runs[name] = value
            lock.unlock()
        }
    }
}
