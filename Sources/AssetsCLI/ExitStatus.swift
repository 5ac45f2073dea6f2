/// What `assets` tells its caller, mapped to a process exit code in one place (`AssetsCLI.main`).
public enum ExitStatus: Int32, Sendable {
    /// All good.
    case success = 0
    /// The work found problems: a fragment failed, a check failed.
    case problemsFound = 1
    /// The command itself was wrong: a bad flag, an unreadable config, an amount that is not one.
    case usageError = 2
}
