/// Who wrote a pack: recorded in the manifest and printed by `assets --version`.
public enum Generator {
    public static let name = "assets"
    public static let version = "0.1.0"
}
