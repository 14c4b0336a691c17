import Foundation
import XCTest

import Unidirectional
@testable import UnidirectionalActionLog

final class ActionRecorderTests: XCTestCase {
  func testRecordsHeaderAndEveryReducedActionInOrder() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let final = try await recordCounterSession(to: url, feature: "Counter")
    XCTAssertEqual(final.count, 70)

    let lines = try lines(of: url)
    XCTAssertEqual(lines.count, 13)
    let header = try object(lines[0])
    XCTAssertEqual(header["format"] as? String, "unidirectional-action-log")
    XCTAssertEqual(header["version"] as? Int, 2)
    XCTAssertEqual(header["feature"] as? String, "Counter")
    XCTAssertEqual(header["fingerprints"] as? String, "fnv1a64-structural")
    let initial = try ActionLogFingerprint(of: LoggedCounter.State())
    XCTAssertEqual(header["initialFingerprint"] as? String, initial.description)
    XCTAssertEqual(
      lines[0].components(separatedBy: #""initialState":"#).last,
      #"{"count":0,"history":[],"tags":[]}}"#)

    let entries = try lines.dropFirst().map(object)
    XCTAssertEqual(entries.map { $0["seq"] as? Int }, Array(1...12))
    XCTAssertEqual(
      entries.map { $0["origin"] as? String },
      ["sent", "sent", "sent", "sent", "sent", "sent", "received", "sent", "received", "received", "received", "sent"])
    let times = entries.compactMap { $0["time"] as? Double }
    XCTAssertEqual(Array(times[0..<8]), Array(repeating: 0, count: 8))
    // Each tick is stamped when the store reduces it: after its sleep, possibly after later sleeps too.
    XCTAssertEqual(times[8...].sorted(), Array(times[8...]))
    XCTAssertTrue(times[8...].allSatisfy { (1...3).contains($0) }, "\(times)")
    XCTAssertEqual(times.last, 3)
    XCTAssertEqual(
      lines[2],
      try expectedLine(
        seq: 2, action: #"{"add":{"_0":5}}"#,
        after: {
          $0.count = 6; $0.history = [5]
        }))
    XCTAssertEqual(
      lines[3].components(separatedBy: #""action":"#).last?.components(separatedBy: #","fingerprint""#).first,
      #"{"setLabel":{"_0":"hello \"world\"\n"}}"#)
    XCTAssertEqual(
      lines[7].components(separatedBy: #""action":"#).last?.components(separatedBy: #","fingerprint""#).first,
      #"{"response":{"_0":42}}"#)
  }

  func testFingerprintOfEachLineIsTheStateAfterItsAction() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    let entries = try lines(of: url).dropFirst().map(object)
    var state = LoggedCounter.State()
    state.count = 1
    XCTAssertEqual(entries[0]["fingerprint"] as? String, try ActionLogFingerprint(of: state).description)
    state = LoggedCounter.State(count: 70, history: [5, -2], label: "hello \"world\"\n", tags: ["a", "b"])
    XCTAssertEqual(entries[11]["fingerprint"] as? String, try ActionLogFingerprint(of: state).description)
  }

  func testWithoutFingerprintsLinesHaveNone() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url, fingerprints: false)
    let lines = try lines(of: url)
    XCTAssertNil(try object(lines[0])["fingerprints"])
    XCTAssertEqual(lines.count, 13)
    for line in lines.dropFirst() { XCTAssertNil(try object(line)["fingerprint"], line) }
  }

  func testDefaultFeatureNameIsTheReducerType() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordCounterSession(to: url)
    XCTAssertEqual(try ActionLogHeader.read(from: url).feature, "LoggedCounter")
  }

  func testFlushWritesEverythingReducedSoFarWhileTheStoreKeepsRunning() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(fileURL: url, flushInterval: .seconds(3600))
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    for _ in 0..<3 { store.send(.increment) }
    try await recorder.flush()
    XCTAssertEqual(try lines(of: url).count, 4)
    XCTAssertEqual(recorder.writtenCount, 3)
    store.send(.increment)
    try await recorder.flush()
    XCTAssertEqual(try lines(of: url).count, 5)
    try await recorder.close()
    XCTAssertEqual(store.count, 4)
  }

  func testThousandsOfActionsAcrossManyChunksAreAllWrittenInOrder() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(fileURL: url)
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    for value in 0..<5_000 { store.send(value.isMultiple(of: 2) ? .increment : .setLabel("\(value)")) }
    try await recorder.close()
    let entries = try lines(of: url).dropFirst().map(object)
    XCTAssertEqual(entries.count, 5_000)
    XCTAssertEqual(entries.map { $0["seq"] as? Int }, Array(1...5_000))
    XCTAssertEqual(
      entries.map { (($0["action"] as? [String: Any])?["setLabel"] as? [String: Any])?["_0"] as? String },
      (0..<5_000).map { $0.isMultiple(of: 2) ? nil : "\($0)" })
    let last = LoggedCounter.State(count: 2_500, label: "4999")
    XCTAssertEqual(entries.last?["fingerprint"] as? String, try ActionLogFingerprint(of: last).description)
  }

  func testASenderFasterThanTheWriterWaitsForItInsteadOfDroppingActions() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(
      fileURL: url, feature: nil, fingerprints: true, flushInterval: .milliseconds(1), maximumPending: 2_048)
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    // With the writer stopped, far more actions than may wait for it: the sender must wait for room.
    recorder.setWriterHeld(true)
    let count = 20_000
    let sent = LockIsolated(false)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread {
        for _ in 0..<count { store.send(.increment) }
        sent.setValue(true)
        done.resume()
      }.start()
      XCTAssertTrue(recorder.waitForBackPressure(timeout: .seconds(60)), "the sender never waited for the writer")
      XCTAssertEqual(recorder.writtenCount, 0)
      XCTAssertFalse(sent.value, "the sender waits for the writer instead of dropping actions")
      recorder.setWriterHeld(false)
    }
    try await recorder.close()
    XCTAssertEqual(store.count, count)
    XCTAssertEqual(recorder.writtenCount, count)
    let lines = try lines(of: url)
    XCTAssertEqual(lines.count, count + 1)
    XCTAssertTrue(lines[count].hasPrefix(#"{"seq":\#(count),"origin":"sent","#), lines[count])
  }

  /// Without flushes: the first send wakes the writer, which then collects what is sent every flush interval by
  /// itself; after an interval with nothing to collect it stops, and the next send wakes it again.
  func testTheWriterCollectsByItselfAndIsWokenAgainAfterFallingIdle() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(
      fileURL: url, feature: nil, fingerprints: true, flushInterval: .milliseconds(1), maximumPending: 65_536)
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    for _ in 0..<3 { store.send(.increment) }
    XCTAssertTrue(recorder.waitForWriter(timeout: .seconds(60)) { $0.written == 3 }, "the writer never collected")
    XCTAssertTrue(recorder.waitForWriter(timeout: .seconds(60)) { !$0.polls }, "the writer never stopped polling")
    store.send(.increment)
    XCTAssertTrue(recorder.waitForWriter(timeout: .seconds(60)) { $0.written == 4 }, "the send did not wake it")
    try await recorder.close()
    XCTAssertEqual(store.count, 4)
    XCTAssertEqual(try lines(of: url).count, 5)
  }

  func testConcurrentSendersAreRecordedInTheOrderTheStoreReducedThem() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    // Without fingerprints: a state whose history grows would make each line's fingerprint O(history).
    let recorder = try ActionRecorder(fileURL: url, fingerprints: false)
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask {
          for index in 0..<500 { store.send(.add(sender * 1_000 + index)) }
        }
      }
    }
    try await recorder.close()
    let entries = try lines(of: url).dropFirst().map(object)
    XCTAssertEqual(entries.map { $0["seq"] as? Int }, Array(1...2_000))
    let added = entries.compactMap { (($0["action"] as? [String: Any])?["add"] as? [String: Any])?["_0"] as? Int }
    // The log's order is the store's order: the same as the state's history.
    XCTAssertEqual(added, store.history)
    for sender in 0..<4 {
      XCTAssertEqual(added.filter { $0 / 1_000 == sender }, (0..<500).map { sender * 1_000 + $0 })
    }
  }

  func testReleasingTheStoreFlushesTheLastActions() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(fileURL: url, flushInterval: .seconds(3600))
    do {
      let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
        LoggedCounter()
      } withDependencies: {
        $0.clock = ImmediateClock()
      }
      store.send(.increment)
      store.send(.add(2))
    }
    // close() waits for the writer, which finishes once the released store has handed over its last actions.
    try await recorder.close()
    XCTAssertEqual(try lines(of: url).count, 3)
  }

  func testActionsAfterCloseAreNotRecordedAndReported() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let issues = LoggedIssues()
    let recorder = try ActionRecorder(fileURL: url)
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
      $0.issueReporter = issues.reporter
    }
    store.send(.increment)
    try await recorder.close()
    store.send(.increment)
    store.send(.increment)
    XCTAssertEqual(store.count, 3)
    XCTAssertEqual(try lines(of: url).count, 2)
    XCTAssertEqual(issues.messages.count, 1)
    XCTAssertTrue(issues.messages.first?.contains("after its ActionRecorder was closed") ?? false, "\(issues.messages)")
    try await recorder.close()  // closing again is harmless
  }

  func testARecorderRecordsOneStoreOnly() async throws {
    let folder = try ScratchFolder(self)
    let issues = LoggedIssues()
    let recorder = try ActionRecorder(fileURL: folder.file("session.jsonl"))
    let first = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    let second = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = ImmediateClock()
      $0.issueReporter = issues.reporter
    }
    first.send(.increment)
    second.send(.increment)
    try await recorder.close()
    XCTAssertEqual(issues.messages.count, 1)
    XCTAssertTrue(issues.messages.first?.contains("already recording") ?? false, "\(issues.messages)")
    XCTAssertEqual(try lines(of: folder.file("session.jsonl")).count, 2)
  }

  func testAnUnwritableLocationIsATypedError() {
    XCTAssertThrowsError(try ActionRecorder(fileURL: URL(fileURLWithPath: "/nonexistent-folder/x/log.jsonl"))) {
      guard case let .cannotOpen(path, reason)? = $0 as? ActionLogError else {
        return XCTFail("unexpected error \($0)")
      }
      XCTAssertEqual(path, "/nonexistent-folder/x/log.jsonl")
      XCTAssertFalse(reason.isEmpty)
    }
  }

  /// `--record` without `--force`: the file is created exclusively, so one that appeared after the host checked is
  /// refused with a typed error and left as it was (before, the open truncated it).
  func testARecorderThatMustNotReplaceAFileRefusesAnExistingOneAndLeavesItAlone() throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("taken.jsonl")
    try Data("someone else's log\n".utf8).write(to: url)

    XCTAssertThrowsError(try ActionRecorder(fileURL: url, replacingExistingFile: false)) {
      XCTAssertEqual($0 as? ActionLogError, .fileExists(path: url.path))
      XCTAssertEqual("\($0)", "\(url.path) already exists; it was not replaced")
    }
    XCTAssertEqual(try Data(contentsOf: url), Data("someone else's log\n".utf8))

    let fresh = folder.file("fresh.jsonl")
    _ = try ActionRecorder(fileURL: fresh, replacingExistingFile: false)
    XCTAssertTrue(FileManager.default.fileExists(atPath: fresh.path), "a new file is created")
    _ = try ActionRecorder(fileURL: url, replacingExistingFile: true)
    XCTAssertEqual(try Data(contentsOf: url), Data(), "replacing truncates, as before")
  }

  func testAnActionThatCannotBeEncodedKeepsItsPlaceAndFailsClose() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(fileURL: url)
    let store = Store(initialState: Measure.State(), recordingTo: recorder) {
      Measure()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    store.send(.set(1.5))
    store.send(.set(.nan))
    store.send(.set(2))
    do {
      try await recorder.close()
      XCTFail("close() should report the action that could not be encoded")
    } catch {
      XCTAssertEqual(
        error.description,
        "cannot encode for the action log: action #2 (Measure.Action): invalid value at set._0: nan cannot be "
          + "written as a JSON number.")
    }
    let lines = try lines(of: url)
    XCTAssertEqual(lines.count, 4)
    XCTAssertTrue(lines[2].hasPrefix(#"{"seq":2,"origin":"sent","time":0,"unencodable":"#), lines[2])
    XCTAssertEqual(try object(lines[3])["seq"] as? Int, 3)

    XCTAssertThrowsError(try replayAll(url, Measure())) { error in
      guard case .unrecordedAction(line: 3, _)? = error as? ActionLogError else {
        return XCTFail("unexpected error \(error)")
      }
    }
  }

  func testTimesComeFromTheInjectedClock() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let clock = TestClock(now: .init(offset: .seconds(100)))
    let recorder = try ActionRecorder(fileURL: url)
    let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
      LoggedCounter()
    } withDependencies: {
      $0.clock = clock
    }
    store.send(.increment)
    await clock.advance(by: .milliseconds(1_500))
    store.send(.increment)
    await clock.advance(by: .nanoseconds(1))
    store.send(.increment)
    try await recorder.close()
    let times = try lines(of: url).dropFirst().map { try object($0)["time"] as? Double }
    XCTAssertEqual(times, [0, 1.5, 1.500000001])
  }
}

/// A feature whose action can hold a value JSON cannot represent.
struct Measure: Reducer {
  struct State: Codable, Equatable, Sendable { var value = 0.0 }
  enum Action: Codable, Equatable, Sendable { case set(Double) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case let .set(value) = action { state.value = value.isNaN ? 0 : value }
    return .none
  }
}

/// The line the recorder writes for an action, given the state after it.
private func expectedLine(seq: Int, action: String, after: (inout LoggedCounter.State) -> Void) throws -> String {
  var state = LoggedCounter.State()
  after(&state)
  let fingerprint = try ActionLogFingerprint(of: state)
  return #"{"seq":\#(seq),"origin":"sent","time":0,"action":\#(action),"fingerprint":"\#(fingerprint)"}"#
}

/// Replays a whole log; returns its steps.
@discardableResult
func replayAll<R: Reducer>(_ url: URL, _ reducer: R) throws -> [ActionLogStep<R.State, R.Action>]
where R.State: Codable, R.Action: Decodable {
  let replay = try ActionLogReplay(contentsOf: url, reducer: reducer)
  var steps: [ActionLogStep<R.State, R.Action>] = []
  while let step = try replay.next() { steps.append(step) }
  return steps
}
