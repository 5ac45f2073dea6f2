import Foundation
import PackReports
import PackTools
import Testing

@testable import AssetsCLI

/// `check --format xcode` and `--format github` on a pack with a missing token, a stale recording and a
/// mismatched fragment: one line per finding, each on the file to mend, then the summary.
@Suite struct AnnotationTests {
    static func brokenPack() throws -> BuildEndToEndTests.Folder {
        let pack = try CheckAuditEndToEndTests.fullPack()
        let handle = try FileHandle(forWritingTo: pack.url.appendingPathComponent("raw-audio/digit_1.wav"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0, 0]))
        try handle.close()
        try Data("not the fragment".utf8).write(to: pack.url.appendingPathComponent("normalized/digit_2.wav"))
        return pack
    }

    @Test func xcodeGetsAnAbsolutePathPerFinding() throws {
        let pack = try Self.brokenPack()
        let root = pack.url.standardizedFileURL.path
        let run = InProcess.run(["check", "--styles", "spoken,formatter", "--format", "xcode"], in: pack.url)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("\(root)/assets.json: error: 〇: [coverage/missing] no fragment, needed by formatter/yuan")
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(root)/raw-audio/digit_1.wav: error: [stale/recording] stale pack: the recording changed")
            })
        #expect(
            lines.contains {
                $0.hasPrefix("\(root)/normalized/digit_2.wav: error: [manifest/file] its bytes do not match")
            })
        #expect(lines.last == "assets check: 3 problems (manifest/file, stale/recording, coverage/missing)")
    }

    @Test func githubGetsAWorkflowCommandPerFindingRelativeToTheWorkspace() throws {
        let pack = try Self.brokenPack()
        let workspace = pack.url.deletingLastPathComponent()
        let folder = pack.url.lastPathComponent
        let run = InProcess.run(
            ["check", "--styles", "spoken,formatter", "--format", "github"], in: pack.url,
            environment: ["GITHUB_WORKSPACE": workspace.path])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "::error file=\(folder)/assets.json,title=coverage/missing::〇: no fragment, needed by formatter/yuan"
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "::error file=\(folder)/raw-audio/digit_1.wav,title=stale/recording::stale pack: the recording changed"
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "::error file=\(folder)/normalized/digit_2.wav,title=manifest/file::its bytes do not match")
            })
        #expect(lines.last == "assets check: 3 problems (manifest/file, stale/recording, coverage/missing)")
        // A message with `:` keeps it (only properties escape it); the fix's backticks pass as they are.
        #expect(lines.contains { $0.hasSuffix(": run `assets build`") })
    }

    @Test func aPassingPackPrintsOnlyTheSummary() throws {
        let pack = try CheckAuditEndToEndTests.fullPack()
        for format in ["xcode", "github"] {
            let run = InProcess.run(["check", "--format", format], in: pack.url)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("assets check: ok — 21 fragments"), "\(format): \(run.stdout)")
            #expect(run.stdout.filter { $0 == "\n" }.count == 1)
        }
    }

    /// GitHub's rules: `%`, CR and LF escaped everywhere, `:` and `,` in properties too.
    @Test func escapesAsGitHubReadsThem() {
        #expect(CheckAnnotations.data("100% of 2\r\nlines: a, b") == "100%25 of 2%0D%0Alines: a, b")
        #expect(CheckAnnotations.property("raw:audio/a,b%\n.wav") == "raw%3Aaudio/a%2Cb%25%0A.wav")
    }

    @Test func theRepositoryIsTheWorkspaceOrTheNearestGitFolder() throws {
        let pack = BuildEndToEndTests.Folder()
        let inner = pack.url.appendingPathComponent("App/Voice")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        #expect(PackPaths.repository(from: inner, environment: ["GITHUB_WORKSPACE": "/w"]).path == "/w")
        try FileManager.default.createDirectory(
            at: pack.url.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(
            PackPaths.repository(from: inner, environment: [:]).standardizedFileURL.path
                == pack.url.standardizedFileURL.path)
    }
}
