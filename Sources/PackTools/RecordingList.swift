import SpeechText
import VoicePack

/// What a voice talent reads to record a pack (`assets alphabet --to-record`): the tokens its settings
/// need, in reading order (`Coverage.toRecord`) — the list `assets split --expect @FILE` cuts a session by.
public enum RecordingList {
    /// Every token to record; with `missingOnly`, only those no recording in the raw folder serves yet (a
    /// folder that does not exist yet serves none): the list of a session that fills the gaps.
    public static func tokens(settings: Settings, paths: PackPaths, missingOnly: Bool) -> [Token] {
        let coverage = Coverage(settings: settings)
        guard missingOnly else { return coverage.toRecord() }
        let named = NamedSources(
            SourceScanner(paths: paths).scan().sources, naming: Naming(settings: settings), paths: paths)
        return coverage.toRecord(besides: Set(named.byToken.keys))
    }
}
