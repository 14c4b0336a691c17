import CaptureSession
import Foundation
import Unidirectional

/// What `ScanDemoSessionTests.swift` — the test written from a recording of the demo's default run — runs with:
/// the demo's simulated capture, reconstruction and upload (`demo scan` without options), in a working folder of
/// its own that stands in for the recording's temporary one.
///
/// The recording and the test are made again, after a change to the scan flow, with:
///
/// ```sh
/// swift run --package-path Demos demo --record Demos/Tests/ScanTests/Emitted/scan-demo.jsonl --force
/// swift run --package-path Demos demo replay Demos/Tests/ScanTests/Emitted/scan-demo.jsonl \
///   --emit-test Demos/Tests/ScanTests/Emitted/ScanDemoSessionTests.swift
/// ```
///
/// (`IntegrationTests`' `DemoEmitTestTests` checks that the committed test is what the demo writes from the committed
/// log.)
enum ScanDemoRun {
  /// The demo's dependencies: preview values (the model and upload simulators) and the scripted capture session
  /// drawing its shots, as `ScanCommand` sets them up without options.
  static func prepare(_ values: inout DependencyValues) {
    values.context = .preview
    values.captureSession = .simulator(script: .standard(), shots: .rendered)
  }

  /// A new, empty working folder.
  static func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scan-demo-test-\(UUID().uuidString.lowercased())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Removes the working folder and what the run wrote in it.
  static func remove(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
  }
}
