// swift-tools-version: 6.2
import PackageDescription

// No package dependencies: the toolchain's Foundation (FoundationNetworking on Linux), Dispatch, Observation,
// XCTest and Swift Testing only.
// Every target: debug builds write an index store, and by default the compiler also indexes into it every *system*
// module the target imports (the standard library, Foundation, Glibc, …), in each compile job that starts before
// another has finished; that was a third of a clean debug build of the core. Editors do not need those records
// (SourceKit-LSP shows a system module from its interface; its own tests, like rules_swift, build with this flag).
// SwiftPM accepts unsafe flags in a package used as a versioned dependency from tools version 6.2 on, hence 6.2.
let settings: [SwiftSetting] = [.unsafeFlags(["-index-ignore-system-modules"])]
// Test targets also warn on any expression that takes over 200 ms to type-check (TCA's issue #2724: deep reducer
// compositions that stopped type-checking; TwelveChildrenTests composes twelve in one body). The test command's
// zero-warning build turns such a warning into a failure.
let testSettings: [SwiftSetting] = [
  .unsafeFlags(["-index-ignore-system-modules", "-Xfrontend", "-warn-long-expression-type-checking=200"])
]

let package = Package(
  name: "Unidirectional",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Unidirectional", targets: ["Unidirectional"]),
    .library(name: "UnidirectionalActionLog", targets: ["UnidirectionalActionLog"]),
    .library(name: "UnidirectionalTesting", targets: ["UnidirectionalTesting"]),
    .library(name: "UnidirectionalInspector", targets: ["UnidirectionalInspector"]),
    .library(name: "Features", targets: ["Features"]),
    .library(name: "Reminders", targets: ["Reminders"]),
    .executable(name: "demo", targets: ["Demo"]),
    .executable(name: "unidirectional-bench", targets: ["UnidirectionalBench"]),
  ],
  targets: [
    // The architecture: Store, Reducer, Effect, Dependencies, Clocks, Diff, store observers, change printing, traces.
    .target(name: "Unidirectional", swiftSettings: settings),
    // Action logs: record a store's actions to a file and replay them (through the core's public StoreObserver).
    .target(name: "UnidirectionalActionLog", dependencies: ["Unidirectional"], swiftSettings: settings),
    // The inspector: action logs and running stores in the browser, served on 127.0.0.1 (POSIX sockets, no package).
    .target(
      name: "UnidirectionalInspector", dependencies: ["Unidirectional", "UnidirectionalActionLog"],
      swiftSettings: settings),
    // TestStore and test helpers: the only library module that imports XCTest and Swift Testing.
    .target(name: "UnidirectionalTesting", dependencies: ["Unidirectional"], swiftSettings: settings),
    // The product's features, a folder each, with their clients (interface, test/preview values, live).
    .target(name: "Features", dependencies: ["Unidirectional"], swiftSettings: settings),
    // The worked example of shared state, bindings and a sorted list: reminders kept in a JSON file.
    .target(name: "Reminders", dependencies: ["Unidirectional"], swiftSettings: settings),
    // The headless demo host: `swift run demo`.
    .executableTarget(
      name: "Demo",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector", "Features", "Reminders"],
      path: "Demos/Demo",
      swiftSettings: settings),
    // `swift run -c release unidirectional-bench`: every case next to its raw baseline, in one process.
    .executableTarget(
      name: "UnidirectionalBench",
      dependencies: [
        "Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector", "UnidirectionalTesting", "Features",
      ],
      path: "Benchmarks/UnidirectionalBench", swiftSettings: settings
    ),
    .testTarget(
      name: "UnidirectionalTests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalActionLogTests",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    .testTarget(
      name: "UnidirectionalTestingTests", dependencies: ["Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    .testTarget(
      name: "FeaturesTests",
      dependencies: ["Unidirectional", "UnidirectionalActionLog", "UnidirectionalTesting", "Features"],
      swiftSettings: testSettings),
    .testTarget(
      name: "RemindersTests", dependencies: ["Reminders", "Unidirectional", "UnidirectionalTesting"],
      swiftSettings: testSettings),
    // Live clients against real servers on 127.0.0.1 that the tests start and stop themselves.
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "Unidirectional", "UnidirectionalActionLog", "UnidirectionalInspector", "UnidirectionalTesting", "Features",
        "Reminders",
      ],
      swiftSettings: testSettings),
  ],
  swiftLanguageModes: [.v6]
)
