import Foundation
import Unidirectional
import XCTest

private struct Tally: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var doubled: [String] = []
  }
  enum Action: Equatable, Sendable {
    case add(Int)
    case addTwiceBack(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(amount):
      state.count += amount
      return .none
    case let .addTwiceBack(amount):
      state.doubled.append("\(amount) twice")
      return .merge(.send(.add(amount)), .send(.add(amount)))
    }
  }
}

/// An instrument that collects steps through a ``StepBuffer`` and counts the `didReduce` calls it gets.
private final class StepWatcher: StoreInstrument, @unchecked Sendable {
  let buffer: StepBuffer<Tally.State, Tally.Action>
  let didReduceCalls = LockIsolated(0)
  let effectSteps = LockIsolated<[UInt64]>([])

  init(capacity: Int) {
    buffer = StepBuffer(capacity: capacity)
  }

  var stepBuffer: StepBuffer<Tally.State, Tally.Action>? { buffer }

  func didReduce(_ action: Tally.Action, _ reduction: Reduction, state: ReducedState<Tally.State>) {
    didReduceCalls.withLock { $0 += 1 }
    buffer.append(action, reduction: reduction, state: state)
  }

  func effectDidChange(_ event: EffectEvent) {
    let step = buffer.lastSequence
    effectSteps.withLock { $0.append(step) }
  }

  /// What one take returned, as plain values.
  func take() -> (steps: [(UInt64, ActionOrigin, Tally.Action, Int)], doubled: [[String]], dropped: Int) {
    buffer.take { steps in
      (
        steps.map { ($0.sequence, $0.origin, $0.action, $0.state.count) }, steps.map(\.state.doubled),
        steps.dropped
      )
    }
  }
}

/// Sees every reduction through `didReduce`.
private final class Counter: StoreInstrument, @unchecked Sendable {
  let sequences = LockIsolated<[UInt64]>([])
  func didReduce(_ action: Tally.Action, _ reduction: Reduction, state: ReducedState<Tally.State>) {
    sequences.withLock { $0.append(reduction.sequence) }
  }
}

final class StepBufferTests: XCTestCase {
  func testTheStoreCopiesEveryStepWithoutCallingTheObserver() {
    let watcher = StepWatcher(capacity: 16)
    let store = Store(initialState: Tally.State(), instruments: [watcher]) { Tally() }
    store.send(.add(1))
    store.send(.addTwiceBack(10))

    let taken = watcher.take()
    XCTAssertEqual(taken.steps.map(\.0), [1, 2, 3, 4])
    XCTAssertEqual(taken.steps.map(\.1), [.sent, .sent, .received, .received])
    XCTAssertEqual(taken.steps.map(\.2), [.add(1), .addTwiceBack(10), .add(10), .add(10)])
    XCTAssertEqual(taken.steps.map(\.3), [1, 1, 11, 21], "each step holds the state its action left")
    XCTAssertEqual(taken.doubled, [[], ["10 twice"], ["10 twice"], ["10 twice"]])
    XCTAssertEqual(taken.dropped, 0)
    XCTAssertEqual(watcher.didReduceCalls.value, 0, "a sole instrument with a step buffer is not called per action")
    XCTAssertEqual(store.state.count, 21)

    XCTAssertTrue(watcher.take().steps.isEmpty, "a take empties what it took")
    store.send(.add(5))
    XCTAssertEqual(watcher.take().steps.map(\.0), [5], "numbering goes on across takes")
  }

  func testAFullBufferDropsAndCountsWithoutWaiting() {
    let watcher = StepWatcher(capacity: 3)
    let store = Store(initialState: Tally.State(), instruments: [watcher]) { Tally() }
    for amount in 1...5 { store.send(.add(amount)) }
    XCTAssertEqual(watcher.buffer.lastSequence, 5, "the last sequence counts dropped steps too")

    let full = watcher.take()
    XCTAssertEqual(full.steps.map(\.0), [1, 2, 3])
    XCTAssertEqual(full.dropped, 2)

    store.send(.add(6))
    let next = watcher.take()
    XCTAssertEqual(next.steps.map(\.0), [6], "after a take the store copies again, numbered as the store counts")
    XCTAssertEqual(next.steps.map(\.3), [21])
    XCTAssertEqual(next.dropped, 0)
  }

  func testWithOtherObserversTheObserverForwardsToItsBuffer() {
    let watcher = StepWatcher(capacity: 16)
    let counter = Counter()
    let store = Store(initialState: Tally.State(), instruments: [counter, watcher]) { Tally() }
    store.send(.addTwiceBack(2))

    XCTAssertEqual(counter.sequences.value, [1, 2, 3])
    XCTAssertEqual(watcher.didReduceCalls.value, 3)
    XCTAssertEqual(watcher.take().steps.map(\.3), [0, 2, 4])
  }

  func testStepsOutliveTheStore() {
    let watcher = StepWatcher(capacity: 16)
    do {
      let store = Store(initialState: Tally.State(), instruments: [watcher]) { Tally() }
      store.send(.add(7))
    }
    let taken = watcher.take()
    XCTAssertEqual(taken.steps.map(\.2), [.add(7)])
    XCTAssertEqual(taken.steps.map(\.3), [7])
  }

  func testTakingWhileAnotherThreadSendsLosesAndRepeatsNothing() {
    let watcher = StepWatcher(capacity: 64)
    let store = Store(initialState: Tally.State(), instruments: [watcher]) { Tally() }
    let sends = 20_000
    let sender = Thread { for _ in 0..<sends { store.send(.add(1)) } }
    sender.start()

    var sequences: [UInt64] = []
    var dropped = 0
    var lastCount = 0
    // Bounded: once the sender has finished, one more take drains the rest.
    for _ in 0..<10_000_000 {
      let senderFinished = sender.isFinished
      let taken = watcher.take()
      for step in taken.steps {
        XCTAssertGreaterThan(step.3, lastCount, "states come in the order the store left them")
        XCTAssertEqual(Int(step.0), step.3, "a step's number is its place, even after drops")
        lastCount = step.3
      }
      sequences += taken.steps.map(\.0)
      dropped += taken.dropped
      if senderFinished { break }
    }
    XCTAssertTrue(sender.isFinished)
    XCTAssertEqual(sequences, sequences.sorted(), "steps arrive in order")
    XCTAssertEqual(Set(sequences).count, sequences.count, "no step twice")
    XCTAssertEqual(sequences.count + dropped, sends, "every step is either taken or counted as dropped")
  }
}
