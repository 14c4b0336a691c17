import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// While a test awaits something other than the store (a signal another task sends, real time passing), effects
/// that wait on real time or on other tasks keep running, as in TCA. Before, they ran only inside `send`,
/// `receive` and clock advances: each test below waited for a signal that could never come, and failed at its
/// 10 s bound.
final class EffectsProgressWhileTheTestAwaitsTests: XCTestCase {
  /// Counts ticks on whatever clock it is given, and calls `ticked` after each.
  struct Ticker: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Equatable, Sendable { case start, tick }
    let ticks: Int
    let ticked: @Sendable (Int) -> Void
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [ticks, ticked, clock] send in
          for tick in 1...ticks {
            try await clock.sleep(for: .milliseconds(5))
            send(.tick)
            ticked(tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  func testALiveTimerTicksWhileTheTestWaitsForItAndTheTicksAreReceivedAfterwards() async {
    let signal = Signal()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker(ticks: 5) { tick in if tick == 5 { signal.fire() } }
    } withDependencies: {
      $0.continuousClock = ContinuousClock()
    }
    await store.send(.start)
    let ticked = await signal.wait()
    XCTAssertTrue(ticked, "the timer did not tick while the test waited")
    for count in 1...5 {
      await store.receive(.tick) { $0.ticks = count }
    }
  }

  /// Receives the numbers another task streams to it.
  struct Listener: Reducer {
    struct State: Equatable { var numbers: [Int] = [] }
    enum Action: Equatable, Sendable { case listen, heard(Int) }
    let numbers: AsyncStream<Int>
    let heard: @Sendable (Int) -> Void

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .listen:
        return .run { [numbers, heard] send in
          for await number in numbers {
            send(.heard(number))
            heard(number)
          }
        }
      case let .heard(number):
        state.numbers.append(number)
        return .none
      }
    }
  }

  func testAnEffectResumedByAnotherTaskRunsWhileTheTestAwaitsThatTask() async {
    let (numbers, continuation) = AsyncStream<Int>.makeStream()
    let signal = Signal()
    let store = TestStore(initialState: Listener.State()) {
      Listener(numbers: numbers) { number in if number == 3 { signal.fire() } }
    }
    await store.send(.listen)
    await Task.detached {
      for number in 1...3 { continuation.yield(number) }
    }.value
    let heard = await signal.wait()
    XCTAssertTrue(heard, "the effect did not run while the test waited")
    await store.receive(.heard(1)) { $0.numbers = [1] }
    await store.receive(.heard(2)) { $0.numbers = [1, 2] }
    await store.receive(.heard(3)) { $0.numbers = [1, 2, 3] }
    continuation.finish()
    await store.finish()
  }

  func testEffectsOnATestClockStillWaitForTheTestToAdvanceIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker(ticks: 2) { _ in }
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.start)
    // Nothing runs in the background: the effect waits for the clock, which only the test moves.
    XCTAssertEqual(store.state.ticks, 0)
    await clock.advance(by: .milliseconds(5))
    await store.receive(.tick) { $0.ticks = 1 }
    await clock.advance(by: .milliseconds(5))
    await store.receive(.tick) { $0.ticks = 2 }
  }
}

/// A one-shot signal from an effect to the test, with a 10 s bound so a signal that never comes fails the test
/// instead of hanging it. The bound never paces a passing test.
private final class Signal: Sendable {
  private let stream = AsyncStream<Bool>.makeStream()

  func fire() { stream.continuation.yield(true) }

  func wait() async -> Bool {
    let timeout = Task { [stream] in
      try? await Task.sleep(for: .seconds(10))
      stream.continuation.yield(false)
    }
    defer { timeout.cancel() }
    for await fired in stream.stream { return fired }
    return false
  }
}
