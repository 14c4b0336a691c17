import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

/// A small feature with every kind of action a log holds: sent, fed back by `.send`, fed back by `.run` on the
/// clock.
struct LoggedCounter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var history: [Int] = []
    var label: String?
    var tags: Set<String> = []
  }

  enum Action: Codable, Equatable, Sendable {
    case increment
    case add(Int)
    case setLabel(String?)
    case tag(String)
    case startTimer
    case tick
    case delayed
    case response(Int)
  }

  /// The behaviour of `.add`, changed by tests to make a "new version" of the reducer.
  var addMultiplier = 1
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case let .add(amount):
      state.count += amount * addMultiplier
      state.history.append(amount)
      return .none
    case let .setLabel(label):
      state.label = label
      return .none
    case let .tag(tag):
      state.tags.insert(tag)
      return .none
    case .startTimer:
      let clock = clock
      return .run { send in
        for _ in 0..<3 {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .tick:
      state.count += 10
      return .none
    case .delayed:
      return .send(.response(42))
    case let .response(value):
      state.count = value
      return .none
    }
  }
}

/// A folder of scratch files for one test, removed when the test ends.
final class ScratchFolder {
  let url: URL

  init(_ test: XCTestCase) throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("actionlog-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let url = self.url
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// The lines of a text file.
func lines(of url: URL) throws -> [String] {
  let text = try String(contentsOf: url, encoding: .utf8)
  return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
}

/// A JSON line parsed into a dictionary.
func object(_ line: String) throws -> [String: Any] {
  let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
  return try XCTUnwrap(value as? [String: Any], "not a JSON object: \(line)")
}

/// Records a session of `LoggedCounter` to `url`: sends, an effect fed back by `.send`, and a timer on an
/// immediate clock (ticks at 1, 2, 3 s).
func recordCounterSession(
  to url: URL, fingerprints: Bool = true, feature: String? = nil
) async throws -> LoggedCounter.State {
  let recorder = try ActionRecorder(fileURL: url, feature: feature, fingerprints: fingerprints)
  let store = Store(initialState: LoggedCounter.State(), recordingTo: recorder) {
    LoggedCounter()
  } withDependencies: {
    $0.clock = ImmediateClock()
  }
  store.send(.increment)
  store.send(.add(5))
  store.send(.setLabel("hello \"world\"\n"))
  store.send(.tag("b"))
  store.send(.tag("a"))
  store.send(.delayed)
  await store.send(.startTimer).finish()
  store.send(.add(-2))
  try await recorder.close()
  return store.state
}

/// Runtime issues reported by a store, collected from any thread.
final class LoggedIssues: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [String] = []

  var reporter: IssueReporter {
    IssueReporter { issue in
      self.lock.lock()
      self.collected.append(issue.message)
      self.lock.unlock()
    }
  }

  var messages: [String] {
    lock.lock()
    defer { lock.unlock() }
    return collected
  }
}
