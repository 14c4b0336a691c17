// swift-tools-version: 6.2
import PackageDescription

// The seeds' app: the features (a module each), the HTTP layer and the other modules they share, the demo host, the
// reminders worked example, their tests, the integration tests against real servers and the features' benchmarks.
// It depends on the library in the repository's root by path, exactly as a user's app does; the library's graph
// never sees these targets, so an app with modules named `Images`, `Features` or `Reminders` can add the library.
//
// Only the app's path to the library: no other package. The test targets keep two unsafe flags (an app's own test
// targets may; this package is never a dependency):
// - `-index-ignore-system-modules`: debug builds write no index records for the system modules they import;
// - `-warn-long-expression-type-checking=200`: a warning for any expression that takes over 200 ms to type-check,
//   which the test command's zero-warning build turns into a failure.
let testSettings: [SwiftSetting] = [
  .unsafeFlags(["-index-ignore-system-modules", "-Xfrontend", "-warn-long-expression-type-checking=200"])
]

/// The library's products, as an app names them.
let core: Target.Dependency = .product(name: "Unidirectional", package: "Unidirectional")
let actionLog: Target.Dependency = .product(name: "UnidirectionalActionLog", package: "Unidirectional")
let inspector: Target.Dependency = .product(name: "UnidirectionalInspector", package: "Unidirectional")
let testing: Target.Dependency = .product(name: "UnidirectionalTesting", package: "Unidirectional")

/// What the `Features` umbrella re-exports.
let featureModules: [Target.Dependency] = [
  "HTTPClient", "LocalFiles", "Images", "ImageUpload", "PhotoAnalysis", "Archive", "Gallery", "Transfer",
  "ImageGeneration", "CaptureSession", "ModelReconstruction", "Scan",
]

let package = Package(
  name: "Demos",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .executable(name: "demo", targets: ["Demo"]),
    .executable(name: "feature-bench", targets: ["FeatureBench"]),
  ],
  dependencies: [.package(name: "Unidirectional", path: "..")],
  targets: [
    // Foundation only, no Unidirectional: every byte the features send or receive over HTTP.
    .target(name: "HTTPClient"),
    // Foundation only: regular files, folders to write into, file errors in words, secrets from the host.
    .target(name: "LocalFiles"),
    // Foundation only: picked images, formats by their bytes, PNG encoding, preview images.
    .target(name: "Images"),

    // The features, a module each: the reducer, its clients' interfaces, test and preview values, the live glue.
    .target(name: "PhotoAnalysis", dependencies: [core, "Images"]),
    .target(name: "ImageUpload", dependencies: [core, "HTTPClient", "LocalFiles", "Images", "PhotoAnalysis"]),
    .target(name: "Archive", dependencies: [core, "ImageUpload"]),
    .target(name: "Gallery", dependencies: [core, "Images", "ImageUpload"]),
    .target(name: "Transfer", dependencies: [core, "HTTPClient"]),
    .target(name: "ImageGeneration", dependencies: [core, "HTTPClient", "LocalFiles", "Images"]),
    .target(name: "CaptureSession", dependencies: [core, "LocalFiles", "Images"]),
    .target(name: "ModelReconstruction", dependencies: [core, "LocalFiles", "CaptureSession"]),
    .target(name: "Scan", dependencies: [core, "CaptureSession", "ModelReconstruction", "ImageUpload"]),
    // The umbrella: `import Features` re-exports every feature and the modules they share.
    .target(name: "Features", dependencies: featureModules),

    // The worked example of shared state, bindings and a sorted list: reminders kept in a JSON file.
    .target(name: "Reminders", dependencies: [core]),

    // The headless demo host: `swift run --package-path Demos demo`.
    .executableTarget(name: "Demo", dependencies: [core, actionLog, inspector, "Features", "Reminders"]),
    // `swift run -c release --package-path Demos feature-bench --upload`: the features' cases next to their baselines.
    .executableTarget(
      name: "FeatureBench", dependencies: [core, "HTTPClient", "ImageUpload", "PhotoAnalysis"],
      path: "Benchmarks/FeatureBench"),

    // `swift run -c release --package-path Demos ExplorerBench`: the interleaving explorer on the upload feature
    // (schedules per second, schedules per bound). Not in `feature-bench`: the explorer links XCTest and Swift
    // Testing, which would load next to the uploads whose memory `feature-bench` measures.
    .executableTarget(
      name: "ExplorerBench", dependencies: [core, testing, "ImageUpload", "FeatureTestSupport"],
      path: "Benchmarks/ExplorerBench"),

    // Fakes and fixtures several features' tests share (not a product).
    .target(
      name: "FeatureTestSupport", dependencies: [core, "HTTPClient", "Images", "ImageUpload", "CaptureSession"],
      path: "Tests/FeatureTestSupport", swiftSettings: testSettings),
    featureTests("HTTPClient", ["HTTPClient"]),
    featureTests("LocalFiles", ["LocalFiles"]),
    featureTests("PhotoAnalysis", ["Images", "PhotoAnalysis"]),
    featureTests("ImageUpload", ["HTTPClient", "Images", "PhotoAnalysis", "ImageUpload"]),
    featureTests("Archive", ["HTTPClient", "ImageUpload", "Archive"]),
    featureTests("Gallery", ["HTTPClient", "Images", "ImageUpload", "Gallery"]),
    featureTests("Transfer", ["HTTPClient", "Transfer"]),
    featureTests("ImageGeneration", ["Images", "ImageGeneration"]),
    featureTests("CaptureSession", ["Images", "CaptureSession"]),
    featureTests("ModelReconstruction", ["ModelReconstruction"]),
    // The recording its emitted test was written from is read by IntegrationTests, which check the test is current.
    featureTests(
      "Scan", ["HTTPClient", "Images", "CaptureSession", "ModelReconstruction", "ImageUpload", "Scan"],
      exclude: ["Emitted/scan-demo.jsonl"]),
    .testTarget(name: "RemindersTests", dependencies: ["Reminders", core, testing], swiftSettings: testSettings),
    // What crosses modules: README and article snippets, secrets printed by several features' types.
    featureTests("Features", [actionLog, "Features"]),
    // Live clients against real servers on 127.0.0.1 that the tests start and stop themselves.
    .testTarget(
      name: "IntegrationTests",
      dependencies: [core, actionLog, inspector, testing, "HTTPClient", "Features", "Reminders"],
      swiftSettings: testSettings),
  ],
  swiftLanguageModes: [.v6]
)

/// The test target `<module>Tests`: `modules` with the core, the TestStore and the shared fakes.
func featureTests(_ module: String, _ modules: [Target.Dependency], exclude: [String] = []) -> Target {
  .testTarget(
    name: "\(module)Tests",
    dependencies: [core, testing, "FeatureTestSupport"] + modules, exclude: exclude,
    swiftSettings: testSettings)
}
