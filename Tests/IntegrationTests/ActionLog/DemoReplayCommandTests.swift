import Foundation
import XCTest

/// Runs the built `demo` executable (next to the test bundle) as a person would: `demo counter --record FILE`, then
/// `demo replay FILE`.
final class DemoReplayCommandTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = try makeScratchFolder("demo-replay")
  }

  func testRecordThenReplayPrintsEveryStepAsActionAndStateDiff() throws {
    let log = file("counter.jsonl")
    let recorded = try runDemo(["counter", "--record", log.path, "--to", "3", "--interval", "0"])
    XCTAssertEqual(recorded.status, 0, recorded.errors)
    XCTAssertTrue(recorded.output.contains("done: counted to 3"), recorded.output)
    XCTAssertTrue(recorded.output.contains("recorded 4 actions to \(log.path)"), recorded.output)
    let lines = try lines(of: log)
    XCTAssertEqual(lines.count, 5)
    XCTAssertTrue(lines[0].contains(#""feature":"TimerCounter""#), lines[0])

    let replayed = try runDemo(["replay", log.path])
    XCTAssertEqual(replayed.status, 0, replayed.errors)
    let output = replayed.output
    XCTAssertTrue(
      output.contains("replaying \(log.path): feature TimerCounter, fingerprints fnv1a64-structural"), output)
    XCTAssertTrue(output.contains("step 1 · sent · "), output)
    XCTAssertTrue(output.contains("s · TimerCounter.Action.start\n"), output)
    XCTAssertTrue(output.contains("-   isRunning: false\n+   isRunning: true\n"), output)
    XCTAssertTrue(output.contains("step 4 · received · "), output)
    XCTAssertTrue(output.contains("-   count: 2,\n+   count: 3,\n"), output)
    XCTAssertTrue(output.hasSuffix("done: 4 steps replayed; every state matches the recording\n"), output)
    XCTAssertEqual(output.components(separatedBy: "TimerCounter.Action.tick").count - 1, 3)

    let verified = try runDemo(["replay", "--verify", "--quiet", log.path])
    XCTAssertEqual(verified.status, 0, verified.errors)
    XCTAssertFalse(verified.output.contains("step 1"), verified.output)
    XCTAssertTrue(verified.output.contains("done: 4 steps replayed; every state matches the recording"))
  }

  func testVerifyExitsNonZeroWhenTheStatesDiverge() throws {
    let log = file("counter.jsonl")
    XCTAssertEqual(try runDemo(["counter", "--record", log.path, "--to", "3", "--interval", "0"]).status, 0)
    // Make step 2 a different action than the one whose resulting state was fingerprinted.
    var lines = try lines(of: log)
    lines[2] = lines[2].replacingOccurrences(of: #"{"tick":{}}"#, with: #"{"start":{}}"#)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)

    let verified = try runDemo(["replay", "--verify", log.path])
    XCTAssertEqual(verified.status, 1, verified.output + verified.errors)
    XCTAssertTrue(
      verified.output.contains(
        "✗ step 2 (line 3): TimerCounter.Action.start — the replayed state differs from the recorded one"),
      verified.output)
    XCTAssertTrue(verified.output.contains("the action now changes nothing"), verified.output)
    XCTAssertTrue(verified.output.contains("done: 4 steps replayed; the replayed states diverge"), verified.output)

    let unverified = try runDemo(["replay", log.path])
    XCTAssertEqual(unverified.status, 0, unverified.errors)
    XCTAssertTrue(unverified.output.contains("✗ step 2 (line 3)"), unverified.output)
  }

  func testACorruptLogStopsAtItsLineWithExit1() throws {
    let log = file("counter.jsonl")
    XCTAssertEqual(try runDemo(["counter", "--record", log.path, "--to", "3", "--interval", "0"]).status, 0)
    let data = try Data(contentsOf: log)
    try data.prefix(data.count - 30).write(to: log)

    let replayed = try runDemo(["replay", log.path])
    XCTAssertEqual(replayed.status, 1)
    XCTAssertTrue(replayed.output.contains("step 3 · received"), replayed.output)
    XCTAssertTrue(replayed.output.contains("stopped after 3 steps"), replayed.output)
    XCTAssertTrue(
      replayed.errors.hasPrefix("demo replay: line 5: corrupt or truncated line: "), replayed.errors)
    XCTAssertTrue(replayed.errors.contains("(the file ends in the middle of this line)"), replayed.errors)
  }

  func testUnknownFeaturesMissingFilesAndBadUsage() throws {
    let log = file("other.jsonl")
    try Data(#"{"format":"unidirectional-action-log","version":1,"feature":"Nope","initialState":{}}"#.utf8)
      .write(to: log)
    let unknown = try runDemo(["replay", log.path])
    XCTAssertEqual(unknown.status, 1)
    XCTAssertTrue(
      unknown.errors.hasPrefix("demo replay: no replayer for feature \"Nope\" (known: TimerCounter"), unknown.errors)

    let missing = try runDemo(["replay", file("absent.jsonl").path])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.errors.hasPrefix("demo replay: cannot open action log "), missing.errors)

    for arguments in [["replay"], ["replay", "a", "b"], ["replay", "--bogus", "a"]] {
      let usage = try runDemo(arguments)
      XCTAssertEqual(usage.status, 2, "\(arguments)")
      XCTAssertTrue(usage.errors.contains("usage: demo replay FILE [--verify] [--quiet]"), usage.errors)
    }

    let unwritable = try runDemo([
      "counter", "--record", file("no/such/folder/log.jsonl").path, "--interval", "0",
    ])
    XCTAssertEqual(unwritable.status, 1)
    XCTAssertTrue(unwritable.errors.hasPrefix("demo counter: cannot open action log "), unwritable.errors)
  }

  // MARK: Running the demo

  /// A file in the test's folder.
  private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

  /// Runs `demo arguments` in the test's folder (see ``DemoProcess``).
  private func runDemo(
    _ arguments: [String], file: StaticString = #filePath, line: UInt = #line
  ) throws -> DemoProcess.Result {
    try DemoProcess.run(arguments, in: folder, file: file, line: line)
  }
}

/// The non-empty lines of a text file.
private func lines(of url: URL) throws -> [String] {
  try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
}
