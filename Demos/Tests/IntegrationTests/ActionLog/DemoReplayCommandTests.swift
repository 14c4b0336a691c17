import Foundation
import XCTest

/// Runs the built `demo` executable (next to the test bundle) as a person would: `demo counter --record FILE`, then
/// `demo replay FILE`.
final class DemoReplayCommandTests: XCTestCase {
  private let folder = scratchFolderPath("demo-replay")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
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
    XCTAssertEqual(unwritable.status, 2)
    XCTAssertTrue(
      unwritable.errors.hasPrefix(
        "demo counter: --record: cannot write \(file("no/such/folder/log.jsonl").path): "
          + "the folder \(file("no/such/folder").path) does not exist\n"),
      unwritable.errors)
    XCTAssertEqual(unwritable.output, "", "nothing ran")

    let pipe = file("pipe.jsonl")
    XCTAssertEqual(mkfifo(pipe.path, 0o644), 0)
    let fromPipe = try runDemo(["replay", pipe.path])
    XCTAssertEqual(fromPipe.status, 1, "a named pipe is refused, not waited on")
    XCTAssertEqual(
      fromPipe.errors,
      "demo replay: cannot open action log \(pipe.path): it is a named pipe (FIFO), not a regular file\n")
  }

  /// `--record FILE` never replaces a file silently: without `--force` the run is refused (exit 2) and the file is
  /// left as it was; with `--force` it is replaced.
  func testRecordRefusesAnExistingFileUnlessForced() throws {
    let log = file("counter.jsonl")
    try Data("precious\n".utf8).write(to: log)
    let refused = try runDemo(["counter", "--record", log.path, "--interval", "0"])
    XCTAssertEqual(refused.status, 2, refused.output + refused.errors)
    XCTAssertTrue(
      refused.errors.hasPrefix(
        "demo counter: --record: \(log.path) already exists; pass --force to replace it, or choose another file\n"),
      refused.errors)
    XCTAssertTrue(refused.errors.contains("usage: demo counter [OPTIONS]"), refused.errors)
    XCTAssertEqual(refused.output, "", "nothing ran")
    XCTAssertEqual(try String(contentsOf: log, encoding: .utf8), "precious\n")

    let forced = try runDemo(["counter", "--record", log.path, "--force", "--interval", "0"])
    XCTAssertEqual(forced.status, 0, forced.errors)
    XCTAssertTrue(try lines(of: log)[0].contains(#""feature":"TimerCounter""#))

    let folderLog = try runDemo(["counter", "--record", folder.path, "--force", "--interval", "0"])
    XCTAssertEqual(folderLog.status, 2)
    XCTAssertTrue(folderLog.errors.hasPrefix("demo counter: --record: \(folder.path) is a folder, not a file"))
    let forceAlone = try runDemo(["counter", "--force"])
    XCTAssertEqual(forceAlone.status, 2)
    XCTAssertTrue(forceAlone.errors.hasPrefix("demo counter: --force needs --record FILE"), forceAlone.errors)
  }

  /// A log is outside input: whatever it holds reaches the terminal quoted, shortened with its length, and with
  /// control characters escaped — a 1 MB field is not a megabyte of error message, an escape sequence is not run.
  func testTextFromALogIsEscapedAndShortenedInEveryMessage() throws {
    let log = file("counter.jsonl")
    XCTAssertEqual(try runDemo(["counter", "--record", log.path, "--to", "1", "--interval", "0"]).status, 0)
    let recorded = try lines(of: log)
    let huge = "\u{1B}[31m\u{1B}]0;owned\u{07}" + String(repeating: "A", count: 1_000_000)

    func header(_ changes: [String: Any]) throws -> String {
      var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(recorded[0].utf8)) as? [String: Any])
      object.merge(changes) { $1 }
      return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
    func step(_ changes: [String: Any]) throws -> String {
      var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(recorded[1].utf8)) as? [String: Any])
      object.merge(changes) { $1 }
      return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
    let logs: [(String, [String], String)] = [
      (
        "feature", [try header(["feature": huge])],
        "demo replay: no replayer for feature \"\\u{1B}[31m\\u{1B}]0;owned\\u{7}AAA"
      ),
      ("format", [try header(["format": huge])], "demo replay: line 1: not a supported action log header: format"),
      ("origin", [recorded[0], try step(["origin": huge])], "demo replay: line 2: corrupt or truncated line:"),
      (
        "action", [recorded[0], try step(["action": [huge: [:] as [String: Any]]])],
        "demo replay: line 2: unknown action"
      ),
      (
        "state", [try header(["initialState": ["count": huge]])],
        "demo replay: line 1: the initial state does not decode"
      ),
    ]
    for (name, lines, start) in logs {
      let bad = file("bad-\(name).jsonl")
      try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: bad)
      let result = try runDemo(["replay", bad.path])
      XCTAssertEqual(result.status, 1, "\(name): \(result.errors)")
      XCTAssertTrue(result.errors.hasPrefix(start), "\(name): \(result.errors.prefix(500))")
      XCTAssertLessThan(result.errors.utf8.count, 1_000, "\(name): \(result.errors.prefix(500))")
      XCTAssertLessThan(result.output.utf8.count, 2_000, "\(name): \(result.output.prefix(500))")
      XCTAssertFalse(hasControlCharacters(result.errors + result.output), "\(name): \(result.errors.prefix(500))")
      if ["feature", "format", "origin"].contains(name) {
        XCTAssertNotNil(
          result.errors.range(of: #"\([0-9]{6,7} (more )?characters\)"#, options: .regularExpression),
          "\(name): the length is shown: \(result.errors)")
      }
    }
  }

  /// A log is anyone's input: before, a counter at Int.max followed by a tick trapped in the demo's reducer and
  /// killed `demo replay` and `demo inspect`. The count now stays at Int.max (the counter stops there).
  func testACounterAtIntMaxThenATickReplaysAndInspectsWithoutATrap() async throws {
    let log = file("at-the-limit.jsonl")
    let lines = [
      #"{"format":"unidirectional-action-log","version":1,"feature":"TimerCounter","#
        + #""initialState":{"count":9223372036854775807,"target":3,"isRunning":true}}"#,
      #"{"seq":1,"origin":"received","time":0.1,"action":{"tick":{}}}"#,
    ]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    for changed in [[], ["--changed-counter"]] {
      let replayed = try runDemo(["replay"] + changed + [log.path])
      XCTAssertEqual(replayed.status, 0, "\(changed): \(replayed.errors)")
      XCTAssertTrue(replayed.output.contains("-   isRunning: true\n+   isRunning: false\n"), replayed.output)
      XCTAssertFalse(replayed.output.contains("count: -"), "no wrap to Int.min: \(replayed.output)")
      XCTAssertTrue(replayed.output.contains("    count: 9223372036854775807,\n"), replayed.output)
      XCTAssertTrue(replayed.output.hasSuffix("done: 1 steps replayed; the log has no fingerprints to verify\n"))
    }

    let (_, url) = try startInspector(["inspect", log.path], in: folder)
    var components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
    let token = try XCTUnwrap(components.queryItems?.first { $0.name == "token" }?.value)
    components.path = "/api/step"
    components.queryItems = [URLQueryItem(name: "token", value: token), URLQueryItem(name: "n", value: "1")]
    let step = try await LoopbackHTTP.send("GET", try XCTUnwrap(components.url))
    XCTAssertEqual(step.status, 200, String(decoding: step.body, as: UTF8.self))
    XCTAssertTrue(String(decoding: step.body, as: UTF8.self).contains("count: 9223372036854775807"))
    components.path = "/api/info"
    let info = try await LoopbackHTTP.send("GET", try XCTUnwrap(components.url))
    XCTAssertEqual(info.status, 200, "still serving")
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

/// Whether `text` holds a control character other than a line break (an escape sequence, a bell…).
func hasControlCharacters(_ text: String) -> Bool {
  text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
}

/// The non-empty lines of a text file.
private func lines(of url: URL) throws -> [String] {
  try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
}
