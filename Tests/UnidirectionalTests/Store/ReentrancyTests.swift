import Foundation
#if canImport(Observation)
  import Observation
#endif
import Unidirectional
import UnidirectionalTesting
import XCTest

/// A `send` made on the thread that is reducing — from a reducer, a dependency's callback, a scoped child, an
/// observer — is queued and reduced right after the current action, as TCA buffers it. It never deadlocks.
final class ReentrancyTests: XCTestCase {
  func testASendFromInsideAReducerIsReducedRightAfterTheCurrentAction() async throws {
    let relay = Relay<Log.Action>()
    let store = Store(initialState: Log.State()) { Log(relay: relay) }
    relay.target = { store.send($0) }

    try withinDeadline { store.send(.start) }

    // TCA's order: the re-entrant action comes before `.start`'s own `.send(.followUp)`.
    XCTAssertEqual(store.log, ["start", "reentered", "followUp"])
  }

  func testADependencyThatCallsBackSynchronouslyIntoTheStoreDoesNotDeadlock() async throws {
    let subject = Subject<Int>()
    let store = Store(initialState: Log.State()) {
      Log(relay: Relay())
    } withDependencies: {
      $0.subject = subject
    }
    subject.subscribe { value in store.send(.received(value)) }

    // `.publish(3)`'s reducer calls `subject.send`, whose subscriber sends back into the store inline.
    try withinDeadline { store.send(.publish(3)) }

    XCTAssertEqual(store.log, ["publish(3)", "received(3)"])
  }

  func testAScopedChildsReducerSendingIntoItsParentDoesNotDeadlock() async throws {
    let relay = Relay<Log.Action>()
    let parent = Store(initialState: Parent.State()) { Parent(relay: relay) }
    let child = parent.scope(state: \.child, action: Parent.Action.child)
    relay.target = { parent.send(.child($0)) }

    try withinDeadline { child.send(.start) }

    XCTAssertEqual(parent.child.log, ["start", "reentered", "followUp"])
    XCTAssertEqual(parent.childActions, 3)
  }

  func testAnEffectsSendCalledByAnotherActionsReducerIsQueuedNotDeadlocked() async throws {
    // A `Send` kept by a running effect (a delegate, an observer registry) called inline by another reducer.
    let registry = SendRegistry<Log.Action>()
    let store = Store(initialState: Log.State()) {
      Log(relay: Relay())
    } withDependencies: {
      $0.sendRegistry = registry
    }
    let listening = store.send(.listen)
    try await registry.waitUntilRegistered()

    try withinDeadline { store.send(.fire) }

    XCTAssertEqual(store.log, ["listen", "fire", "ping"])
    listening.cancel()
    await listening.finish()
  }

  func testAStateObserverThatSendsIsNotADeadlock() async throws {
    #if canImport(Observation)
      let store = Store(initialState: Log.State()) { Log(relay: Relay()) }
      let observed = Collected<Int>()
      withObservationTracking {
        _ = store.log
      } onChange: {
        // Runs synchronously when the state changes.
        store.send(.noted)
        observed.append(1)
      }
      try withinDeadline { store.send(.publishNothing) }
      XCTAssertEqual(observed.all, [1])
      XCTAssertEqual(store.log, ["publishNothing", "noted"])
    #endif
  }

  func testTheHandleOfAQueuedActionResolvesOnceItIsReduced() async throws {
    let relay = Relay<Log.Action>()
    let gate = Gate()
    let store = Store(initialState: Log.State()) { Log(relay: relay, gate: gate) }
    let handle = LockIsolated<StoreTask?>(nil)
    relay.target = { action in handle.withLock { $0 = store.send(action == .reentered ? .waitForGate : action) } }

    try withinDeadline { store.send(.start) }
    let task = try XCTUnwrap(handle.withLock { $0 })
    XCTAssertTrue(task.isRunning, "the queued action's effect is running")
    gate.open()
    await task.finish()
    XCTAssertFalse(task.isRunning)
    XCTAssertEqual(store.log, ["start", "waitForGate", "followUp", "gateOpened"])
  }

  func testATestStoreReceivesAnActionSentInlineWhileReducing() async {
    let registry = SendRegistry<Log.Action>()
    let store = TestStore(initialState: Log.State()) {
      Log(relay: Relay())
    } withDependencies: {
      $0.sendRegistry = registry
    }
    let listening = await store.send(.listen) { $0.log = ["listen"] }
    await store.send(.fire) { $0.log = ["listen", "fire"] }
    await store.receive(.ping) { $0.log = ["listen", "fire", "ping"] }
    await listening.cancel()
    await store.finish()
  }

  /// Runs `body` on another thread and fails instead of hanging the suite if it does not return.
  private func withinDeadline(_ body: @escaping @Sendable () -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    Thread {
      body()
      done.signal()
    }.start()
    if done.wait(timeout: .now() + 10) == .timedOut {
      XCTFail("the send deadlocked: it had not returned after 10 s")
      throw Deadlock()
    }
  }

  private struct Deadlock: Error {}
}

/// A reducer that logs every action and can be made to send into itself while reducing.
private struct Log: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }
  enum Action: Equatable, Sendable {
    case start, reentered, followUp, publish(Int), received(Int), publishNothing, noted
    case listen, fire, ping, waitForGate, gateOpened
  }

  let relay: Relay<Action>
  var gate = Gate()
  @Dependency(\.subject) var subject
  @Dependency(\.sendRegistry) var registry

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append("\(action)")
    switch action {
    case .start:
      relay.send(.reentered)
      return .send(.followUp)
    case let .publish(value):
      subject.send(value)
      return .none
    case .listen:
      return .run { [registry] send in
        registry.register(send)
        try await Task.never()
      }
    case .fire:
      registry.fire(.ping)
      return .none
    case .waitForGate:
      return .run { [gate] send in
        await gate.wait()
        send(.gateOpened)
      }
    case .reentered, .followUp, .received, .publishNothing, .noted, .ping, .gateOpened:
      return .none
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    var child = Log.State()
    var childActions = 0
  }
  enum Action: Equatable, Sendable { case child(Log.Action) }
  static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }

  let relay: Relay<Log.Action>

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childCase) { Log(relay: relay) }
    Reduce { state, _ in
      state.childActions += 1
      return .none
    }
  }
}

/// Forwards actions to whatever the test plugs in (a store's `send`).
private final class Relay<Action>: @unchecked Sendable {
  private let storage = LockIsolated<(@Sendable (Action) -> Void)?>(nil)
  var target: (@Sendable (Action) -> Void)? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
  func send(_ action: Action) { target?(action) }
}

/// A subject whose subscribers are called inline on `send`, like Combine's `PassthroughSubject`.
final class Subject<Value: Sendable>: Sendable {
  private let subscribers = LockIsolated<[@Sendable (Value) -> Void]>([])
  func subscribe(_ subscriber: @escaping @Sendable (Value) -> Void) { subscribers.withLock { $0.append(subscriber) } }
  func send(_ value: Value) { for subscriber in subscribers.withLock({ $0 }) { subscriber(value) } }
}

/// Keeps the `Send` of a running effect so another reducer can call it inline.
final class SendRegistry<Action: Sendable>: Sendable {
  private let sends = LockIsolated<[Send<Action>]>([])
  func register(_ send: Send<Action>) { sends.withLock { $0.append(send) } }
  func fire(_ action: Action) { for send in sends.withLock({ $0 }) { send(action) } }
  func waitUntilRegistered() async throws {
    for _ in 0..<10_000 where sends.withLock({ $0.isEmpty }) { await Task.yield() }
    if sends.withLock({ $0.isEmpty }) { throw CancellationError() }
  }
}

private enum SubjectKey: DependencyKey {
  static let liveValue = Subject<Int>()
}
private enum SendRegistryKey: DependencyKey {
  static let liveValue = SendRegistry<Log.Action>()
  static let testValue = SendRegistry<Log.Action>()
}
extension DependencyValues {
  fileprivate var subject: Subject<Int> {
    get { self[SubjectKey.self] }
    set { self[SubjectKey.self] = newValue }
  }
  fileprivate var sendRegistry: SendRegistry<Log.Action> {
    get { self[SendRegistryKey.self] }
    set { self[SendRegistryKey.self] = newValue }
  }
}
