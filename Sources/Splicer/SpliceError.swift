/// Why a pack cannot be loaded or an utterance cannot be spliced. `description` names the file or token
/// and what to do.
public struct SpliceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case manifest
        case pathOutsidePack
        case unreadableFragment
        case checksumMismatch
        /// The fragment's file is the pointer Git LFS leaves where it did not fetch the file.
        case notFetched
        case formatMismatch
        case missingFragment
        case unsupportedFormat
        /// An amount over the largest the pack was checked for (its `maximumAmount`).
        case overMaximumAmount
    }

    public let kind: Kind
    public let subject: String
    public let message: String

    public init(_ kind: Kind, _ subject: String, _ message: String) {
        self.kind = kind
        self.subject = subject
        self.message = message
    }

    public var description: String { "\(subject): \(message)" }
}
