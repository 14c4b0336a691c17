// swift-format-ignore-file
// The "Xcode 26 projects" article's code (Sources/Unidirectional/Unidirectional.docc/Xcode26Projects.md), compiled
// with an Xcode 26 app target's settings and run here; Scripts/tests/test_doc_snippets.py checks that the article
// shows it verbatim.
import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

// A public feature: `Sendable` on its nonisolated action enums, nothing on its state.
public struct Stopwatch: Reducer {
  public struct State: Equatable {
    public var seconds = 0
    public var isRunning = false
    public init() {}
  }
  public nonisolated enum Action: Equatable, Sendable {
    case startTapped
    case stopTapped
    case tick
    case delegate(Delegate)
    public nonisolated enum Delegate: Equatable, Sendable { case stopped(seconds: Int) }
  }
  nonisolated enum CancelID { case timer }
  @Dependency(\.clock) var clock
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        state.isRunning = true
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stopTapped:
        state.isRunning = false
        return .merge(.cancel(id: CancelID.timer), .send(.delegate(.stopped(seconds: state.seconds))))
      case .tick:
        state.seconds += 1
        return .none
      case .delegate:
        return .none
      }
    }
  }
}

// The …Of aliases in a nonisolated action, and as the type of a body.
struct Laps: Reducer {
  struct State: Equatable {
    var stopwatches: IdentifiedArrayOf<Lap.State> = []
    var path = StackState<Lap.State>()
  }
  nonisolated enum Action: Equatable {
    case stopwatches(IdentifiedActionOf<Lap>)
    case path(StackActionOf<Lap>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.stopwatches, action: Action.stopwatches) { Lap() }
      .forEach(\.path, action: Action.path) { Lap() }
  }
}

struct Lap: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var stopwatch = Stopwatch.State()
  }
  nonisolated enum Action: Equatable { case stopwatch(Stopwatch.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: \.stopwatch, action: Action.stopwatch) { Stopwatch() }
  }
}

struct Xcode26ProjectsArticleTests {
  @Test func aPublicFeatureRunsAsAnInternalOne() async {
    let clock = TestClock()
    let store: TestStoreOf<Stopwatch> = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.seconds = 1 }
    await store.receive(.tick) { $0.seconds = 2 }
    await store.send(.stopTapped) { $0.isRunning = false }
    await store.receive(.delegate(.stopped(seconds: 2)))
  }

  @Test func theAliasesScopeAnElementAndAStackEntry() async {
    let clock = TestClock()
    var initial = Laps.State()
    initial.stopwatches.append(Lap.State(id: 7))
    let store = TestStore(initialState: initial) { Laps() } withDependencies: { $0.clock = clock }
    await store.send(.stopwatches(.element(id: 7, action: .stopwatch(.startTapped)))) {
      $0.stopwatches[id: 7]?.stopwatch.isRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.stopwatches(.element(id: 7, action: .stopwatch(.tick)))) {
      $0.stopwatches[id: 7]?.stopwatch.seconds = 1
    }
    await store.send(.path(.push(id: 0, state: Lap.State(id: 1)))) {
      $0.path.append(Lap.State(id: 1))
    }
    await store.send(.path(.element(id: 0, action: .stopwatch(.tick)))) {
      $0.path[id: 0]?.stopwatch.seconds = 1
    }
    await store.send(.stopwatches(.element(id: 7, action: .stopwatch(.stopTapped)))) {
      $0.stopwatches[id: 7]?.stopwatch.isRunning = false
    }
    await store.receive(.stopwatches(.element(id: 7, action: .stopwatch(.delegate(.stopped(seconds: 1))))))
  }
}
