// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "assets",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "assets", targets: ["assets"]),
        // What an iOS app or its Notification Service Extension embeds.
        .library(name: "SpeechText", targets: ["SpeechText"]),
        .library(name: "Splicer", targets: ["Splicer"]),
        // `swift package assets build|check|audit|diff|say …`, and the same from an Xcode project's context menu.
        .plugin(name: "AssetsPlugin", targets: ["AssetsPlugin"]),
    ],
    targets: [
        .executableTarget(name: "assets", dependencies: ["AssetsCLI"]),
        .plugin(
            name: "AssetsPlugin",
            capability: .command(
                intent: .custom(
                    verb: "assets", description: "Build, check, audit or diff the voice pack, or say an amount"),
                permissions: [
                    .writeToPackageDirectory(
                        reason:
                            "`assets build` writes normalized/ and manifest.json, and `audit --output` and `diff --output` their reports"
                    )
                ]),
            dependencies: ["assets"]),
        .target(
            name: "AssetsCLI",
            dependencies: [
                "CommandKit", "SpeechText", "PackManifest", "VoicePack", "PackTools", "PackReports", "Splicer",
                "Checksum",
            ]),
        // What any command line needs: an option table, an argument reader, a console, a progress line, signals;
        // and a style or form named on it.
        .target(name: "CommandKit", dependencies: ["VoicePack", "SpeechText"]),
        // Reports as pure functions of PackTools' values: text, Markdown, JSON, HTML. Reads and writes no file.
        .target(name: "PackReports", dependencies: ["PackTools", "PackManifest", "VoicePack", "SpeechText"]),
        // What the splicer reads: the manifest and its format, aliases, JSON. Foundation only; an iOS app embeds it.
        .target(name: "PackManifest", dependencies: ["SpeechText"]),
        // The settings (`assets.json`), naming, coverage: what a build needs beyond the manifest.
        .target(name: "VoicePack", dependencies: ["SpeechText", "PackManifest"]),
        // build, check and audit: the work behind the commands, testable without a process.
        .target(
            name: "PackTools",
            dependencies: [
                "PackManifest", "VoicePack", "AudioPipeline", "Checksum", "SpeechText", "Splicer", "CSyncFS",
            ]),
        // glibc's syncfs(2), which Swift's Glibc module leaves out: the commit flushes a file system once.
        .systemLibrary(name: "CSyncFS"),
        // Manifest -> spliced sound: Foundation only, so an iOS extension embeds it.
        .target(name: "Splicer", dependencies: ["PackManifest", "SpeechText"]),
        // Decode, mono, resample, trim, loudness, analysis, encode: the only module with audio C libraries. Its
        // stages take their own settings (PackTools maps assets.json onto them); PackManifest gives the formats.
        .target(
            name: "AudioPipeline",
            dependencies: [
                "PackManifest", "HearingModel", "CSndFile", "CSampleRate", "CEBUR128", "CFFmpeg", "CAubio",
            ]),
        // ISO 532-1 loudness (Zwicker), Swift standard library only. Optimized in debug builds too: its filter
        // bank runs 28 bands at 48 kHz, and unoptimized it takes 2 s a fragment (0.02 s optimized), which
        // would make every test that builds a pack, and the sanitizer runs, wait on it.
        .target(name: "HearingModel", swiftSettings: [.unsafeFlags(["-O"])]),
        // SHA-256 of sources and fragments, by OpenSSL's libcrypto.
        .target(name: "Checksum", dependencies: ["CCrypto"]),
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(
            name: "CSampleRate", pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"]), .brew(["libsamplerate"])]),
        .systemLibrary(
            name: "CEBUR128", pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"]), .brew(["libebur128"])]),
        // FFmpeg's demuxers and decoders, for what libsndfile cannot read (AAC and ALAC in .m4a).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"]), .brew(["ffmpeg"])]),
        // Pitch (YIN) and spectral descriptors, for what a recording's voice is like beside the others.
        .systemLibrary(
            name: "CAubio", pkgConfig: "aubio", providers: [.apt(["libaubio-dev"]), .brew(["aubio"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // Swift standard library only: the same files compile in an iOS extension.
        .target(name: "SpeechText"),

        // Benchmarks a reader runs: see scripts/benchmark.
        .executableTarget(
            name: "splice-benchmark", dependencies: ["Splicer", "SpeechText", "Checksum"],
            path: "Benchmarks/splice-benchmark"),

        .testTarget(name: "SpeechTextTests", dependencies: ["SpeechText", "TestSupport"]),
        .testTarget(
            name: "AudioPipelineTests",
            dependencies: [
                "AudioPipeline", "HearingModel", "PackManifest", "VoicePack", "PackTools", "TestSupport",
            ],
            exclude: ["Fixtures"]),
        .testTarget(name: "VoicePackTests", dependencies: ["PackManifest", "VoicePack", "SpeechText"]),
        .testTarget(
            name: "PackToolsTests",
            dependencies: [
                "PackTools", "AudioPipeline", "Checksum", "PackManifest", "Splicer", "VoicePack", "TestSupport",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "SplicerTests",
            dependencies: ["Splicer", "PackManifest", "PackTools", "AudioPipeline", "Checksum", "TestSupport"]),
        // Packs made by code for the tests: recordings with known levels in every format.
        .target(
            name: "TestSupport",
            dependencies: ["PackTools", "AudioPipeline", "PackManifest", "VoicePack", "SpeechText"],
            path: "Tests/TestSupport"),
        .testTarget(name: "CommandKitTests", dependencies: ["CommandKit"]),
        .testTarget(
            name: "PackReportsTests",
            dependencies: ["PackReports", "PackTools", "PackManifest", "SpeechText", "VoicePack"]),
        .testTarget(
            name: "AssetsCLITests",
            dependencies: [
                "AssetsCLI", "CommandKit", "AudioPipeline", "Checksum", "PackManifest", "PackReports", "SpeechText",
                "Splicer", "TestSupport", "assets",
            ]),
    ]
)
