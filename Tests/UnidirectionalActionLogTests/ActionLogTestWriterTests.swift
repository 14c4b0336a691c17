import Foundation
import Unidirectional
import UnidirectionalActionLog
import UnidirectionalTesting
import XCTest

/// The committed test `Emitted/ChecklistSessionTests.swift`, written from the committed log
/// `Emitted/checklist-session.jsonl`, compiles and runs with the other tests; these check that it is what the writer
/// writes today, and that its steps fail where a changed reducer differs.
final class ActionLogTestWriterTests: XCTestCase {
  static let emitted = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Emitted")
  static let logURL = emitted.appendingPathComponent("checklist-session.jsonl")
  static let testURL = emitted.appendingPathComponent("ChecklistSessionTests.swift")

  static var configuration: ActionLogTestWriter.Configuration {
    var configuration = ActionLogTestWriter.Configuration(
      testName: "checklistSession", imports: [], reducer: "Checklist()")
    configuration.module = "UnidirectionalActionLogTests"
    configuration.stepsTakeAnyReducer = true
    configuration.header = [
      "Written by ActionLogTestWriter from the action log checklist-session.jsonl (a recorded session of Checklist).",
      "Regenerate, rather than edit: REGENERATE_EMITTED_TESTS=1 swift test --filter ActionLogTestWriterTests",
    ]
    return configuration
  }

  func testTheCommittedTestIsWhatTheWriterWritesFromTheCommittedLog() async throws {
    if ProcessInfo.processInfo.environment["REGENERATE_EMITTED_TESTS"] == "1" {
      try await recordChecklistSession(to: Self.logURL)
      let source = try ActionLogTestWriter.source(
        fromLog: Self.logURL, reducer: Checklist(), configuration: Self.configuration)
      try source.write(to: Self.testURL, atomically: true, encoding: .utf8)
    }
    let source = try ActionLogTestWriter.source(
      fromLog: Self.logURL, reducer: Checklist(), configuration: Self.configuration)
    let committed = try String(contentsOf: Self.testURL, encoding: .utf8)
    XCTAssertEqual(
      source, committed,
      "Emitted/ChecklistSessionTests.swift is not what the writer writes now: regenerate it with "
        + "REGENERATE_EMITTED_TESTS=1 swift test --filter ActionLogTestWriterTests")
  }

  func testTheRecordedStepsFailAtTheStepWhoseEffectWasRemoved() async throws {
    let failures = try await failures(of: Checklist(syncFinishes: false))
    let first = try XCTUnwrap(failures.first)
    XCTAssertTrue(first.message.hasPrefix("Expected to receive Checklist.Action.syncFinished("), first.message)
    let line = try sourceLine(first)
    XCTAssertTrue(line.hasPrefix("await store.receive(.syncFinished(at: Date("), line)
  }

  func testTheRecordedStepsFailAtTheFirstStepThatDiffersWithTheStateDiff() async throws {
    let failures = try await failures(of: Checklist(capitalizesTags: true))
    let first = try XCTUnwrap(failures.first)
    XCTAssertEqual(try sourceLine(first), #"await store.send(.tag("groceries")) { $0.tags.insert("groceries") }"#)
    XCTAssertTrue(first.message.contains(#"-     "groceries""#), first.message)
    XCTAssertTrue(first.message.contains(#"+     "GROCERIES""#), first.message)
  }

  /// The failures of the committed test's steps run against `reducer`.
  private func failures(of reducer: Checklist) async throws -> [TestFailure] {
    let failures = LockIsolated<[TestFailure]>([])
    let reporter = TestReporter { failure in failures.withLock { $0.append(failure) } }
    try await checklistSessionSteps(reducer: reducer, reporter: reporter)
    return failures.value.filter { !$0.isSkippedAssertion }
  }

  /// The line of the committed test a failure was reported at.
  private func sourceLine(_ failure: TestFailure) throws -> String {
    XCTAssertTrue("\(failure.filePath)".hasSuffix("ChecklistSessionTests.swift"), "\(failure.filePath)")
    let text = try String(contentsOf: Self.testURL, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines[Int(failure.line) - 1].trimmingCharacters(in: .whitespaces)
  }
}

/// Records a session of `Checklist` with live UUIDs and dates on an immediate clock.
func recordChecklistSession(to url: URL) async throws {
  let recorder = try ActionRecorder(fileURL: url)
  let store = Store(
    initialState: Checklist.State(items: Shared(wrappedValue: [], .inMemory("checklist-\(UUID())"))),
    recordingTo: recorder
  ) {
    Checklist()
  } withDependencies: {
    $0.uuid = .random
    $0.date = DateGenerator { Date() }
    $0.clock = ImmediateClock()
  }
  store.send(.draftChanged("Milk"))
  store.send(.addTapped)
  store.send(.draftChanged("Bread \"fresh\""))
  store.send(.addTapped)
  store.send(.toggle(store.state.items[0].id))
  store.send(.tag("groceries"))
  store.send(.filterChanged(.open))
  await store.send(.syncTapped).finish()
  try await recorder.close()
}
