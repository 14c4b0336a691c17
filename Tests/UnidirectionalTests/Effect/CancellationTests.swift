import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Download: Reducer {
  struct State: Equatable, Sendable { var finished: [Int] = [] }
  enum Action: Equatable, Sendable {
    case start(Int), startReplacing(Int), stop, finished(Int)
  }
  enum CancelID { case download }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(id):
      return work(id).cancellable(id: CancelID.download)
    case let .startReplacing(id):
      return work(id).cancellable(id: CancelID.download, cancelInFlight: true)
    case .stop:
      return .cancel(id: CancelID.download)
    case let .finished(id):
      state.finished.append(id)
      return .none
    }
  }

  private func work(_ id: Int) -> Effect<Action> {
    .run { send in
      try await clock.sleep(for: .seconds(1))
      send(.finished(id))
    }
  }
}

final class CancellationTests: XCTestCase {
  func testCancelByIDCancelsEveryEffectWithThatID() async {
    let clock = TestClock()
    let store = TestStore(initialState: Download.State()) {
      Download()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.start(1))
    await store.send(.start(2))
    await store.send(.stop)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  func testCancelInFlightReplacesTheRunningEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Download.State()) {
      Download()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startReplacing(1))
    await clock.advance(by: .milliseconds(500))
    await store.send(.startReplacing(2))
    await clock.advance(by: .seconds(1))
    await store.receive(.finished(2)) { $0.finished = [2] }
    await store.finish()
  }

  func testWithoutCancelInFlightBothRun() async {
    let clock = TestClock()
    let store = TestStore(initialState: Download.State()) {
      Download()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.start(1))
    await store.send(.start(2))
    await clock.advance(by: .seconds(1))
    await store.receive(.finished(1)) { $0.finished = [1] }
    await store.receive(.finished(2)) { $0.finished = [1, 2] }
  }

  func testACancelledEffectSendsNothingEvenIfItIgnoresCancellation() async {
    let gate = Gate()
    struct Stubborn: Reducer {
      let gate: Gate
      func reduce(into state: inout Int, action: Bool) -> Effect<Bool> {
        if action { state += 1; return .none }
        return .run { send in
          await gate.wait()  // returns on cancellation, but the effect carries on and sends anyway
          send(true)
        }
        .cancellable(id: "stubborn")
      }
    }
    let store = Store(initialState: 0) { Stubborn(gate: gate) }
    let task = store.send(false)
    store.send(true)
    XCTAssertEqual(store.withState { $0 }, 1)
    task.cancel()
    await task.finish()
    XCTAssertEqual(store.withState { $0 }, 1, "the cancelled effect's action was dropped")
  }
}

final class CancellingTheCauseTests: XCTestCase {
  /// As in TCA: an action an effect sent is reduced in full — the `.send` effects it returns included — even when
  /// its reducer cancels that very effect (a child telling its parent to dismiss it, say).
  func testAnActionThatCancelsTheEffectWhichSentItStillGetsItsSendEffectsReduced() async {
    enum Action: Equatable, Sendable { case start, stopAndReport, reported }
    enum CancelID { case worker }
    let store = TestStore(initialState: [Action]()) {
      Reduce<[Action], Action> { state, action in
        state.append(action)
        switch action {
        case .start:
          return .run { send in
            send(.stopAndReport)
            try await Task.never()
          }
          .cancellable(id: CancelID.worker)
        case .stopAndReport:
          return .merge(.cancel(id: CancelID.worker), .send(.reported))
        case .reported:
          return .none
        }
      }
    }
    await store.send(.start) { $0 = [.start] }
    await store.receive(.stopAndReport) { $0 = [.start, .stopAndReport] }
    await store.receive(.reported) { $0 = [.start, .stopAndReport, .reported] }
  }
}

final class CancellingPendingEffectsTests: XCTestCase {
  /// As in TCA, which starts every effect of an action before reducing the actions it sends: an effect returned
  /// next to a `.send` is cancelled by what that sent action cancels, although it starts after it here.
  func testAnEffectReturnedNextToASendIsCancelledByWhatTheSentActionCancels() async {
    enum Action: Equatable, Sendable { case start, stop, tick }
    enum CancelID { case timer }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .start:
          return .merge(
            .send(.stop),
            .run { send in
              try await clock.sleep(for: .seconds(1))
              send(.tick)
            }
            .cancellable(id: CancelID.timer))
        case .stop:
          return .cancel(id: CancelID.timer)
        case .tick:
          state += 1
          return .none
        }
      }
    }
    await store.send(.start)
    await store.receive(.stop)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  /// …while an action's own `.cancel` reaches only what started before it: cancel-then-restart restarts.
  func testCancellingThenStartingInOneMergeRestarts() async {
    enum Action: Equatable, Sendable { case restart, tick }
    enum CancelID { case timer }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { state, action in
        switch action {
        case .restart:
          return .merge(
            .cancel(id: CancelID.timer),
            .run { send in
              try await clock.sleep(for: .seconds(1))
              send(.tick)
            }
            .cancellable(id: CancelID.timer))
        case .tick:
          state += 1
          return .none
        }
      }
    }
    await store.send(.restart)
    await store.send(.restart)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0 = 1 }
    await store.finish()
  }
}
