import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// Behaviours where TCA defines the semantics and a port's tests rely on them (shapes from TCA's own tests).
final class TCASemanticsTests: XCTestCase {
  // MARK: Cancelling a send cancels the tree it caused

  func testCancellingASendCancelsEveryEffectItsActionsCaused() async {
    enum Action: Equatable, Sendable { case task, response, response1, response2 }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .task: return .run { send in send(.response) }
        case .response: return .merge(.run { _ in try await never() }, .run { send in send(.response1) })
        case .response1: return .merge(.run { _ in try await never() }, .run { send in send(.response2) })
        case .response2: return .run { _ in try await never() }
        }
      }
    }
    let task = await store.send(.task)
    await store.receive(.response)
    await store.receive(.response1)
    await store.receive(.response2)
    // The three never-ending effects descend from `.task`: cancelling its handle ends them all.
    await task.cancel()
    XCTAssertFalse(task.isRunning)
    await store.finish()
  }

  func testCancellingASendLeavesUnrelatedParentAndSiblingEffectsRunning() async {
    let gate = Gate()
    let store = Store(initialState: Siblings.State()) { Siblings(gate: gate) }
    let left = store.send(.left(.start))
    let right = store.send(.right(.start))
    let parent = store.send(.parentWait)
    await store.waitUntil { $0.left.started == 2 && $0.right.started == 2 }

    left.cancel()
    await left.finish()

    XCTAssertFalse(left.isRunning)
    XCTAssertTrue(right.isRunning, "the sibling child's effects are untouched")
    XCTAssertTrue(parent.isRunning, "the parent's effect is untouched")
    XCTAssertEqual(gate.cancellations, 2, "both of the left child's waits, the second started by a fed-back action")
    right.cancel()
    parent.cancel()
    await right.finish()
    await parent.finish()
  }

  // MARK: Ordering of synchronous effects

  func testActionsSentSynchronouslyByAnEffectAreReceivedDepthFirst() async {
    enum Action: Equatable, Sendable { case a, b1, b2, b3, c1, c2, c3, d }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .a:
          return .merge(
            .run { send in
              try await clock.sleep(for: .seconds(1))
              send(.b1)
              send(.c1)
            },
            .run { _ in try await never() }.cancellable(id: 1))
        case .b1: return .concatenate(.send(.b2), .send(.b3))
        case .c1: return .concatenate(.send(.c2), .send(.c3))
        case .b2, .b3, .c2, .c3: return .none
        case .d: return .cancel(id: 1)
        }
      }
    }
    await store.send(.a)
    await clock.advance(by: .seconds(1))
    await store.receive(.b1)
    await store.receive(.b2)
    await store.receive(.b3)
    await store.receive(.c1)
    await store.receive(.c2)
    await store.receive(.c3)
    await store.send(.d)
  }

  func testTheLiveStoreReducesAConcatenationOfSendsBeforeTheEffectsNextAction() async {
    enum Action: Equatable, Sendable { case a, b1, b2, b3, c1 }
    struct Logger: Reducer {
      func reduce(into state: inout [Action], action: Action) -> Effect<Action> {
        state.append(action)
        switch action {
        case .a:
          return .run { send in
            send(.b1)
            send(.c1)
          }
        case .b1: return .concatenate(.send(.b2), .merge(.send(.b3)))
        case .b2, .b3, .c1: return .none
        }
      }
    }
    for _ in 0..<50 {
      let store = Store(initialState: [Action]()) { Logger() }
      await store.send(.a).finish()
      XCTAssertEqual(store.state, [.a, .b1, .b2, .b3, .c1])
    }
  }

  // MARK: Assertion closures

  func testInsideAnAssertionClosureTheStoreStateIsTheStateBeforeTheAction() async {
    enum Action: Equatable, Sendable { case a, b, c, d }
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { count, action in
        count += 1
        return action == .a ? .merge(.send(.b), .send(.c), .send(.d)) : .none
      }
    }
    await store.send(.a) {
      $0 = 1
      XCTAssertEqual(store.state, 0)
    }
    XCTAssertEqual(store.state, 1)
    await store.receive(.b) {
      $0 = 2
      XCTAssertEqual(store.state, 1)
    }
    await store.receive(.c) {
      $0 = 3
      XCTAssertEqual(store.state, 2)
    }
    await store.receive(.d) {
      $0 = 4
      XCTAssertEqual(store.state, 3)
    }
    XCTAssertEqual(store.state, 4)
  }

  func testInitialStateAndAssertionClosuresSeeTheStoresDependencies() async {
    let fixed = Date(timeIntervalSince1970: 1_234_567_890)
    let store = TestStore(initialState: Stamped.State()) {
      Stamped()
    } withDependencies: {
      $0.date = .constant(fixed)
    }
    XCTAssertEqual(store.state.date, fixed, "the initial state was made with the overridden date")
    await store.send(.tap) {
      @Dependency(\.date.now) var now
      $0.count = 1
      $0.date = now
    }
    await store.receive(.response(42)) {
      @Dependency(\.date.now) var now
      $0.count = 42
      $0.date = now
    }
  }

  func testALiveStoresInitialStateIsMadeWithItsDependencies() {
    let id = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!
    @Dependency(\.uuid) var uuid
    let store = Store(initialState: uuid()) {
      EmptyReducer<UUID, Never>()
    } withDependencies: {
      $0.uuid = .constant(id)
    }
    XCTAssertEqual(store.state, id)
  }

  func testADependencyChangedHalfwayAppliesToTheNextActions() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Void> { state, _ in
        @Dependency(\.date.now) var now
        state = Int(now.timeIntervalSince1970)
        return .none
      }
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
    }
    await store.send(()) { $0 = 1_234_567_890 }
    store.dependencies.date.now = Date(timeIntervalSince1970: 987_654_321)
    await store.send(()) { $0 = 987_654_321 }
  }

  // MARK: Non-exhaustive assertions

  func testAssertChecksTheCurrentStateWithoutSending() {
    let failures = TestFailures()
    let store = TestStore(initialState: 0, reducer: { EmptyReducer<Int, Never>() }, reporter: failures.reporter)
    store.exhaustivity = .off
    store.assert { $0 = 0 }
    XCTAssertEqual(failures.messages, [])
    store.assert { $0 = 1 }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].hasPrefix("A state change does not match expectation"), failures.messages[0])
    XCTAssertTrue(failures.messages[0].contains("- 1\n+ 0"), failures.messages[0])
  }

  func testSkippedAssertionsAreShownAsNotesNotFailures() async {
    enum Action: Equatable, Sendable { case tap, response }
    let failures = TestFailures()
    let store = TestStore(
      initialState: 0,
      reducer: {
        Reduce<Int, Action> { state, action in
          state += 1
          return action == .tap ? .send(.response) : .none
        }
      }, reporter: failures.reporter)
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.tap)
    await store.send(.tap)
    XCTAssertEqual(failures.messages, [], "nothing fails")
    let notes = failures.skippedAssertionMessages
    XCTAssertEqual(notes.count, 4, notes.joined(separator: "\n"))
    guard notes.count == 4 else { return }
    XCTAssertTrue(notes[0].contains("A state change was not asserted"), notes[0])
    XCTAssertTrue(notes[1].contains("Must handle 1 received action before sending"), notes[1])
    XCTAssertTrue(notes[2].contains("1 received action was skipped:\n  • TCASemanticsTests.Action.response"), notes[2])
    XCTAssertTrue(notes[3].contains("A state change was not asserted"), notes[3])
  }

  // MARK: Waiting on one send

  func testATaskFinishFailsAtOnceWhenItsEffectWaitsOnATestClockAndPassesOnceAdvanced() async {
    let clock = TestClock()
    let failures = TestFailures()
    let store = TestStore(
      initialState: 0,
      reducer: {
        Reduce<Int, Bool> { state, action in
          if action { state += 1; return .none }
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            send(true)
          }
        }
      }, withDependencies: { _ in }, reporter: failures.reporter)
    let task = await store.send(false)
    await task.finish(timeout: .seconds(30))
    XCTAssertEqual(
      failures.messages,
      [
        """
        Expected the task to finish, but it is still in flight: its effects are suspended on a TestClock or waiting \
        for each other. Advance the clock first.
        """
      ])
    await clock.advance(by: .seconds(1))
    await task.finish()
    await store.receive(true) { $0 = 1 }
    XCTAssertEqual(failures.messages.count, 1)
  }

  func testATaskFinishFailsAfterItsTimeoutWhenTheEffectWaitsOnSomethingElse() async {
    let failures = TestFailures()
    let never = Gate()
    let store = TestStore(
      initialState: 0, reducer: { Reduce<Int, Void> { _, _ in .run { _ in await never.wait() } } },
      reporter: failures.reporter)
    let task = await store.send(())
    await task.finish(timeout: .milliseconds(50))
    XCTAssertEqual(
      failures.messages,
      [
        """
        Expected the task to finish, but it is still in flight: timed out after 0.05 seconds waiting for effects \
        running outside the test runtime.
        """
      ])
    await task.cancel()
    await store.finish()
  }

  func testAReceiveWaitsItsWholeTimeoutAcrossManyWaits() async {
    // Each real sleep ends one wait for work; a stale timer of an earlier wait must not end a later one early.
    for _ in 0..<5 {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { state, action in
          if action { state = 1; return .none }
          return .run { send in
            for _ in 0..<8 { try await Task.sleep(for: .milliseconds(3)) }
            send(true)
          }
        }
      }
      store.exhaustivity = .off
      store.timeout = .seconds(30)
      await store.send(false)
      await store.receive(true) { $0 = 1 }
    }
  }

  // MARK: Smaller gaps

  func testChainedDependencyOverridesFuseIntoOneLayerAndTheInnermostWins() async {
    let reducer = Stamped()
      .dependency(\.date, .constant(Date(timeIntervalSince1970: 1)))
      .dependency(\.date, .constant(Date(timeIntervalSince1970: 2)))
      .dependency(\.uuid, .incrementing)
    XCTAssertTrue(type(of: reducer) == DependencyOverrideReducer<Stamped>.self, "\(type(of: reducer))")
    let store = TestStore(initialState: Stamped.State(date: .distantPast)) { reducer }
    await store.send(.stamp) { $0.date = Date(timeIntervalSince1970: 1) }
  }
}

private struct Stamped: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var date: Date
    init() {
      @Dependency(\.date.now) var now
      self.date = now
    }
    init(date: Date) { self.date = date }
  }
  enum Action: Equatable, Sendable { case tap, response(Int), stamp }
  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state.count += 1
      return .run { send in send(.response(42)) }
    case let .response(number):
      state.count = number
      state.date = now
      return .none
    case .stamp:
      state.date = now
      return .none
    }
  }
}

/// Two children of one parent, each starting a wait whose result starts another wait.
private struct Siblings: Reducer {
  struct State: Equatable, Sendable {
    var left = Child.State()
    var right = Child.State()
  }
  enum Action: Equatable, Sendable { case left(Child.Action), right(Child.Action), parentWait }
  static let leftCase = CasePath(Action.left) { if case let .left(action) = $0 { action } else { nil } }
  static let rightCase = CasePath(Action.right) { if case let .right(action) = $0 { action } else { nil } }

  let gate: Gate

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: Self.leftCase) { Child(gate: gate) }
    Scope(state: \.right, action: Self.rightCase) { Child(gate: gate) }
    Reduce { _, action in
      guard action == .parentWait else { return .none }
      return .run { [gate] _ in await gate.wait() }
    }
  }

  struct Child: Reducer {
    struct State: Equatable, Sendable { var started = 0 }
    enum Action: Equatable, Sendable { case start, startAgain }
    let gate: Gate

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.started += 1
      switch action {
      case .start:
        return .merge(.run { send in send(.startAgain) }, .run { [gate] _ in await gate.wait() })
      case .startAgain:
        return .run { [gate] _ in await gate.wait() }
      }
    }
  }
}

extension Store where State: Sendable {
  /// Waits until the state satisfies `condition`; fails the test after 10 s instead of hanging.
  fileprivate func waitUntil(_ condition: @escaping @Sendable (State) -> Bool) async {
    let states = self.states
    let satisfied = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await state in states where condition(state) { return true }
        return false
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(10))
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    XCTAssertTrue(satisfied, "the state never satisfied the condition")
  }
}

/// A latch effects wait on, outside any test runtime; cancellation ends the wait and is counted.
private final class Gate: Sendable {
  private let storage = LockIsolated((waiters: [UUID: CheckedContinuation<Void, Never>](), cancellations: 0))

  var cancellations: Int { storage.withLock { $0.cancellations } }

  func wait() async {
    let id = UUID()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = storage.withLock { storage in
          if Task.isCancelled { return true }
          storage.waiters[id] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let waiter = storage.withLock { storage in
        storage.cancellations += 1
        return storage.waiters.removeValue(forKey: id)
      }
      waiter?.resume()
    }
  }
}

/// Suspends until cancelled.
private func never() async throws {
  try await Task.never()
}
