import AudioPipeline
import Foundation

/// The recordings a build has prepared (`FragmentPipeline.prepare`: decoded, resampled, cut and measured),
/// kept while the build lasts. When the spliced amounts call for another pack gain, every fragment is built
/// again at the new level; the ones kept here only normalize and encode again, which is under half a
/// fragment's work. Up to `budgetBytes` of them: a large pack's others are prepared again.
final class PreparedRecordings: @unchecked Sendable {
    /// About half a minute of fragments, a voice pack of a few dozen (a prepared second holds about a megabyte:
    /// the samples, and the hearing model's pressure and band levels). A pack of thousands of phrases, which
    /// plays no amount and so never moves its gain, holds this much more at its peak and no more.
    static let defaultBudgetBytes = 32 << 20

    private let lock = NSLock()
    private let budgetBytes: Int
    private var usedBytes = 0
    private var kept: [String: PreparedRecording] = [:]
    private var searched: [String: (targetPhon: Double, gainDB: Double)] = [:]

    init(budgetBytes: Int = PreparedRecordings.defaultBudgetBytes) {
        self.budgetBytes = budgetBytes
    }

    /// How many are kept.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return kept.count
    }

    /// The gain `PackGainForecast`'s search found the recording with these bytes at this path needs to be heard at
    /// `targetPhon`; nil when it searched at another target (a search from elsewhere may end elsewhere within its
    /// tolerance, and a build from scratch must make what `--force` makes), or not at all.
    func searchedGain(path: String, sha256: String, targetPhon: Double) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        return searched[sha256 + " " + path].flatMap { $0.targetPhon == targetPhon ? $0.gainDB : nil }
    }

    /// The gain a search found the recording needs to be heard at `targetPhon`.
    func keep(searchedGain gainDB: Double, path: String, sha256: String, targetPhon: Double) {
        lock.lock()
        defer { lock.unlock() }
        searched[sha256 + " " + path] = (targetPhon, gainDB)
    }

    /// The recording with these bytes at this path, as prepared earlier in the build, or prepared now by `make`
    /// (and kept, while the budget allows).
    func prepared(
        path: String, sha256: String, make: () throws(AudioError) -> PreparedRecording
    ) throws(AudioError) -> PreparedRecording {
        let key = sha256 + " " + path
        lock.lock()
        let earlier = kept[key]
        lock.unlock()
        if let earlier { return earlier }
        let prepared = try make()
        lock.lock()
        if usedBytes + prepared.approximateBytes <= budgetBytes {
            kept[key] = prepared
            usedBytes += prepared.approximateBytes
        }
        lock.unlock()
        return prepared
    }
}
