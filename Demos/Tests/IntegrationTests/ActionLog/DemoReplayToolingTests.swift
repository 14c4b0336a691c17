import Foundation
import XCTest

/// `demo replay` as a debugging tool: stop at a step and see its state, export it as JSON, step through a log,
/// and replay through a changed reducer to see the first divergence with the recorded and replayed states.
final class DemoReplayToolingTests: XCTestCase {
  private let folder = scratchFolderPath("demo-replay-tooling")
  private var log: URL { folder.appendingPathComponent("counter.jsonl") }

  override func setUpWithError() throws {
    try createScratchFolder(folder)
    let recorded = try DemoProcess.run(["counter", "--record", log.path, "--to", "3", "--interval", "0"], in: folder)
    XCTAssertEqual(recorded.status, 0, recorded.errors)
  }

  func testUntilStopsAtAStepAndPrintsTheFullStateThere() throws {
    let result = try DemoProcess.run(["replay", log.path, "--until", "2"], in: folder)
    XCTAssertEqual(result.status, 0, result.errors)
    XCTAssertTrue(result.output.contains("step 2 · received · "), result.output)
    XCTAssertFalse(result.output.contains("step 3 · "), result.output)
    XCTAssertTrue(
      result.output.hasSuffix(
        """
        state at step 2 (after TimerCounter.Action.tick):
          TimerCounter.State(
            count: 1,
            target: 3,
            isRunning: true
          )
        stopped at step 2 as asked; no divergence so far

        """), result.output)

    let initial = try DemoProcess.run(["replay", log.path, "--until", "0", "--quiet"], in: folder)
    XCTAssertEqual(initial.status, 0, initial.errors)
    XCTAssertTrue(initial.output.contains("state at step 0:\n  TimerCounter.State(\n    count: 0,"), initial.output)

    let past = try DemoProcess.run(["replay", log.path, "--until", "9"], in: folder)
    XCTAssertEqual(past.status, 1)
    XCTAssertEqual(past.errors, "demo replay: the log has 4 steps: there is no step 9\n")
  }

  /// (`ActionLogStatesAndExportTests` starts a store from such a file.)
  func testExportStateWritesTheStateAtAStepAsJSON() throws {
    let out = folder.appendingPathComponent("state.json")
    let result = try DemoProcess.run(["replay", log.path, "--export-state", "3", out.path, "--quiet"], in: folder)
    XCTAssertEqual(result.status, 0, result.errors)
    XCTAssertTrue(
      result.output.contains(
        "wrote the state at step 3 to \(out.path) (JSON: decode it as TimerCounter.State to start a store from it)"),
      result.output)
    XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), #"{"count":2,"isRunning":true,"target":3}"#)
    let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
    XCTAssertEqual(decoded?["count"] as? Int, 2)
  }

  func testStepWalksForwardJumpsBothWaysAndQuits() throws {
    let input = Data("\n\n3\n1\ns\nbogus\n9\nq\n".utf8)
    let result = try DemoProcess.run(["replay", log.path, "--step"], in: folder, standardInput: input)
    XCTAssertEqual(result.status, 0, result.errors)
    let output = result.output
    XCTAssertTrue(output.contains("step 0> step 1 · sent · "), output)
    XCTAssertTrue(output.contains("step 1> step 2 · received · "), output)
    XCTAssertTrue(
      output.contains(
        "step 2> state at step 3 (after TimerCounter.Action.tick):\n  TimerCounter.State(\n    count: 2,"),
      output)
    XCTAssertTrue(
      output.contains(
        "step 3> state at step 1 (after TimerCounter.Action.start):\n  TimerCounter.State(\n    count: 0,"),
      output)
    XCTAssertTrue(output.contains("step 1> state at step 1 (after TimerCounter.Action.start):"), output)
    XCTAssertTrue(output.contains("step 1> unknown command \"bogus\": Enter, a step number, s or q"), output)
    XCTAssertTrue(output.contains("step 1> the log has 4 steps: showing the last one\nstate at step 4"), output)
    XCTAssertTrue(output.hasSuffix("step 4> \ndone: 4 steps replayed\n"), output)

    let endOfInput = try DemoProcess.run(["replay", log.path, "--step"], in: folder, standardInput: Data())
    XCTAssertEqual(endOfInput.status, 0, endOfInput.errors)
    XCTAssertTrue(endOfInput.output.hasSuffix("step 0> \ndone: 0 steps replayed\n"), endOfInput.output)
  }

  func testAChangedReducerShowsTheFirstDivergenceWithBothStates() throws {
    let result = try DemoProcess.run(["replay", log.path, "--changed-counter", "--quiet", "--verify"], in: folder)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertTrue(
      result.output.contains(
        "✗ step 2 (line 3): TimerCounter.Action.tick — the replayed state differs from the recorded one"),
      result.output)
    XCTAssertTrue(
      result.output.contains(
        """
        the action now changes the state:
          TimerCounter.State(
        -   count: 0,
        +   count: 2,
            target: 3,
            isRunning: true
          )
        the recorded state (-) and the replayed state (+) after the step:
          TimerCounter.State(
        -   count: 1,
        +   count: 2,
            target: 3,
            isRunning: true
          )
        done: 4 steps replayed; the replayed states diverge from the recording (see ✗ above)
        """), result.output)
  }

  func testConflictingAndMalformedOptionsPrintUsageAndExit2() throws {
    let invalid: [[String]] = [
      ["replay", log.path, "--until", "2", "--step"],
      ["replay", log.path, "--until", "-1"],
      ["replay", log.path, "--export-state", "2"],
      ["replay", log.path, "--export-state", "two", "out.json"],
    ]
    for arguments in invalid {
      let result = try DemoProcess.run(arguments, in: folder)
      XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
      XCTAssertTrue(result.errors.contains("usage: demo replay FILE"), result.errors)
    }
  }
}
