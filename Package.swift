// swift-tools-version: 6.2
import PackageDescription

// No package dependencies: the toolchain's Foundation (FoundationNetworking on Linux), Dispatch, Observation,
// XCTest and Swift Testing only.
// Tools version 6.2 because the TestStore's async methods are `nonisolated(nonsending)` (SE-0461, Swift 6.2): a 6.0
// or 6.1 toolchain cannot compile the package, and with a lower tools version it would resolve it and then fail.
// No target a consumer builds — a library or an executable — has an unsafe flag. The project's own test targets
// (never part of a product, so never checked when the package is a dependency) keep two:
// - `-index-ignore-system-modules`: debug builds write an index store, and by default the compiler also indexes into
//   it every *system* module a target imports (the standard library, Foundation, Glibc, …) in each compile job;
//   editors do not need those records (SourceKit-LSP shows a system module from its interface);
// - `-warn-long-expression-type-checking=200`: a warning for any expression that takes over 200 ms to type-check
//   (TCA's issue #2724: deep reducer compositions that stopped type-checking; TwelveChildrenTests composes twelve in
//   one body), which the test command's zero-warning build turns into a failure.
let testSettings: [SwiftSetting] = [
  .unsafeFlags(["-index-ignore-system-modules", "-Xfrontend", "-warn-long-expression-type-checking=200"])
]
/// What the `Features` umbrella re-exports.
let featureModules: [Target.Dependency] = [
  "HTTPTransfer", "LocalFiles", "Images", "ImageUpload", "PhotoAnalysis", "Archive", "Gallery", "Transfer",
  "ImageGeneration", "CaptureSession", "ModelReconstruction", "Scan",
]

let package = Package(
  name: "Unidirectional",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Unidirectional", targets: ["Unidirectional"]),
    .library(name: "UnidirectionalActionLog", targets: ["UnidirectionalActionLog"]),
    .library(name: "UnidirectionalTesting", targets: ["UnidirectionalTesting"]),
    .library(name: "HTTPTransfer", targets: ["HTTPTransfer"]),
    .library(name: "LocalFiles", targets: ["LocalFiles"]),
    .library(name: "Images", targets: ["Images"]),
    .library(name: "ImageUpload", targets: ["ImageUpload"]),
    .library(name: "PhotoAnalysis", targets: ["PhotoAnalysis"]),
    .library(name: "Archive", targets: ["Archive"]),
    .library(name: "Gallery", targets: ["Gallery"]),
    .library(name: "Transfer", targets: ["Transfer"]),
    .library(name: "ImageGeneration", targets: ["ImageGeneration"]),
    .library(name: "CaptureSession", targets: ["CaptureSession"]),
    .library(name: "ModelReconstruction", targets: ["ModelReconstruction"]),
    .library(name: "Scan", targets: ["Scan"]),
    .library(name: "UnidirectionalInspector", targets: ["UnidirectionalInspector"]),
    .library(name: "Features", targets: ["Features"]),
    .library(name: "Reminders", targets: ["Reminders"]),
    .executable(name: "demo", targets: ["Demo"]),
    .executable(name: "unidirectional-bench", targets: ["UnidirectionalBench"]),
  ],
  targets: [
    // The architecture: Store, Reducer, Effect, Dependencies, Clocks, Diff, store observers, change printing, traces.
    .target(name: "Unidirectional"),
    // Action logs: record a store's actions to a file and replay them (through the core's public StoreObserver).
    .target(name: "UnidirectionalActionLog", dependencies: ["Unidirectional"]),
    // The inspector: action logs and running stores in the browser, served on 127.0.0.1 (POSIX sockets, no package).
    .target(name: "UnidirectionalInspector", dependencies: ["Unidirectional", "UnidirectionalActionLog"]),
    // TestStore and test helpers: the only library module that imports XCTest and Swift Testing.
    .target(name: "UnidirectionalTesting", dependencies: ["Unidirectional"]),

    // Foundation only, no Unidirectional: every byte the features send or receive over HTTP.
    .target(name: "HTTPTransfer"),
    // Foundation only: regular files, folders to write into, file errors in words, secrets from the host.
    .target(name: "LocalFiles"),
    // Foundation only: picked images, formats by their bytes, PNG encoding, preview images.
    .target(name: "Images"),

    // The features, a module each: the reducer, its clients' interfaces, test and preview values, the live glue.
    .target(name: "PhotoAnalysis", dependencies: ["Unidirectional", "Images"]),
    .target(
      name: "ImageUpload", dependencies: ["Unidirectional", "HTTPTransfer", "LocalFiles", "Images", "PhotoAnalysis"]),
    .target(name: "Archive", dependencies: ["Unidirectional", "ImageUpload"]),
    .target(name: "Gallery", dependencies: ["Unidirectional", "HTTPTransfer", "Images", "ImageUpload"]),
    .target(name: "Transfer", dependencies: ["Unidirectional", "HTTPTransfer"]),
    .target(name: "ImageGeneration", dependencies: ["Unidirectional", "HTTPTransfer", "LocalFiles", "Images"]),
    .target(name: "CaptureSession", dependencies: ["Unidirectional", "LocalFiles", "Images"]),
    .target(name: "ModelReconstruction", dependencies: ["Unidirectional", "LocalFiles", "CaptureSession"]),
    .target(name: "Scan", dependencies: ["Unidirectional", "CaptureSession", "ModelReconstruction", "ImageUpload"]),
    // The umbrella: `import Features` re-exports every feature and the modules they share.
    .target(name: "Features", dependencies: featureModules),

    // The worked example of shared state, bindings and a sorted list: reminders kept in a JSON file.
    .target(name: "Reminders", dependencies: ["Unidirectional"]),

    // The headless demo host: `swift run demo`.
    .executableTarget(
      name: "Demo",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector", "Features", "Reminders"],
      path: "Demos/Demo"),
    // `swift run -c release unidirectional-bench`: every case next to its raw baseline, in one process.
    .executableTarget(
      name: "UnidirectionalBench",
      dependencies: [
        "Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector", "HTTPTransfer", "ImageUpload",
        "PhotoAnalysis",
      ],
      path: "Benchmarks/UnidirectionalBench"),

    .testTarget(
      name: "UnidirectionalTests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalActionLogTests",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalInspectorTests", dependencies: ["Unidirectional", "UnidirectionalInspector"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalTestingTests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    // Fakes and fixtures several features' tests share (not a product).
    .target(
      name: "FeatureTestSupport", dependencies: ["Unidirectional", "Images", "ImageUpload", "CaptureSession"],
      path: "Tests/FeatureTestSupport", swiftSettings: testSettings),
    featureTests("HTTPTransfer", ["HTTPTransfer"]),
    featureTests("LocalFiles", ["LocalFiles"]),
    featureTests("PhotoAnalysis", ["Images", "PhotoAnalysis"]),
    featureTests("ImageUpload", ["HTTPTransfer", "Images", "PhotoAnalysis", "ImageUpload"]),
    featureTests("Archive", ["HTTPTransfer", "ImageUpload", "Archive"]),
    featureTests("Gallery", ["HTTPTransfer", "Images", "ImageUpload", "Gallery"]),
    featureTests("Transfer", ["HTTPTransfer", "Transfer"]),
    featureTests("ImageGeneration", ["Images", "ImageGeneration"]),
    featureTests("CaptureSession", ["Images", "CaptureSession"]),
    featureTests("ModelReconstruction", ["ModelReconstruction"]),
    featureTests("Scan", ["HTTPTransfer", "Images", "CaptureSession", "ModelReconstruction", "ImageUpload", "Scan"]),
    .testTarget(
      name: "RemindersTests", dependencies: ["Reminders", "Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    // What crosses modules: README and article snippets, secrets printed by several features' types.
    featureTests("Features", ["UnidirectionalActionLog", "Features"]),
    // Live clients against real servers on 127.0.0.1 that the tests start and stop themselves.
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector", "UnidirectionalTesting", "HTTPTransfer",
        "Features",
        "Reminders",
      ],
      swiftSettings: testSettings),
  ],
  swiftLanguageModes: [.v6]
)

/// The test target `<module>Tests`: `modules` with the core, the TestStore and the shared fakes.
func featureTests(_ module: String, _ modules: [Target.Dependency]) -> Target {
  .testTarget(
    name: "\(module)Tests",
    dependencies: ["Unidirectional", "UnidirectionalTesting", "FeatureTestSupport"] + modules,
    swiftSettings: testSettings)
}
