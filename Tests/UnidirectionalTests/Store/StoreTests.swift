import Foundation
import Unidirectional
import XCTest

private struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case increment
    case incrementTwiceViaSend
    case fetch
    case fetched(Int)
    case sendMany
    case wait
    case waited
  }

  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append("\(action)")
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .incrementTwiceViaSend:
      return .merge(.send(.increment), .send(.increment))
    case .fetch:
      return .run { send in send(.fetched(42)) }
    case let .fetched(value):
      state.count = value
      return .none
    case .sendMany:
      return .run { send in
        for _ in 1...3 { send(.increment) }
      }
    case .wait:
      return .run { [gate] send in
        await gate.wait()
        send(.waited)
      }
    case .waited:
      return .none
    }
  }
}

/// A latch effects can wait on; cancellation-aware so cancelled effects finish.
final class Gate: @unchecked Sendable {
  private let lock = NSLock()
  private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
  private var isOpen = false
  private(set) var cancellations = 0

  func wait() async {
    let id = UUID()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        lock.lock()
        if isOpen || Task.isCancelled {
          lock.unlock()
          continuation.resume()
          return
        }
        waiters[id] = continuation
        lock.unlock()
      }
    } onCancel: {
      lock.lock()
      cancellations += 1
      let waiter = waiters.removeValue(forKey: id)
      lock.unlock()
      waiter?.resume()
    }
  }

  func open() {
    lock.lock()
    isOpen = true
    let all = waiters.values
    waiters.removeAll()
    lock.unlock()
    for waiter in all { waiter.resume() }
  }

  var cancellationCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return cancellations
  }
}

final class StoreTests: XCTestCase {
  func testSendRunsTheReducerSynchronously() {
    let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    store.send(.increment)
    store.send(.increment)
    XCTAssertEqual(store.count, 2)
    XCTAssertEqual(store.state.log, ["increment", "increment"])
  }

  func testImmediateEffectsAreReducedBeforeSendReturns() {
    let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    store.send(.incrementTwiceViaSend)
    XCTAssertEqual(store.count, 2)
  }

  func testRunEffectFeedsActionsBackAndTheHandleWaitsForIt() async {
    let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    await store.send(.fetch).finish()
    XCTAssertEqual(store.count, 42)
    XCTAssertEqual(store.state.log, ["fetch", "fetched(42)"])
  }

  func testActionsFromOneEffectArriveInTheOrderSent() async {
    let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    await store.send(.sendMany).finish()
    XCTAssertEqual(store.state.log, ["sendMany", "increment", "increment", "increment"])
  }

  func testCancellingTheHandleCancelsTheEffectAndItSendsNothing() async {
    let gate = Gate()
    let store = Store(initialState: Counter.State()) { Counter(gate: gate) }
    let task = store.send(.wait)
    XCTAssertTrue(task.isRunning)
    task.cancel()
    await task.finish()
    XCTAssertFalse(task.isRunning)
    XCTAssertEqual(store.state.log, ["wait"], "a cancelled effect sends nothing")
  }

  func testReleasingTheStoreCancelsItsEffects() async {
    let gate = Gate()
    var store: Store<Counter.State, Counter.Action>? = Store(initialState: Counter.State()) { Counter(gate: gate) }
    let task = store?.send(.wait)
    weak let weakStore = store
    store = nil
    XCTAssertNil(weakStore, "effects don't keep the store alive")
    await task?.finish()
    XCTAssertEqual(gate.cancellationCount, 1)
  }

  func testConcurrentSendersAreSerializedAndNothingIsLost() async {
    let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<1_000 { store.send(.increment) }
        }
      }
    }
    XCTAssertEqual(store.count, 8_000)
  }

  func testStatesStreamYieldsTheCurrentStateThenTheStateAfterEachSendWithEverythingItFedBack() async {
    let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    var iterator = store.states.makeAsyncIterator()
    let initial = await iterator.next()
    XCTAssertEqual(initial?.count, 0)
    store.send(.incrementTwiceViaSend)
    // The two `.send(.increment)` effects are reduced before anyone can look: no state with count 1 is seen.
    let afterTheBatch = await iterator.next()
    XCTAssertEqual(afterTheBatch?.count, 2)
    XCTAssertEqual(afterTheBatch?.log, ["incrementTwiceViaSend", "increment", "increment"])
    store.send(.increment)
    let afterTheNextSend = await iterator.next()
    XCTAssertEqual(afterTheNextSend?.count, 3)
  }

  func testStatesStreamFinishesWhenTheStoreIsReleased() async {
    var store: Store<Counter.State, Counter.Action>? = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
    let states = store?.states
    store = nil
    var received: [Int] = []
    if let states {
      for await state in states { received.append(state.count) }
    }
    XCTAssertEqual(received, [0])
  }

  #if canImport(Observation)
    func testObservationTrackingIsNotifiedOfChanges() {
      let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
      let changed = Collected<Bool>()
      withObservationTracking {
        _ = store.count
      } onChange: {
        changed.append(true)
      }
      XCTAssertTrue(changed.all.isEmpty)
      store.send(.increment)
      XCTAssertEqual(changed.all, [true])
    }

    func testScopedStoreReadsAreObservedThroughTheRoot() {
      let store = Store(initialState: Counter.State()) { Counter(gate: Gate()) }
      let child = store.scope(state: \.count, action: { (_: Void) in Counter.Action.increment })
      let changed = Collected<Bool>()
      withObservationTracking {
        _ = child.state
      } onChange: {
        changed.append(true)
      }
      child.send(())
      XCTAssertEqual(changed.all, [true])
      XCTAssertEqual(child.state, 1)
    }
  #endif
}

import Observation
