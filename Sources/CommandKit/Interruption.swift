import Dispatch
import Foundation

/// Catches Ctrl-C (SIGINT) and SIGTERM while it lives, and runs `handler` with the signal's number on a queue of
/// its own — not inside the signal — so it may remove files and print before it exits. When it is gone, the
/// signals do what they did before.
public final class Interruption {
    private let sources: [DispatchSourceSignal]

    public init(_ handler: @escaping @Sendable (Int32) -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "assets.signal"))
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
