// swift-tools-version:6.0
//
// dictee: French dictations from a family's own calendar, entirely on the family's machine.
// Module layout and import rules: ../shared/ARCHITECTURE.md (each C module is imported by exactly
// one target, with `internal import`; no C type crosses a public API).
import PackageDescription

let package = Package(
    name: "dictee",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "dictee", targets: ["dictee"]),
    ],
    targets: [
        // System libraries (Debian packages; Scripts/setup installs them).
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        // CLDR windowsZones through ICU (Debian libicu-dev): a one-function C doorway, because
        // ICU's headers clash with Foundation's private ICU when imported into Swift.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),

        // Value types shared by every module. Foundation only.
        .target(name: "DicteeCore"),

        // RFC 5545 ingestion: libical parsing, recurrence expansion, time zones, the read window.
        .target(name: "Ingest", dependencies: ["DicteeCore", "CLibical", "CICU"]),

        // Arguments, commands, output, exit codes. The only module that touches argv, the
        // environment, stdout/stderr and `exit`.
        .target(name: "DicteeCLI", dependencies: ["DicteeCore", "Ingest"]),

        .executableTarget(name: "dictee", dependencies: ["DicteeCLI"]),

        .testTarget(name: "DicteeCoreTests", dependencies: ["DicteeCore"]),
        .testTarget(
            name: "IngestTests",
            dependencies: ["Ingest", "DicteeCore"],
            resources: []
        ),
        .testTarget(name: "DicteeCLITests", dependencies: ["DicteeCLI", "DicteeCore"]),
    ],
    swiftLanguageModes: [.v6]
)
