import Foundation
import PackManifest
import SpeechText

extension Manifest.LoudnessTarget {
    public init(_ settings: Settings.Loudness) {
        self.init(
            targetLUFS: settings.targetLUFS, truePeakCeilingDBTP: settings.truePeakCeilingDBTP,
            measure: Manifest.Measure(
                fullScaleDBSPL: settings.fullScaleDBSPL, targetPhon: Manifest.rounded(settings.targetPhon)),
            packGainDB: settings.packGainDB)
    }

    public init(targetLUFS: Double, truePeakCeilingDBTP: Double, fullScaleDBSPL: Double = 90) {
        var settings = Settings.Loudness()
        settings.targetLUFS = targetLUFS
        settings.truePeakCeilingDBTP = truePeakCeilingDBTP
        settings.fullScaleDBSPL = fullScaleDBSPL
        self.init(settings)
    }
}

extension Manifest.Processing {
    public init(_ settings: Settings) {
        self.init(
            resampler: settings.resampler.rawValue, maximumGainDB: settings.loudness.maximumGainDB,
            maximumLimitingDB: settings.loudness.maximumLimitingDB, trimThresholdDB: settings.trim.thresholdDB,
            trimNoiseMarginDB: settings.trim.noiseMarginDB, preRollMs: settings.trim.preRollMs,
            postRollMs: settings.trim.postRollMs, fadeInMs: settings.trim.fadeInMs, fadeOutMs: settings.trim.fadeOutMs)
    }
}

extension Manifest {
    /// The manifest `settings` make, without its fragments: everything but `fragments` is decided by the
    /// settings. Writing the manifest, the build's fingerprint of its settings, and `check`'s test of a stale
    /// pack all start from this one value.
    public static func header(_ settings: Settings) -> Manifest {
        Manifest(
            format: settings.format, loudness: LoudnessTarget(settings.loudness), processing: Processing(settings),
            splice: Splice(gapMs: settings.splice.gapMs, crossfadeMs: settings.splice.crossfadeMs),
            maximumAmount: settings.maximumAmount?.plain,
            styles: settings.styles.map(\.name), forms: settings.forms.map(\.name),
            aliases: Dictionary(uniqueKeysWithValues: settings.aliases.map { ($0.key.text, $0.value.text) }),
            templates: settings.templates, fragments: [])
    }

    /// Whether fragments built under `other`'s header have the samples this header's settings would give
    /// them: the same format, loudness and processing (styles, aliases and templates do not touch a sample).
    public func shapesSamplesLike(_ other: Manifest) -> Bool {
        format == other.format && loudness == other.loudness && processing == other.processing
    }

    /// Each header field (dotted, as `loudness.targetLUFS`) whose value differs from `other`'s, with both
    /// values: `loudness.targetLUFS -16 → -20`. Fragments are left out.
    public func headerDifferences(from other: Manifest) -> [String] {
        let mine = Self.leaves(of: self)
        let theirs = Self.leaves(of: other)
        return Set(mine.keys).union(theirs.keys).sorted().compactMap { key in
            let (old, new) = (mine[key] ?? "none", theirs[key] ?? "none")
            return old == new ? nil : "\(key) \(old) → \(new)"
        }
    }

    /// The header as dotted paths to the JSON text of each value.
    private static func leaves(of manifest: Manifest) -> [String: String] {
        var header = manifest
        header.fragments = []
        guard let root = try? JSONSerialization.jsonObject(with: CanonicalJSON.data(header))
        else { return [:] }
        var leaves: [String: String] = [:]
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any], !object.isEmpty {
                for (key, child) in object { walk(child, path.isEmpty ? key : "\(path).\(key)") }
            } else if path != "fragments",
                let text = try? JSONSerialization.data(
                    withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            {
                leaves[path] = String(decoding: text, as: UTF8.self)
            }
        }
        walk(root, "")
        return leaves
    }
}
