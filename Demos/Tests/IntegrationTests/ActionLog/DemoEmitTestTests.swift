import Foundation
import XCTest

/// `demo replay LOG --emit-test FILE`: the demo's default run, recorded, becomes a Swift Testing test. The test
/// written from the committed recording is committed in `ScanTests` (`Emitted/`), where it compiles and runs with
/// the other tests.
final class DemoEmitTestTests: XCTestCase {
  private let folder = scratchFolderPath("demo-emit-test")
  private static let emitted = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("ScanTests/Emitted")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testTheCommittedTestIsWhatTheDemoWritesFromTheCommittedRecording() throws {
    let log = Self.emitted.appendingPathComponent("scan-demo.jsonl")
    let committed = Self.emitted.appendingPathComponent("ScanDemoSessionTests.swift")
    let written = folder.appendingPathComponent("ScanDemoSessionTests.swift")
    let result = try DemoProcess.run(["replay", log.path, "--emit-test", written.path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(
      try String(contentsOf: written, encoding: .utf8), try String(contentsOf: committed, encoding: .utf8),
      """
      Demos/Tests/ScanTests/Emitted/ScanDemoSessionTests.swift is not what `demo replay --emit-test` writes from \
      scan-demo.jsonl now: regenerate it with `swift run --package-path Demos demo replay \
      Demos/Tests/ScanTests/Emitted/scan-demo.jsonl --emit-test Demos/Tests/ScanTests/Emitted/ScanDemoSessionTests.swift`
      """)
  }

  /// The default run recorded, replayed exactly (the UUIDs its effects made are in the log) and written as a test:
  /// a `send` for each tap, a `receive` for each action the simulated parts sent, the clock advanced between them.
  func testTheDefaultRunRecordedBecomesATest() throws {
    let log = folder.appendingPathComponent("scan.jsonl")
    let recorded = try DemoProcess.run(["--record", log.path], in: folder)
    XCTAssertEqual(recorded.status, 0, recorded.output + recorded.errors)
    let replayed = try DemoProcess.run(["replay", log.path, "--verify", "--quiet"], in: folder)
    XCTAssertEqual(replayed.status, 0, replayed.output + replayed.errors)

    let test = folder.appendingPathComponent("ScanTest.swift")
    let emitted = try DemoProcess.run(["replay", log.path, "--emit-test", test.path], in: folder)
    XCTAssertEqual(emitted.status, 0, emitted.output + emitted.errors)
    XCTAssertEqual(emitted.output, "wrote a test of scan.jsonl to \(test.path)\n")
    let source = try String(contentsOf: test, encoding: .utf8)
    for expected in [
      "@Test func scanDemoSession() async throws {",
      "  let folder = try ScanDemoRun.makeFolder()",
      "  await store.send(.capture(.start)) { $0.capture?.hasStarted = true }",
      "  await store.receive(.capture(.sessionEvent(.stateChanged(.ready)))) { $0.capture?.session = .ready }",
      "  await store.send(.capture(.createModelTapped))",
      "    $0.model = .reconstructing(.starting)",
      "  await store.send(.uploadTapped)",
      "  await store.send(.onDisappear)",
      "  await store.finish()",
    ] {
      XCTAssertTrue(source.contains(expected + "\n"), "\(expected)\n---\n\(source)")
    }
    XCTAssertTrue(source.contains("      $0.uuid = .sequence(["), source)
    XCTAssertTrue(source.contains("  await clock.advance(by: .milliseconds("), source)
    // The run's temporary folder is the test's own folder.
    XCTAssertTrue(source.contains(#"URL(fileURLWithPath: "\(folder.path)/images/shot-001.png")"#), source)
    XCTAssertFalse(source.contains("unidirectional-scan-"), source)
  }

  func testACounterLogHasNoTestTargetAndSaysSo() throws {
    let log = folder.appendingPathComponent("counter.jsonl")
    XCTAssertEqual(
      try DemoProcess.run(["counter", "--record", log.path, "--to", "2", "--interval", "0"], in: folder).status, 0)
    let result = try DemoProcess.run(
      ["replay", log.path, "--emit-test", folder.appendingPathComponent("T.swift").path], in: folder)
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.errors.contains("demo knows no test target for TimerCounter's logs"), result.errors)
  }
}
