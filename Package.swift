// swift-tools-version: 6.2
import PackageDescription

// The library a team adds, and nothing else: every target has a name no app gives its own module (SwiftPM refuses
// a graph in which two packages declare a target of the same name, used or not), so each starts `Unidirectional`.
// The seeds' app — the features, the HTTP layer, the demo host, the backend, their tests and benchmarks — is the
// package in `Demos/`, which depends on this one by path as a user's app does.
//
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

/// What a new app target of Xcode 26 builds with (beside Swift 6 mode).
let xcode26AppTargetSettings: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
  name: "Unidirectional",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Unidirectional", targets: ["Unidirectional"]),
    .library(name: "UnidirectionalActionLog", targets: ["UnidirectionalActionLog"]),
    .library(name: "UnidirectionalTesting", targets: ["UnidirectionalTesting"]),
    .library(name: "UnidirectionalInspector", targets: ["UnidirectionalInspector"]),
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

    // `swift run -c release unidirectional-bench`: every case of the library next to its raw baseline, in one process.
    .executableTarget(
      name: "UnidirectionalBench",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector"],
      path: "Benchmarks/UnidirectionalBench"),
    // `swift run -c release UnidirectionalExplorerBench`: the interleaving explorer's schedules per second and how
    // the number of schedules grows with the bound. Its own executable, not a product: it links
    // UnidirectionalTesting, hence XCTest and Swift Testing, which `unidirectional-bench` (a product) does not.
    .executableTarget(
      name: "UnidirectionalExplorerBench", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      path: "Benchmarks/UnidirectionalExplorerBench"),
    // `swift run -c release UnidirectionalTestingBench`: the TestStore's send and receive against a live store's send,
    // and generated action sequences per second. Its own executable for the same reason as the explorer's.
    .executableTarget(
      name: "UnidirectionalTestingBench", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      path: "Benchmarks/UnidirectionalTestingBench"),

    .testTarget(
      name: "UnidirectionalTests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    // Generated effect programs run against a reference model (a generator, the model, the runners, the shrinker):
    // the fixed seeds and the regression tests in `UnidirectionalGeneratedProgramsTests`, any number of seeds in
    // release mode with `Scripts/generated-programs` (`UnidirectionalGeneratedProgramsRun`). Not products.
    .target(
      name: "UnidirectionalGeneratedPrograms", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      path: "Tests/UnidirectionalGeneratedPrograms"),
    .executableTarget(
      name: "UnidirectionalGeneratedProgramsRun", dependencies: ["UnidirectionalGeneratedPrograms"],
      path: "Tests/UnidirectionalGeneratedProgramsRun"),
    .testTarget(
      name: "UnidirectionalGeneratedProgramsTests",
      dependencies: ["Unidirectional", "UnidirectionalTesting", "UnidirectionalGeneratedPrograms"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalActionLogTests",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalTesting"],
      // The log the committed emitted test was written from: read by the test that checks the test is current.
      exclude: ["Emitted/checklist-session.jsonl"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalInspectorTests",
      dependencies: ["Unidirectional", "UnidirectionalInspector", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalTestingTests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    // A new Xcode 26 app target's settings: every declaration is main-actor isolated unless it says otherwise, async
    // functions run on their caller's actor, conformances may be isolated. Features, a view model and tests written
    // there as a user would (no `Sendable`, no `@MainActor`), with the same behaviour as in plain Swift 6 mode.
    .testTarget(
      name: "UnidirectionalXcode26Tests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings + xcode26AppTargetSettings),
  ],
  swiftLanguageModes: [.v6]
)
