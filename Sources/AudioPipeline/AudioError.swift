/// Why one recording could not become a fragment. `description` names the file, says what is wrong and
/// what to do about it.
public struct AudioError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let problem: String
    public let fix: String

    public init(file: String, problem: String, fix: String) {
        self.file = file
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(file): \(problem): \(fix)" }
}
