import Foundation
import Testing

/// The README shows commands run on the shipped pack with what they print (`    $ assets say 88 …` and the
/// lines under it). Each one is run here on a copy of that pack, so an example that stops being true — the
/// pack rebuilt, a message reworded — fails the tests instead of misleading a reader.
@Suite struct ReadmeExampleTests {
    struct Example: CustomStringConvertible {
        let arguments: [String]
        let output: [String]
        var description: String { "assets " + arguments.joined(separator: " ") }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every example at the README's top level of indentation: a `    $ assets` line, then the lines it prints,
    /// up to the next command or the end of the block. (An example inside a list, indented further, runs on a
    /// session the README does not ship.)
    static func examples(inReadme text: String) -> [Example] {
        let prompt = "    $ assets "
        var examples: [Example] = []
        var current: (arguments: [String], output: [String])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(prompt) {
                if let current { examples.append(Example(arguments: current.arguments, output: current.output)) }
                let command = line.dropFirst(prompt.count)
                // Split at spaces: an example with quotes would be run with its quotes in the arguments.
                if command.contains("\"") || command.contains("'") {
                    Issue.record("a README example with quotes, which this test does not split: \(command)")
                }
                current = (command.split(separator: " ").map(String.init), [])
            } else if current != nil, line.hasPrefix("    ") {
                current?.output.append(String(line.dropFirst(4)))
            } else if let finished = current {
                examples.append(Example(arguments: finished.arguments, output: finished.output))
                current = nil
            }
        }
        if let current { examples.append(Example(arguments: current.arguments, output: current.output)) }
        return examples
    }

    /// The shipped pack (its settings, recordings, fragments and manifest) copied into a fresh folder, where an
    /// example's `-o out.wav` can write.
    static func shippedPackCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assets-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for part in ["assets.json", "manifest.json", "raw-audio", "normalized"] {
            try FileManager.default.copyItem(
                at: repository.appendingPathComponent(part), to: folder.appendingPathComponent(part))
        }
        return folder
    }

    @Test func findsTheExamplesAndWhatTheyPrint() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = Self.examples(inReadme: readme)
        let commands = examples.map(\.description)
        #expect(commands.contains("assets say 100010 --style formatter"), "\(commands)")
        #expect(commands.contains("assets check"), "\(commands)")
        #expect(examples.allSatisfy { !$0.output.isEmpty }, "\(examples)")
    }

    @Test func everyExamplePrintsWhatTheReadmeShows() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let pack = try Self.shippedPackCopy()
        defer { try? FileManager.default.removeItem(at: pack) }
        for example in Self.examples(inReadme: readme) {
            let run = InProcess.run(example.arguments, in: pack)
            #expect(run.status == 0, "\(example): \(run.stderr)")
            let printed = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(printed.dropLast(printed.last == "" ? 1 : 0).elementsEqual(example.output), "\(example)")
        }
    }
}
