import Foundation
import Unidirectional

/// What a store that lives for a session keeps per finished effect: each shape of effect run `count` times in one
/// live store, the resident memory read after two warm-up rounds and after the run (bytes per finished effect, goal
/// under one), and the store's tables after it (goal: empty).
///
/// `unidirectional-bench effects [--count N]` (default 1,000,000 per shape).
enum EffectMemoryBenchmark {
  static func all(count: Int) async -> [BenchmarkResult] {
    var results: [BenchmarkResult] = []
    for shape in Shape.allCases {
      results.append(await measure(shape, count: count))
    }
    return results
  }

  private static func measure(_ shape: Shape, count: Int) async -> BenchmarkResult {
    let store = Store(initialState: Shapes.State()) { Shapes() }
    let warmUp = max(count / 10, 1)
    for _ in 0..<2 {
      for _ in 0..<warmUp { await store.send(.run(shape)).finish() }
    }
    returnFreedMemory()
    let before = residentMemory() ?? 0
    for _ in 0..<count { await store.send(.run(shape)).finish() }
    returnFreedMemory()
    let after = residentMemory() ?? 0
    let left = store.bookkeeping
    return BenchmarkResult(
      name: "effect_kept_bytes_\(shape)", nsPerOp: Double(after - before) / Double(count),
      baselineName: "tables after: \(left == StoreBookkeeping() ? "empty" : left.description)",
      baselineNsPerOp: 1, target: "< 1 byte per finished effect, tables empty")
  }

  enum Shape: String, CaseIterable, Sendable {
    case concatenatedCancellable, nestedCancellables, plainRun, cancelInFlight, cancellableInMerge, debounce
    case cancelAfterConcatenation, childRemovedWhileRunning, elementRemovedWhileRunning, presentationDismissed
  }

  /// Returns each shape of effect on demand; a pause is a `Task.yield()`, so every effect really suspends.
  struct Shapes: Reducer {
    struct State: Sendable {
      var child: Child.State?
      var elements: IdentifiedArray<Int, Child.State> = []
      @PresentationState var presented: Child.State?
    }
    enum Action: Sendable {
      case run(Shape), done
      case child(Child.Action), element(IdentifiedAction<Int, Child.Action>)
      case presented(PresentationAction<Child.Action>)
    }
    enum ID: Hashable, Sendable { case a, b, c, d, inFlight, merged, debounce, concatenation }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case let .run(shape): return effect(shape, state: &state)
        case .child(.remove): state.child = nil
        case let .element(.element(id, .remove)): state.elements.remove(id: id)
        case .done, .child, .element, .presented: break
        }
        return .none
      }
      .ifLet(\.child, action: Action.child) { Child() }
      .forEach(\.elements, action: Action.element) { Child() }
      .ifLet(\.$presented, action: Action.presented) { Child() }
    }

    private func effect(_ shape: Shape, state: inout State) -> Effect<Action> {
      let pause = Effect<Action>.run { _ in await Task.yield() }
      let done = Effect<Action>.run { send in
        await Task.yield()
        send(.done)
      }
      switch shape {
      case .concatenatedCancellable: return .concatenate(done, done.cancellable(id: ID.a))
      case .nestedCancellables:
        return .concatenate(pause, .merge(pause.cancellable(id: ID.b), done.cancellable(id: ID.c))).cancellable(
          id: ID.d)
      case .plainRun: return done
      case .cancelInFlight: return done.cancellable(id: ID.inFlight, cancelInFlight: true)
      case .cancellableInMerge: return .merge(done.cancellable(id: ID.merged), done)
      case .debounce: return done.debounce(id: ID.debounce, for: .zero, clock: ImmediateClock())
      case .cancelAfterConcatenation:
        return .merge(
          .concatenate(pause, done).cancellable(id: ID.concatenation),
          .concatenate(pause, .cancel(id: ID.concatenation)))
      case .childRemovedWhileRunning:
        state.child = Child.State()
        return .concatenate(.send(.child(.listen)), .send(.child(.remove)))
      case .elementRemovedWhileRunning:
        let id = (state.elements.ids.last ?? 0) &+ 1
        state.elements.append(Child.State(id: id))
        return .concatenate(
          .send(.element(.element(id: id, action: .listen))), .send(.element(.element(id: id, action: .remove))))
      case .presentationDismissed:
        state.presented = Child.State()
        return .send(.presented(.presented(.dismissItself)))
      }
    }
  }

  /// A child whose one effect lives until it is cancelled.
  struct Child: Reducer {
    struct State: Identifiable, Sendable { var id = 0 }
    enum Action: Sendable { case listen, remove, dismissItself }
    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .listen: return .run { _ in try await Task.never() }
      case .remove: return .none
      case .dismissItself:
        return .merge(.run { _ in try await Task.never() }, .run { _ in await dismiss() })
      }
    }
  }
}
