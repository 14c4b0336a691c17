import Unidirectional

/// The state every core benchmark mutates.
struct BenchState: Equatable, Sendable {
  var count = 0
  var child = Level1()
  struct Level1: Equatable, Sendable {
    var child = Level2()
  }
  struct Level2: Equatable, Sendable {
    var child = Leaf()
  }
  struct Leaf: Equatable, Sendable {
    var count = 0
  }
}

enum BenchAction: Sendable {
  case increment
  case ping
  case pong
  case runPing
  case readDependency
  case readDependencyTenTimes
  case child(Level1Action)

  enum Level1Action: Sendable {
    case child(Level2Action)
    static let childCase = CasePath(Level1Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  enum Level2Action: Sendable {
    case child(LeafAction)
    static let childCase = CasePath(Level2Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  enum LeafAction: Sendable { case increment }

  static let childCase = CasePath(BenchAction.child) { if case let .child(action) = $0 { action } else { nil } }
}

/// The raw baseline: the same mutation as the store's reducer, in an `@inline(never)` function.
@inline(never)
func rawReduce(_ state: inout BenchState, _ action: BenchAction) {
  if case .increment = action { state.count &+= 1 }
}

struct BenchValueKey: DependencyKey {
  static let liveValue = 1
  static let testValue = 1
}

extension DependencyValues {
  var benchValue: Int {
    get { self[BenchValueKey.self] }
    set { self[BenchValueKey.self] = newValue }
  }
}

struct BenchFeature: Reducer {
  @Dependency(\.benchValue) var benchValue

  func reduce(into state: inout BenchState, action: BenchAction) -> Effect<BenchAction> {
    switch action {
    case .increment, .pong:
      state.count &+= 1
      return .none
    case .ping:
      return .send(.pong)
    case .runPing:
      return .run { send in send(.pong) }
    case .readDependency:
      state.count &+= benchValue
      return .none
    case .readDependencyTenTimes:
      for _ in 0..<10 { state.count &+= benchValue }
      return .none
    case .child:
      return .none
    }
  }
}

struct LeafFeature: Reducer {
  func reduce(into state: inout BenchState.Leaf, action: BenchAction.LeafAction) -> Effect<BenchAction.LeafAction> {
    state.count &+= 1
    return .none
  }
}

struct Level2Feature: Reducer {
  var body: some Reducer<BenchState.Level2, BenchAction.Level2Action> {
    Scope(state: \.child, action: BenchAction.Level2Action.childCase) {
      LeafFeature()
    }
  }
}

struct Level1Feature: Reducer {
  var body: some Reducer<BenchState.Level1, BenchAction.Level1Action> {
    Scope(state: \.child, action: BenchAction.Level1Action.childCase) {
      Level2Feature()
    }
  }
}

/// A child presented with `ifLet` (a struct state, not ephemeral), its action three levels deep.
struct IfLetRootFeature: Reducer {
  struct State: Sendable {
    var child: BenchState.Level1? = BenchState.Level1()
  }

  var body: some Reducer<State, BenchAction> {
    Reduce { _, _ in .none }
      .ifLet(\.child, action: BenchAction.childCase) {
        Level1Feature()
      }
  }
}

struct ScopedRootFeature: Reducer {
  var body: some Reducer<BenchState, BenchAction> {
    Scope(state: \.child, action: BenchAction.childCase) {
      Level1Feature()
    }
    BenchFeature()
  }
}

/// A child presented through a `PresentationState` (a sheet's destination), its action three levels deep.
struct PresentationRootFeature: Reducer {
  struct State: Sendable {
    @PresentationState var child: BenchState.Level1? = BenchState.Level1()
  }
  enum Action: Sendable {
    case child(PresentationAction<BenchAction.Level1Action>)
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .ifLet(\.$child, action: Action.childCase) {
        Level1Feature()
      }
  }
}

/// One row of a hundred, reached with `forEach`, its action three levels deep.
struct ForEachRootFeature: Reducer {
  struct Row: Identifiable, Sendable {
    let id: Int
    var child = BenchState.Level1()
  }
  struct State: Sendable {
    var rows = IdentifiedArrayOf<Row>(uniqueElements: (0..<100).map { Row(id: $0) })
  }
  enum Action: Sendable {
    case row(id: Int, action: BenchAction.Level1Action)
    static let rowCase = CasePath(Action.row) { if case let .row(id, action) = $0 { (id, action) } else { nil } }
  }
  struct RowFeature: Reducer {
    var body: some Reducer<Row, BenchAction.Level1Action> {
      Scope(state: \.child, action: CasePath<BenchAction.Level1Action, BenchAction.Level1Action>({ $0 }) { $0 }) {
        Level1Feature()
      }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: Action.rowCase) {
        RowFeature()
      }
  }
}

/// The element on top of a navigation stack (`forEach` over `StackState`), its action three levels deep.
struct StackRootFeature: Reducer {
  struct State: Sendable {
    var path: StackState<BenchState.Level1> = {
      var path = StackState<BenchState.Level1>()
      path.append(BenchState.Level1())
      return path
    }()
  }
  enum Action: Sendable {
    case path(StackAction<BenchState.Level1, BenchAction.Level1Action>)
    static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .forEach(\.path, action: Action.pathCase) {
        Level1Feature()
      }
  }
}

/// A child scoped to one case of an enum state with `ifCaseLet`, its action three levels deep.
struct IfCaseLetRootFeature: Reducer {
  enum State: Sendable {
    case child(BenchState.Level1)
    case other
    static let childCase = CasePath(State.child) { if case let .child(state) = $0 { state } else { nil } }
  }

  var body: some Reducer<State, BenchAction> {
    Reduce { _, _ in .none }
      .ifCaseLet(State.childCase, action: BenchAction.childCase) {
        Level1Feature()
      }
  }
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Returns `value` unchanged, hidden from the optimizer.
@inline(never)
func opaque<T>(_ value: T) -> T { value }

enum CoreBenchmarks {
  static func profile(_ name: String, iterations: Int = 50_000_000) {
    let store = Store(initialState: BenchState()) { BenchFeature() }
    let scopedStore = Store(initialState: BenchState()) { ScopedRootFeature() }
    switch name {
    case "send_effect_roundtrip": for _ in 0..<iterations { store.send(.ping) }
    case "scoped_send_3": for _ in 0..<iterations { scopedStore.send(.child(.child(.child(.increment)))) }
    case "iflet_send_3":
      let presenting = Store(initialState: IfLetRootFeature.State()) { IfLetRootFeature() }
      for _ in 0..<iterations { presenting.send(.child(.child(.child(.increment)))) }
    case "presentation_send_3":
      let presenting = Store(initialState: PresentationRootFeature.State()) { PresentationRootFeature() }
      for _ in 0..<iterations { presenting.send(.child(.presented(.child(.child(.increment))))) }
    case "foreach_send_3":
      let rows = Store(initialState: ForEachRootFeature.State()) { ForEachRootFeature() }
      for _ in 0..<iterations { rows.send(.row(id: 50, action: .child(.child(.increment)))) }
    case "stack_send_3":
      let stack = Store(initialState: StackRootFeature.State()) { StackRootFeature() }
      for _ in 0..<iterations { stack.send(.path(.element(id: 0, action: .child(.child(.increment))))) }
    case "ifcaselet_send_3":
      let cases = Store(initialState: IfCaseLetRootFeature.State.child(BenchState.Level1())) {
        IfCaseLetRootFeature()
      }
      for _ in 0..<iterations { cases.send(.child(.child(.child(.increment)))) }
    case "dependency_read": for _ in 0..<iterations { store.send(.readDependencyTenTimes) }
    case "run_effect_roundtrip", "bare_task", "effect_parts_roundtrip":
      // At most 500,000 round trips (the default count is for the synchronous cases).
      let count = min(iterations, 500_000)
      let done = DispatchSemaphore(value: 0)
      Task.detached {
        if name == "bare_task" {
          for _ in 0..<count { await Task {}.value }
        } else if name == "effect_parts_roundtrip" {
          let parts = EffectParts()
          for _ in 0..<count { await parts.roundTrip() }
        } else {
          for _ in 0..<count { await store.send(.runPing).finish() }
        }
        done.signal()
      }
      done.wait()
    default:
      if CasePathBenchmarks.profile(name, iterations: iterations) { return }
      if InstrumentationBenchmarks.profile(name, iterations: iterations) { return }
      if ManyStoresBenchmarks.profile(name, iterations: iterations) { return }
      if SharingBenchmarks.profile(name, iterations: iterations) { return }
      if ObservationBenchmarks.profile(name, iterations: iterations) { return }
      if InspectorBenchmarks.profile(name, iterations: iterations) { return }
      if ActionLogBenchmarks.profile(name, iterations: iterations) { return }
      for _ in 0..<iterations { store.send(.increment) }
    }
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    let iterations = 2_000_000
    // Called through a function value the optimizer cannot see through, like a store calls its reducer.
    let reduce = opaque(rawReduce)
    let raw = await median(rounds: rounds) {
      var state = BenchState()
      let result = measure(iterations: iterations) { reduce(&state, .increment) }
      blackHole(state)
      return result
    }
    let store = Store(initialState: BenchState()) { BenchFeature() }
    let send = await median(rounds: rounds) {
      measure(iterations: iterations) { store.send(.increment) }
    }
    let sendEffect = await median(rounds: rounds) {
      measure(iterations: iterations / 4) { store.send(.ping) }
    }
    let scopedStore = Store(initialState: BenchState()) { ScopedRootFeature() }
    let scoped = await median(rounds: rounds) {
      measure(iterations: iterations) { scopedStore.send(.child(.child(.child(.increment)))) }
    }
    let oneRead = await median(rounds: rounds) {
      measure(iterations: iterations) { store.send(.readDependency) }
    }
    let tenReads = await median(rounds: rounds) {
      measure(iterations: iterations) { store.send(.readDependencyTenTimes) }
    }
    let perRead = max(0, (tenReads - oneRead) / 9)
    let bareTask = await median(rounds: rounds) { await bareTaskRoundTrip(iterations: 20_000) }
    let runEffect = await median(rounds: rounds) { await runEffectRoundTrip(store, iterations: 20_000) }
    let effectParts = await median(rounds: rounds) { await EffectParts().roundTrips(20_000) }
    let release = await median(rounds: 3) { await testClockRelease(sleepers: 10_000) }

    return [
      BenchmarkResult(
        name: "send", nsPerOp: send, baselineName: "raw reducer", baselineNsPerOp: raw, target: "≤ 30 ns"),
      BenchmarkResult(
        name: "send_effect_roundtrip", nsPerOp: sendEffect, baselineName: "raw reducer", baselineNsPerOp: raw,
        target: "≤ 100 ns"),
      BenchmarkResult(
        name: "run_effect_roundtrip", nsPerOp: runEffect, baselineName: "bare_task", baselineNsPerOp: bareTask,
        target: "≤ 2.5× bare_task"),
      BenchmarkResult(
        name: "bare_task", nsPerOp: bareTask, baselineName: "raw reducer", baselineNsPerOp: raw, target: "reference"),
      BenchmarkResult(
        name: "effect_parts_roundtrip", nsPerOp: effectParts, baselineName: "bare_task", baselineNsPerOp: bareTask,
        target: "reference: the floor under run_effect_roundtrip"),
      BenchmarkResult(
        name: "scoped_send_3", nsPerOp: scoped, baselineName: "send", baselineNsPerOp: send, target: "≤ 1.5× send"),
      BenchmarkResult(
        name: "dependency_read", nsPerOp: perRead, baselineName: "raw reducer", baselineNsPerOp: raw, target: "≤ 20 ns"),
      BenchmarkResult(
        name: "testclock_release_10k", nsPerOp: release, baselineName: "raw reducer", baselineNsPerOp: raw,
        target: "≤ 50 ms (50,000,000 ns)"),
    ]
  }

  /// `Task {}` created and awaited: the floor for any effect that runs asynchronously.
  nonisolated static func bareTaskRoundTrip(iterations: Int) async -> Double {
    await measureAsync(iterations: iterations) { await Task {}.value }
  }

  /// An action whose `.run` effect sends an action back, awaited through the `send` handle.
  nonisolated static func runEffectRoundTrip(_ store: Store<BenchState, BenchAction>, iterations: Int) async -> Double {
    await measureAsync(iterations: iterations) { await store.send(.runPing).finish() }
  }

  /// 10,000 tasks sleeping on one TestClock with distinct deadlines, released by one `advance`: whole-release ns.
  nonisolated static func testClockRelease(sleepers: Int) async -> Double {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = LockIsolated(0)
    for index in 0..<sleepers {
      Task(executorPreference: runtime) {
        await TestRuntime.$current.withValue(runtime) {
          try? await clock.sleep(for: .milliseconds(index + 1))
          woken.withLock { $0 += 1 }
        }
      }
    }
    runtime.runUntilIdle()
    precondition(clock.sleeperCount == sleepers, "sleepers did not all register")
    let start = DispatchTime.now().uptimeNanoseconds
    await clock.advance(by: .seconds(3600))
    let end = DispatchTime.now().uptimeNanoseconds
    precondition(woken.value == sleepers, "not every sleeper woke")
    return Double(end - start)
  }
}

import Foundation
