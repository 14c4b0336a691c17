import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

final class ActionLogReplayTests: XCTestCase {
  func testReplayRebuildsEveryStepFromTheInitialStateWithoutEffects() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let live = try await recordCounterSession(to: url)

    let replay = try ActionLogReplay(contentsOf: url, reducer: LoggedCounter())
    XCTAssertEqual(replay.header.feature, "LoggedCounter")
    XCTAssertEqual(replay.initialState, LoggedCounter.State())
    var steps: [ActionLogStep<LoggedCounter.State, LoggedCounter.Action>] = []
    while let step = try replay.next() { steps.append(step) }

    XCTAssertEqual(steps.map(\.number), Array(1...12))
    XCTAssertEqual(steps.map(\.line), Array(2...13))
    XCTAssertEqual(
      steps.map(\.action),
      [
        .increment, .add(5), .setLabel("hello \"world\"\n"), .tag("b"), .tag("a"), .delayed, .response(42),
        .startTimer, .tick, .tick, .tick, .add(-2),
      ])
    XCTAssertEqual(steps[6].origin, .received)
    XCTAssertEqual(steps.map(\.matchesRecording), Array(repeating: true, count: 12))
    XCTAssertEqual(steps.last?.state, live)
    XCTAssertEqual(replay.state, live)
    XCTAssertEqual(replay.stepCount, 12)
    XCTAssertNil(replay.firstDivergence)
    // `.startTimer` returned a timer effect; replay dropped it: the ticks come from the log alone.
    XCTAssertNil(steps[7].stateDiff)
    XCTAssertEqual(steps[1].stateBefore.count, 1)
    XCTAssertEqual(
      steps[1].stateDiff,
      """
        LoggedCounter.State(
      -   count: 1,
      +   count: 6,
      -   history: [],
      +   history: [
      +     [0]: 5
      +   ],
          label: nil,
          tags: Set([])
        )
      """)
  }

  func testAChangedReducerIsReportedAtTheFirstDivergingStep() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)

    var changed = LoggedCounter()
    changed.addMultiplier = 2
    let replay = try ActionLogReplay(contentsOf: url, reducer: changed)
    var matches: [Bool?] = []
    while let step = try replay.next() { matches.append(step.matchesRecording) }

    XCTAssertEqual(matches, [true] + Array(repeating: false, count: 5) + [true, true, true, true, true, false])
    let divergence = try XCTUnwrap(replay.firstDivergence)
    XCTAssertEqual(divergence.number, 2)
    XCTAssertEqual(divergence.line, 3)
    XCTAssertEqual(divergence.action, .add(5))
    XCTAssertNotEqual(divergence.recordedFingerprint, divergence.replayedFingerprint)
    XCTAssertEqual(
      divergence.description,
      """
      step 2 (line 3): LoggedCounter.Action.add(5) — the replayed state differs from the recorded one \
      (fingerprint recorded \(try XCTUnwrap(divergence.recordedFingerprint)), \
      replayed \(try XCTUnwrap(divergence.replayedFingerprint))); \
      the action now changes the state:
        LoggedCounter.State(
      -   count: 1,
      +   count: 11,
      -   history: [],
      +   history: [
      +     [0]: 5
      +   ],
          label: nil,
          tags: Set([])
        )
      """)
  }

  func testWithoutVerificationNoFingerprintIsComputed() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    var changed = LoggedCounter()
    changed.addMultiplier = 2
    let replay = try ActionLogReplay(contentsOf: url, reducer: changed, verifyFingerprints: false)
    var steps = 0
    while let step = try replay.next() {
      XCTAssertNil(step.replayedFingerprint)
      XCTAssertNotNil(step.recordedFingerprint)
      XCTAssertNil(step.matchesRecording)
      steps += 1
    }
    XCTAssertEqual(steps, 12)
    XCTAssertNil(replay.firstDivergence)
  }

  func testALogWithoutFingerprintsReplaysWithoutVerdicts() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let live = try await recordCounterSession(to: url, fingerprints: false)
    let steps = try replayAll(url, LoggedCounter())
    XCTAssertEqual(steps.count, 12)
    XCTAssertEqual(steps.map(\.matchesRecording), Array(repeating: nil, count: 12))
    XCTAssertEqual(steps.last?.state, live)
  }

  func testACorruptLineStopsReplayNamingItsLineAndKeepsTheStepsBefore() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    var lines = try lines(of: url)
    lines[4] = #"{"seq":4,"origin":"sent","time":0,"action":{"tag":{"_0":"b"}},"fingerp"#
    try write(lines, to: url)

    let replay = try ActionLogReplay(contentsOf: url, reducer: LoggedCounter())
    var steps: [ActionLogStep<LoggedCounter.State, LoggedCounter.Action>] = []
    XCTAssertThrowsError(try { while let step = try replay.next() { steps.append(step) } }()) { error in
      guard case let .corruptLine(line, reason)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertEqual(line, 5)
      XCTAssertTrue(reason.contains("not valid JSON"), reason)
      XCTAssertTrue("\(error)".hasPrefix("line 5: corrupt or truncated line: "), "\(error)")
    }
    XCTAssertEqual(steps.map(\.number), [1, 2, 3])
    XCTAssertEqual(replay.stepCount, 3)
    XCTAssertEqual(replay.state.label, "hello \"world\"\n")
    XCTAssertEqual(replay.state.count, 6)
  }

  func testATruncatedLastLineIsReportedAsTruncated() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    let data = try Data(contentsOf: url)
    // Cut the file in the middle of its last line, as a killed writer would leave it.
    try data.prefix(data.count - 20).write(to: url)

    let replay = try ActionLogReplay(contentsOf: url, reducer: LoggedCounter())
    var count = 0
    XCTAssertThrowsError(try { while try replay.next() != nil { count += 1 } }()) { error in
      guard case let .corruptLine(line, reason)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertEqual(line, 13)
      XCTAssertTrue(reason.hasSuffix("(the file ends in the middle of this line)"), reason)
    }
    XCTAssertEqual(count, 11)
  }

  func testAnUnknownActionFromAnotherVersionIsReportedWithItsLine() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    var lines = try lines(of: url)
    lines[3] = #"{"seq":3,"origin":"sent","time":0,"action":{"reset":{}},"fingerprint":"0000000000000000"}"#
    try write(lines, to: url)

    let replay = try ActionLogReplay(contentsOf: url, reducer: LoggedCounter())
    XCTAssertNotNil(try replay.next())
    XCTAssertNotNil(try replay.next())
    XCTAssertThrowsError(try replay.next()) { error in
      guard case let .unknownAction(line, reason)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertEqual(line, 4)
      XCTAssertTrue(reason.contains(#"{"reset":{}}"#), reason)
    }
    XCTAssertEqual(replay.stepCount, 2)
    XCTAssertEqual(replay.state.count, 6)
  }

  func testAnActionWithAChangedPayloadIsAnUnknownAction() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    var lines = try lines(of: url)
    lines[2] = #"{"seq":2,"origin":"sent","time":0,"action":{"add":{"amount":5}}}"#
    try write(lines, to: url)
    XCTAssertThrowsError(try replayAll(url, LoggedCounter())) { error in
      guard case let .unknownAction(line, reason)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertEqual(line, 3)
      XCTAssertTrue(reason.hasPrefix(#"missing key "_0" at action.add in {"seq":2"#), reason)
    }
  }

  func testMissingLinesAreASequenceGap() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    var lines = try lines(of: url)
    lines.remove(at: 5)
    try write(lines, to: url)
    XCTAssertThrowsError(try replayAll(url, LoggedCounter())) { error in
      XCTAssertEqual(error as? ActionLogError, .sequenceGap(line: 6, expected: 5, found: 6))
    }
  }

  func testAnEmptyFileHasNoHeader() throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("empty.jsonl")
    try Data().write(to: url)
    XCTAssertThrowsError(try ActionLogReplay(contentsOf: url, reducer: LoggedCounter())) { error in
      XCTAssertEqual(error as? ActionLogError, .missingHeader)
    }
    XCTAssertThrowsError(try ActionLogHeader.read(from: url)) { error in
      XCTAssertEqual(error as? ActionLogError, .missingHeader)
    }
  }

  func testAMissingFileIsATypedError() throws {
    XCTAssertThrowsError(
      try ActionLogReplay(contentsOf: URL(fileURLWithPath: "/nonexistent/log.jsonl"), reducer: LoggedCounter())
    ) { error in
      guard case .cannotOpen(path: "/nonexistent/log.jsonl", _)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
    }
  }

  func testHeadersThatAreNotSupportedAreRefused() throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("log.jsonl")
    let cases: [(String, ActionLogError)] = [
      (#"{"hello":1}"#, .corruptLine(line: 1, reason: #"missing key "format""#)),
      (
        #"{"format":"other","version":1,"feature":"X","initialState":{}}"#,
        .unsupportedFormat(line: 1, found: #"format "other" (expected "unidirectional-action-log")"#)
      ),
      (
        #"{"format":"unidirectional-action-log","version":3,"feature":"X","initialState":{}}"#,
        .unsupportedFormat(line: 1, found: "version 3 (this library reads versions 1 to 2)")
      ),
      (
        #"{"format":"unidirectional-action-log","version":1,"feature":"X","fingerprints":"md5","initialState":{}}"#,
        .unsupportedFormat(line: 1, found: #"fingerprint algorithm "md5""#)
      ),
    ]
    for (header, expected) in cases {
      try Data((header + "\n").utf8).write(to: url)
      XCTAssertThrowsError(try ActionLogReplay(contentsOf: url, reducer: LoggedCounter()), header) { error in
        XCTAssertEqual(error as? ActionLogError, expected)
      }
    }
    try Data(#"{"format":"unidirectional-action-log","version":1,"feature":"X","initialState":{"count":"0"}}"#.utf8)
      .write(to: url)
    XCTAssertThrowsError(try ActionLogReplay(contentsOf: url, reducer: LoggedCounter())) { error in
      guard case let .unknownState(line: 1, reason)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertTrue(reason.hasPrefix("expected Int at initialState.count: "), reason)
    }
  }

  func testAStateTypeThatEncodesDifferentlyDivergesAtStepZero() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    let replay = try ActionLogReplay(contentsOf: url, reducer: WiderCounter())
    let divergence = try XCTUnwrap(replay.firstDivergence)
    XCTAssertEqual(divergence.number, 0)
    XCTAssertEqual(divergence.line, 1)
    XCTAssertNil(divergence.action)
    XCTAssertTrue(divergence.description.contains("the State type changed"), divergence.description)
  }

  func testEffectsAreNeverRun() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    let issues = LoggedIssues()
    let replay = try ActionLogReplay(contentsOf: url, reducer: LoggedCounter()) {
      $0.issueReporter = issues.reporter
    }
    while try replay.next() != nil {}
    // The timer effect would sleep on the unimplemented test clock and report it; it never ran.
    XCTAssertEqual(issues.messages, [])
  }
}

/// `LoggedCounter` with one more stored field: its state encodes differently from the recorded one.
private struct WiderCounter: Reducer {
  struct State: Codable, Equatable {
    var count = 0
    var history: [Int] = []
    var label: String?
    var tags: Set<String> = []
    var extra = 1

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      count = try container.decode(Int.self, forKey: .count)
      history = try container.decode([Int].self, forKey: .history)
      label = try container.decodeIfPresent(String.self, forKey: .label)
      tags = try container.decode(Set<String>.self, forKey: .tags)
      extra = try container.decodeIfPresent(Int.self, forKey: .extra) ?? 1
    }
  }

  func reduce(into state: inout State, action: LoggedCounter.Action) -> Effect<LoggedCounter.Action> { .none }
}

private func write(_ lines: [String], to url: URL) throws {
  try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
}
