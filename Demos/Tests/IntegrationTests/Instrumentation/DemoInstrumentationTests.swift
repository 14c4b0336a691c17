import Foundation
import XCTest

/// The demo host's `--print-changes` and `--trace FILE`, run as a person would.
final class DemoInstrumentationTests: XCTestCase {
  private let folder = scratchFolderPath("demo-instrumentation")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testPrintChangesPrintsEachActionWithOnlyWhatItChanged() throws {
    let result = try DemoProcess.run(["counter", "--to", "3", "--interval", "0", "--print-changes"], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    let output = result.output
    XCTAssertTrue(
      output.contains(
        """
        action: TimerCounter.Action.start
          TimerCounter.State(
            count: 0,
            target: 3,
        -   isRunning: false
        +   isRunning: true
          )
        """), output)
    XCTAssertTrue(
      output.contains("-   count: 2,\n+   count: 3,\n    target: 3,\n-   isRunning: true\n+   isRunning: false\n"),
      output)
    XCTAssertEqual(output.components(separatedBy: "action: TimerCounter.Action.tick\n").count - 1, 3)
    XCTAssertTrue(output.contains("done: counted to 3"), output)
  }

  func testTraceWritesATimelineOfTheRun() throws {
    let trace = folder.appendingPathComponent("counter.trace.json")
    let result = try DemoProcess.run(
      ["counter", "--to", "3", "--interval", "0", "--trace", trace.path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(result.output.contains("trace written to \(trace.path)"), result.output)

    let events = try traceEvents(trace)
    XCTAssertEqual(
      events.first { $0["name"] as? String == "process_name" }?["args"] as? [String: String],
      ["name": "TimerCounter store"])
    let actions = events.filter { $0["cat"] as? String == "action" }
    XCTAssertEqual(actions.compactMap { $0["name"] as? String }, [".start", ".tick", ".tick", ".tick"])
    XCTAssertTrue(actions.allSatisfy { $0["ph"] as? String == "X" && $0["tid"] as? Int == 0 && $0["dur"] is Double })
    let effects = events.filter { $0["cat"] as? String == "effect" && $0["ph"] as? String == "X" }
    XCTAssertEqual(effects.compactMap { $0["name"] as? String }, ["effect 1 · .start"])
    XCTAssertEqual(effects.first?["tid"] as? Int, 1)
  }

  func testTheScanFlowTracedAndPrinted() throws {
    let trace = folder.appendingPathComponent("scan.trace.json")
    let result = try DemoProcess.run(
      ["scan", "--print-changes", "--trace", trace.path, "--out", folder.appendingPathComponent("out").path],
      in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(
      result.output.contains("action: ScanFeature.Action.capture(CaptureSessionFeature.Action.start)\n"),
      result.output)
    XCTAssertTrue(result.output.contains("done: model uploaded"), result.output)
    let events = try traceEvents(trace)
    let actionNames = events.filter { $0["cat"] as? String == "action" }.compactMap { $0["name"] as? String }
    XCTAssertEqual(actionNames.first, ".capture(.start)")
    XCTAssertTrue(actionNames.contains(".uploadTapped"), "\(actionNames)")
    let effectTracks = events.filter { $0["name"] as? String == "thread_name" && ($0["tid"] as? Int ?? 0) > 0 }
    XCTAssertGreaterThanOrEqual(effectTracks.count, 3, "\(effectTracks)")
  }

  func testAnUnwritableTraceIsAClearErrorAndBadUsageExits2() throws {
    let unwritable = folder.appendingPathComponent("no/such/folder/t.json").path
    let result = try DemoProcess.run(["counter", "--interval", "0", "--trace", unwritable], in: folder)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertEqual(result.errors, "demo counter: cannot open trace \(unwritable): the file cannot be created\n")

    let missingValue = try DemoProcess.run(["counter", "--trace"], in: folder)
    XCTAssertEqual(missingValue.status, 2)
    XCTAssertTrue(missingValue.errors.contains("option --trace needs a value"), missingValue.errors)
    let help = try DemoProcess.run(["--help"], in: folder)
    XCTAssertTrue(help.output.contains("--print-changes"), help.output)
    XCTAssertTrue(help.output.contains("--trace FILE"), help.output)
  }

  private func traceEvents(_ url: URL) throws -> [[String: Any]] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    return try XCTUnwrap(json as? [[String: Any]], "the trace is not a JSON array of objects")
  }
}
