import Foundation
import Testing

/// Ctrl-C during a build: the build exits 128 + 2, the output folder holds no staging folder, and the pack is
/// what it was.
@Suite struct InterruptTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedBuildLeavesThePackAsItWas(signal: Int32) throws {
        let pack = BuildEndToEndTests.Folder()
        for index in 0..<10 { try pack.record("digit_\(index).wav") }
        let first = try AssetsProcess.run(["build"], in: pack.url)
        #expect(first.status == 0)
        let manifest = try Data(contentsOf: pack.url.appendingPathComponent("manifest.json"))
        // New recordings for every token, so the next build has work to be interrupted in.
        for index in 0..<10 { try pack.record("digit_\(index).wav", rate: 44_100) }
        let process = Process()
        process.executableURL = AssetsProcess.executable
        process.arguments = ["build", "--force", "--jobs", "1"]
        process.currentDirectoryURL = pack.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Once the build has staged something, interrupt it.
        let staging = pack.url.appendingPathComponent("normalized/.assets-staging")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline
            && ((try? FileManager.default.contentsOfDirectory(atPath: staging.path))?.isEmpty ?? true)
        {
            usleep(2_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(!FileManager.default.fileExists(atPath: staging.path))
        #expect(try Data(contentsOf: pack.url.appendingPathComponent("manifest.json")) == manifest)
    }
}
