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
        // Each shell appends its build's name to one file the moment the build exits: the file's order is the
        // order they finished, whenever this test's threads get round to noticing.
        let order = pack.url.appendingPathComponent("finished.txt")
        let results = Results()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            results.append(try? Self.build(pack.url, named: "first", order: order), finished: "first")
            group.leave()
        }
        let lock = pack.url.appendingPathComponent(".assets/lock").path
        let deadline = Date().addingTimeInterval(20)
        while !Self.isLocked(lock) && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(Self.isLocked(lock), "the first build never took the pack's lock")
        let second = try Self.build(pack.url, named: "second", order: order)
        results.append(second, finished: "second")
        group.wait()

        #expect(results.runs["first"] != nil, "the first build could not be run")
        #expect(try String(contentsOf: order, encoding: .utf8) == "first\nsecond\n", "the second finished first")
        #expect(second.stderr.contains("another build is running on this pack; waiting for it to finish"))
        let runs = Array(results.runs.values)
        #expect(runs.count == 2)
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        let check = try AssetsProcess.run(
            ["check", "--styles", "spoken", "--forms", "yuan", "--format", "json"], in: pack.url)
        let object = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]] ?? []
        #expect(findings.filter { ($0["category"] as? String) == "manifest" }.isEmpty)
        #expect(object?["fragments"] as? Int == 8)
    }

    /// A forced one-job build of `pack` by a shell that appends `name` to `order` the moment the build ends.
    static func build(_ pack: URL, named name: String, order: URL) throws -> AssetsProcess.Result {
        try AssetsProcess.run(
            [
                "-c", #""$0" build --jobs 1 --force; status=$?; echo "$1" >> "$2"; exit $status"#,
                AssetsProcess.executable.path, name, order.path,
            ],
            in: pack, executable: URL(fileURLWithPath: "/bin/sh"))
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
        // The build's stderr, gathered as it comes, so that the wait below has a deadline that can pass.
        let said = Said()
        errors.fileHandleForReading.readabilityHandler = { handle in said.append(handle.availableData) }
        let deadline = Date().addingTimeInterval(20)
        while !said.text.contains("waiting") && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(said.text.contains("another build is running on this pack; waiting for it to finish"), "\(said.text)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(process.isRunning, "the build went ahead while the pack was locked")
        #expect(!FileManager.default.fileExists(atPath: pack.url.appendingPathComponent("manifest.json").path))

        flock(descriptor, LOCK_UN)
        close(descriptor)
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: pack.url.appendingPathComponent("manifest.json").path))
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var runs: [String: AssetsProcess.Result] = [:]
        func append(_ value: AssetsProcess.Result?, finished name: String) {
            lock.lock()
            runs[name] = value
            lock.unlock()
        }
    }

    /// Text a handler appends to while the test reads it.
    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) {
            lock.lock()
            data += more
            lock.unlock()
        }
        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
