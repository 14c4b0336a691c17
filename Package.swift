// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Unidirectional",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Unidirectional", targets: ["Unidirectional"]),
    .library(name: "UnidirectionalTesting", targets: ["UnidirectionalTesting"]),
    .executable(name: "demo", targets: ["Demo"]),
    .executable(name: "unidirectional-bench", targets: ["UnidirectionalBench"]),
  ],
  targets: [
    .target(name: "Unidirectional"),
    .target(name: "UnidirectionalTesting", dependencies: ["Unidirectional"]),
    .executableTarget(name: "Demo", dependencies: ["Unidirectional"], path: "Demos/Demo"),
    .executableTarget(
      name: "UnidirectionalBench",
      dependencies: ["Unidirectional", "UnidirectionalTesting"],
      path: "Benchmarks/UnidirectionalBench"
    ),
    .testTarget(name: "UnidirectionalTests", dependencies: ["Unidirectional", "UnidirectionalTesting"]),
    .testTarget(name: "UnidirectionalTestingTests", dependencies: ["Unidirectional", "UnidirectionalTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
