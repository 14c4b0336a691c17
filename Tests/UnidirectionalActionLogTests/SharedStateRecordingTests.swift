import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

/// A list of timed items kept in a shared value: adding one and ticking its timer change the shared list, the ticks
/// coming from an effect (issue 45, bug 4).
struct TimedItems: Reducer {
  struct Item: Codable, Equatable, Sendable {
    var title: String
    var seconds = 0
  }

  struct State: Codable, Equatable, Sendable {
    @Shared var items: [Item]
    var timerStarted = false
  }

  enum Action: Codable, Equatable, Sendable {
    case add(String)
    case startTimer(index: Int)
    case tick(index: Int)
  }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(title):
      state.$items.withLock { $0.append(Item(title: title)) }
      return .none
    case let .startTimer(index):
      state.timerStarted = true
      let clock = clock
      return .run { send in
        for _ in 0..<3 {
          try await clock.sleep(for: .seconds(1))
          send(.tick(index: index))
        }
      }
    case let .tick(index):
      state.$items.withLock { $0[index].seconds += 1 }
      return .none
    }
  }
}

final class SharedStateRecordingTests: XCTestCase {
  /// The state recorded with each step holds the shared values as they were at that step, not as later steps left
  /// them: replaying the log through the same reducer finds no divergence.
  func testARecordingOfFileStorageSharedStateReplaysWithoutDivergence() async throws {
    let folder = try ScratchFolder(self)
    let items = Shared(wrappedValue: [TimedItems.Item](), .fileStorage(folder.file("items.json")))
    try await assertRecordedStepsMatchTheirTime(items: items, folder: folder)
  }

  func testARecordingOfInMemorySharedStateReplaysWithoutDivergence() async throws {
    let folder = try ScratchFolder(self)
    let items = Shared(wrappedValue: [TimedItems.Item](), .inMemory("timed-items-\(UUID().uuidString)"))
    try await assertRecordedStepsMatchTheirTime(items: items, folder: folder)
  }

  func testAPlainSharedValueIsRecordedAsOfEachStep() async throws {
    let folder = try ScratchFolder(self)
    try await assertRecordedStepsMatchTheirTime(items: Shared(value: []), folder: folder)
  }

  /// Records: add an item, start its timer, three ticks on an immediate clock (3 s); then checks each recorded state
  /// and replays the log.
  private func assertRecordedStepsMatchTheirTime(
    items: Shared<[TimedItems.Item]>, folder: ScratchFolder, file: StaticString = #filePath, line: UInt = #line
  ) async throws {
    let url = folder.file("session.jsonl")
    let recorder = try ActionRecorder(fileURL: url, states: true)
    let store = Store(initialState: TimedItems.State(items: items), recordingTo: recorder) {
      TimedItems()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    store.send(.add("Milk"))
    await store.send(.startTimer(index: 0)).finish()
    try await recorder.close()

    // The state written with each line, as it was after that line's action.
    let recordedSeconds = try lines(of: url).dropFirst().map { text -> Int? in
      let state = try XCTUnwrap(try object(text)["state"] as? [String: Any], file: file, line: line)
      let items = try XCTUnwrap(state["items"] as? [[String: Any]], file: file, line: line)
      return items.first?["seconds"] as? Int
    }
    XCTAssertEqual(recordedSeconds, [0, 0, 1, 2, 3], file: file, line: line)

    let replay = try ActionLogReplay(contentsOf: url, reducer: TimedItems())
    var diffs: [String?] = []
    while let step = try replay.next() { diffs.append(step.stateDiff) }
    XCTAssertNil(replay.firstDivergence.map(String.init(describing:)), file: file, line: line)
    XCTAssertEqual(replay.stepCount, 5, file: file, line: line)
    XCTAssertEqual(replay.state.items, [TimedItems.Item(title: "Milk", seconds: 3)], file: file, line: line)
    // Each replayed step shows what it changed in the shared list: the state before it kept its own values.
    XCTAssertEqual(diffs.map { $0 != nil }, [true, true, true, true, true], file: file, line: line)
    XCTAssertTrue(diffs[2]?.contains("seconds: 1") == true, "\(diffs[2] ?? "no diff")", file: file, line: line)
  }
}
