// swift-tools-version:6.0
//
// dictee: French dictations from a family's own calendar, entirely on the family's machine.
// Module layout and import rules: Docs/architecture.md (each C module is imported by exactly
// one target, with `internal import`; no C type crosses a public API).
import Foundation
import PackageDescription

/// llama.cpp with ggml (the in-process language model of managed mode), when a `llama.pc` is on
/// PKG_CONFIG_PATH or in a standard pkg-config folder. Debian bookworm has no package for it, so it
/// is optional: without it the targets CLlama and LocalModel are left out and managed mode starts the
/// llama-cpp-python server instead (README, "Dependencies"). Scripts/setup, test, demo and
/// bench-model put the cached build's folder on PKG_CONFIG_PATH (Scripts/model/llama-pkgconfig);
/// `DICTEE_LLAMA=0` leaves it out even then. Returns the library folder (for the run-time search
/// path: the cached build is not in ld.so's folders), or nil.
func llamaLibraryFolder() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if environment["DICTEE_LLAMA"] == "0" { return nil }
    let folders = (environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init)
        + ["/usr/local/lib/pkgconfig", "/usr/local/lib/x86_64-linux-gnu/pkgconfig", "/usr/local/share/pkgconfig",
           "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/lib/pkgconfig", "/usr/share/pkgconfig"]
    for folder in folders {
        guard let text = try? String(contentsOfFile: folder + "/llama.pc", encoding: .utf8) else { continue }
        // The variables of a .pc file, each expanded with the ones before it (`${prefix}/lib`).
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), !line.contains(":") || line.firstIndex(of: ":")! > equals else { continue }
            var value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            for (name, known) in variables { value = value.replacingOccurrences(of: "${\(name)}", with: known) }
            variables[line[..<equals].trimmingCharacters(in: .whitespaces)] = value
        }
        return variables["libdir"] ?? "/usr/local/lib"
    }
    return nil
}
let llama = llamaLibraryFolder()
/// `#if DICTEE_LLAMA` in the targets that use LocalModel when it is built.
let llamaDefine: [SwiftSetting] = llama == nil ? [] : [.define("DICTEE_LLAMA")]

/// In-process generation through llama.cpp/ggml, only when it is there (`llamaLibraryFolder`):
/// LocalModel/LlamaModel.swift is the only file that calls into CLlama; its tests need it too
/// (Scripts/test makes sure it is built in: DICTEE_EXPECT_LLAMA).
let llamaTargets: [Target] = llama.map { folder in
    [
        .systemLibrary(name: "CLlama", pkgConfig: "llama"),
        .target(name: "LocalModel", dependencies: ["DicteeCore", "Generation", "CLlama"],
                linkerSettings: [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", folder])]),
        .testTarget(name: "LocalModelTests", dependencies: ["LocalModel", "Generation", "DicteeCore", "DicteeTestSupport"]),
    ]
} ?? []
let llamaDependency: [Target.Dependency] = llama == nil ? [] : ["LocalModel"]

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
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        .systemLibrary(
            name: "CHunspell",
            pkgConfig: "hunspell",
            providers: [.apt(["libhunspell-dev", "hunspell-fr-classical"])]
        ),
        // CLDR windowsZones through ICU (Debian libicu-dev): a one-function C doorway, because
        // ICU's headers clash with Foundation's private ICU when imported into Swift.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),

        // SHA-256 through OpenSSL's libcrypto (Debian libssl-dev), for the whitelist digest.
        .target(name: "CDigest", linkerSettings: [.linkedLibrary("crypto")]),

        // Unicode TS #39 look-alike skeletons through ICU's spoof checker (Debian libicu-dev).
        .target(
            name: "CConfusables",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),

        // Value types shared by every module. Foundation only.
        .target(name: "DicteeCore", resources: [.copy("Localization")]),

        // The privacy filter: whitelist, disqualifiers, name capture; the only producer of Moment.
        .target(name: "PrivacyFilter", dependencies: ["DicteeCore", "CDigest", "CConfusables"]),

        // RFC 5545 ingestion: libical parsing, recurrence expansion, time zones, the read window.
        .target(name: "Ingest", dependencies: ["DicteeCore", "CLibical", "CICU"]),

        // State in SQLite (WAL): schema, migrations, queue, labels, skills, dictations, run log.
        .target(name: "Store", dependencies: ["DicteeCore", "CSQLite"]),

        // French text analysis: tokenizer, Lexique 3.83, the fifteen skills' trap sites, and the
        // spelling (Hunspell, in process) and grammar (Grammalecte, child process) gate.
        .target(name: "French", dependencies: ["DicteeCore", "CHunspell"]),

        // Dictations: plans, the validator's eight steps, the handwritten library.
        .target(
            name: "Dictation",
            dependencies: ["DicteeCore", "French"],
            resources: [.copy("Resources")]
        ),

        // HTTP over libcurl (the only importer of CCurl): the model server's requests, calendar
        // subscriptions (conditional GET) and CalDAV (RFC 4791, 6578, 6764), with FoundationXML.
        .target(name: "Web", dependencies: ["DicteeCore", "CCurl", "CPSL"]),

        // Generation: the LanguageModel protocol, the OpenAI-compatible client, the instructions,
        // the retry loop with feedback and the silent library fallback.
        .target(name: "Generation", dependencies: ["DicteeCore", "Dictation", "Web"]),

        // The application layer: the jobs that tie the leaves into the product (the ingest run
        // with its audit file, the desk: deal, pick, grade; the nightly run; the managed model
        // server; the model route), as library code with typed inputs, reports and errors.
        .target(
            name: "Household",
            dependencies: ["DicteeCore", "Ingest", "PrivacyFilter", "Store", "French", "Dictation", "Generation", "Web"] + llamaDependency,
            swiftSettings: llamaDefine
        ),

        // Arguments, rendering, exit codes. The only module that touches argv, the environment,
        // stdout/stderr and `exit`; every job is a call into Household.
        .target(name: "DicteeCLI", dependencies: ["DicteeCore", "Household", "Web", "Ingest", "PrivacyFilter", "Store", "French", "Dictation"]),

        .executableTarget(name: "dictee", dependencies: ["DicteeCLI"]),

        // Scripts/bench-validate: validator throughput over the rendered handwritten library.
        .executableTarget(name: "dictee-bench-validate", dependencies: ["Dictation", "French", "PrivacyFilter", "DicteeCore"],
                          path: "Sources/DicteeBench"),

        // Scripts/fuzz: libFuzzer harnesses (README "Fuzzing"), over ingest + the privacy filter and
        // over the French pipeline; a plain build replays inputs given as arguments (FuzzDriver).
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport"),
        .executableTarget(name: "dictee-fuzz-ingest", dependencies: ["FuzzSupport", "Ingest", "PrivacyFilter", "DicteeCore"],
                          path: "Sources/FuzzIngest"),
        .executableTarget(name: "dictee-fuzz-french", dependencies: ["FuzzSupport", "Dictation", "French", "PrivacyFilter", "DicteeCore"],
                          path: "Sources/FuzzFrench"),

        // Helpers shared by the test targets: the repository root, the seeded generator.
        .target(name: "DicteeTestSupport", path: "Tests/Support"),

        .testTarget(name: "DicteeCoreTests", dependencies: ["DicteeCore"]),
        .testTarget(
            name: "IngestTests",
            dependencies: ["Ingest", "DicteeCore", "DicteeTestSupport"],
            resources: []
        ),
        .testTarget(name: "DicteeCLITests", dependencies: ["DicteeCLI", "Household", "DicteeCore", "Store", "PrivacyFilter", "Generation", "Dictation", "Ingest", "DicteeTestSupport"]),
        .testTarget(name: "HouseholdTests", dependencies: ["Household", "Web", "PrivacyFilter", "Generation", "Dictation", "Store", "Ingest", "DicteeCore", "DicteeTestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "DicteeCore"]),
        .testTarget(name: "PrivacyFilterTests", dependencies: ["PrivacyFilter", "DicteeCore", "DicteeTestSupport", "French"]),
        .testTarget(name: "FrenchTests", dependencies: ["French", "DicteeCore", "DicteeTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DictationTests", dependencies: ["Dictation", "French", "DicteeCore", "PrivacyFilter", "DicteeTestSupport"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "DicteeCore", "DicteeTestSupport"]),
        .testTarget(name: "GenerationTests", dependencies: ["Generation", "Dictation", "French", "DicteeCore", "PrivacyFilter", "DicteeTestSupport"]),
    ] + llamaTargets,
    swiftLanguageModes: [.v6]
)
