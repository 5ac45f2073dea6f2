// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "assets",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "assets", targets: ["assets"]),
        // What an iOS app or its Notification Service Extension embeds.
        .library(name: "SpeechText", targets: ["SpeechText"]),
    ],
    targets: [
        .executableTarget(name: "assets", dependencies: ["AssetsCLI"]),
        .target(name: "AssetsCLI", dependencies: ["SpeechText", "VoicePack"]),
        // The manifest and settings models, naming, coverage: Foundation only.
        .target(name: "VoicePack", dependencies: ["SpeechText"]),
        // Swift standard library only: the same files compile in an iOS extension.
        .target(name: "SpeechText"),

        .testTarget(name: "SpeechTextTests", dependencies: ["SpeechText"]),
        .testTarget(name: "AssetsCLITests", dependencies: ["AssetsCLI", "assets"]),
    ]
)
