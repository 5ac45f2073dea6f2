import CommandKit

extension UsageError {
    /// An error of `assets COMMAND`, or of `assets` itself when `command` is nil.
    init(_ command: Command?, _ message: String, multiline: Bool = false) {
        self.init(program: command?.program ?? "assets", message, multiline: multiline)
    }
}

extension Command {
    /// `assets split`: how usage lines and messages name the command.
    var program: String { "assets \(rawValue)" }
}

extension OptionTable {
    init(
        command: Command, arguments: String = "", about: String, argumentHelp: [(String, String)] = [],
        options: [Option<Options>]
    ) {
        self.init(
            program: command.program, arguments: arguments, about: about, argumentHelp: argumentHelp,
            options: options)
    }
}

extension Option {
    /// The pack's paths and settings file, on a command whose options keep them at `pack`.
    static func pack(_ pack: WritableKeyPath<Options, PackOptions> & Sendable, only: [String]? = nil) -> [Option] {
        PackOptions.table.filter { only?.contains($0.names[0]) ?? true }.map { option in
            Option(names: option.names, value: option.value, help: option.help) { options, value throws(UsageError) in
                try option.set(&options[keyPath: pack], value)
            }
        }
    }
}
