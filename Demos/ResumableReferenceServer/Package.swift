// swift-tools-version: 6.0
import PackageDescription

// Apple's reference server for the IETF resumable-uploads draft (`NIOResumableUpload` in swift-nio-extras 1.35.2,
// interop versions 3, 5 and 6), wrapped as a small command the integration tests start on 127.0.0.1. A separate
// package so that the main package keeps declaring no dependencies; `Scripts/test` builds it before `swift test`.
let package = Package(
  name: "ResumableReferenceServer",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.94.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
  ],
  targets: [
    .executableTarget(
      name: "ResumableReferenceServer",
      dependencies: [
        .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
