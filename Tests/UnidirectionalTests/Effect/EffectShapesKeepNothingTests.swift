import Testing
import Unidirectional
import UnidirectionalTesting

/// A store that lives for a session keeps nothing for an effect that has finished: after each shape of effect
/// (concatenations, cancellables inside them, debounce, children removed while their effects run, dismissal) has run
/// many times, the store's effect and cancellation tables are empty.
@Suite struct EffectShapesKeepNothingTests {
  @Test(arguments: EffectShapes.Shape.allCases)
  func aShapeRunManyTimesUnderATestStoreLeavesNothing(_ shape: EffectShapes.Shape) async {
    let clock = TestClock()
    let store = TestStore(initialState: EffectShapes.State()) {
      EffectShapes()
    } withDependencies: {
      $0.clock = clock
    }
    store.exhaustivity = .off
    for _ in 0..<50 {
      await store.send(.run(shape))
      await clock.advance(by: .seconds(5))
      await store.skipReceivedActions()
    }
    await store.finish()
    #expect(store.bookkeeping == StoreBookkeeping(), "\(shape): \(store.bookkeeping)")
  }

  @Test(arguments: EffectShapes.Shape.allCases)
  func aShapeRunManyTimesInALiveStoreLeavesNothing(_ shape: EffectShapes.Shape) async {
    let store = Store(initialState: EffectShapes.State()) {
      EffectShapes()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    for _ in 0..<200 {
      await store.send(.run(shape)).finish()
    }
    #expect(store.bookkeeping == StoreBookkeeping(), "\(shape): \(store.bookkeeping)")
  }

  @Test func cancellingOneBranchOfAMergeInsideAConcatenationCancelsOnlyThatBranch() async {
    // Before: the asynchronous rest of a concatenation registered every id inside it for the whole concatenation,
    // so cancelling `B` also stopped `C`'s branch (and the ids stayed registered after it finished).
    let clock = TestClock()
    let store = TestStore(initialState: EffectShapes.State()) {
      EffectShapes()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.run(.nestedCancellables))
    await clock.advance(by: .seconds(1))
    await store.send(.cancel(.b))
    await clock.advance(by: .seconds(1))
    await store.receive(.sent("C")) { $0.sent = ["C"] }
    await store.finish()
    #expect(store.bookkeeping == StoreBookkeeping())
  }

  @Test func cancellingTheWholeConcatenationCancelsEveryBranch() async {
    let clock = TestClock()
    let store = TestStore(initialState: EffectShapes.State()) {
      EffectShapes()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.run(.nestedCancellables))
    await clock.advance(by: .seconds(1))
    await store.send(.cancel(.d))
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.bookkeeping == StoreBookkeeping())
  }

  @Test func aCancellableSecondPartAnswersToItsOwnIDOnly() async {
    let clock = TestClock()
    let store = TestStore(initialState: EffectShapes.State()) {
      EffectShapes()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.run(.concatenatedCancellable))
    await store.receive(.sent("first")) { $0.sent = ["first"] }
    await store.send(.cancel(.a))
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.bookkeeping == StoreBookkeeping())
  }
}

/// A feature that returns each shape of effect on demand.
struct EffectShapes: Reducer {
  enum Shape: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `.concatenate(.run, .run.cancellable(id: A))`
    case concatenatedCancellable
    /// `.concatenate(pause, .merge(pause.cancellable(id: B), finish.cancellable(id: C))).cancellable(id: D)`
    case nestedCancellables
    case plainRun
    case cancelInFlight
    case cancellableInMerge
    case debounce
    case cancelAfterConcatenation
    /// An `ifLet` child whose effect is still running when the child is removed.
    case childRemovedWhileRunning
    /// A `forEach` element removed while its effect runs.
    case elementRemovedWhileRunning
    /// A presented child that dismisses itself from its effect.
    case presentationDismissed

    var testDescription: String { rawValue }
  }
  enum ID: Hashable, Sendable { case a, b, c, d, inFlight, merged, debounce, concatenation }

  struct State: Equatable, Sendable {
    var sent: [String] = []
    var child: ShapeChild.State?
    var elements: IdentifiedArray<Int, ShapeChild.State> = []
    @PresentationState var presented: ShapeChild.State?
  }
  enum Action: Equatable, Sendable {
    case run(Shape)
    case cancel(ID)
    case sent(String)
    case child(ShapeChild.Action)
    case element(IdentifiedAction<Int, ShapeChild.Action>)
    case presented(PresentationAction<ShapeChild.Action>)
  }
  @Dependency(\.clock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .run(shape):
        return effect(shape, state: &state)
      case let .cancel(id):
        return .cancel(id: id)
      case let .sent(name):
        state.sent.append(name)
        return .none
      case .child(.finished):
        state.child = nil
        return .none
      case let .element(.element(id, .finished)):
        state.elements.remove(id: id)
        return .none
      case .child, .element, .presented:
        return .none
      }
    }
    .ifLet(\.child, action: Action.child) { ShapeChild() }
    .forEach(\.elements, action: Action.element) { ShapeChild() }
    .ifLet(\.$presented, action: Action.presented) { ShapeChild() }
  }

  private func effect(_ shape: Shape, state: inout State) -> Effect<Action> {
    let pause = Effect<Action>.run { _ in try await clock.sleep(for: .seconds(1)) }
    switch shape {
    case .concatenatedCancellable:
      return .concatenate(
        .run { send in send(.sent("first")) },
        .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.sent("second"))
        }
        .cancellable(id: ID.a))
    case .nestedCancellables:
      return .concatenate(
        pause,
        .merge(
          .concatenate(pause, .send(.sent("B"))).cancellable(id: ID.b),
          .concatenate(pause, .send(.sent("C"))).cancellable(id: ID.c))
      )
      .cancellable(id: ID.d)
    case .plainRun:
      return .run { send in send(.sent("plain")) }
    case .cancelInFlight:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.sent("latest"))
      }
      .cancellable(id: ID.inFlight, cancelInFlight: true)
    case .cancellableInMerge:
      return .merge(
        .run { send in send(.sent("merged")) }.cancellable(id: ID.merged),
        .run { send in send(.sent("beside")) })
    case .debounce:
      return .run { send in send(.sent("debounced")) }
        .debounce(id: ID.debounce, for: .seconds(1), clock: clock)
    case .cancelAfterConcatenation:
      return .merge(
        .concatenate(pause, .run { send in send(.sent("concatenated")) }).cancellable(id: ID.concatenation),
        .concatenate(pause, .cancel(id: ID.concatenation)))
    case .childRemovedWhileRunning:
      state.child = ShapeChild.State()
      return .merge(.send(.child(.start)), .send(.child(.remove)))
    case .elementRemovedWhileRunning:
      let id = (state.elements.ids.last ?? 0) + 1
      state.elements.append(ShapeChild.State(id: id))
      return .merge(
        .send(.element(.element(id: id, action: .start))), .send(.element(.element(id: id, action: .remove))))
    case .presentationDismissed:
      state.presented = ShapeChild.State()
      return .send(.presented(.presented(.dismissItself)))
    }
  }
}

/// A child whose effects outlive it unless cancelled.
struct ShapeChild: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id = 0
    var ticks = 0
  }
  enum Action: Equatable, Sendable { case start, tick, remove, finished, dismissItself }
  @Dependency(\.clock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        for _ in 0..<3 {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    case .remove:
      return .send(.finished)
    case .finished:
      return .none
    case .dismissItself:
      return .merge(
        .run { send in
          try await clock.sleep(for: .seconds(10))
          send(.tick)
        },
        .run { _ in
          try await clock.sleep(for: .seconds(1))
          await dismiss()
        })
    }
  }
}
