import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting
import XCTest

// Test suites written the way TCA users write theirs: isolated to the main actor, in Swift 6 language mode with
// complete checking, with closures that capture main-actor state. Before `TestStore`'s async methods ran on their
// caller's actor (`nonisolated(nonsending)`), every `send`/`receive` with a closure here was a compile error:
// "sending value of non-Sendable type '(inout FactCounter.State) throws -> ()' risks causing data races".

private struct FactCounter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }
  enum Action: Equatable, Sendable {
    case increment
    case factButtonTapped
    case factLoaded(String)
  }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .factButtonTapped:
      return .run { [count = state.count] send in
        try await clock.sleep(for: .seconds(1))
        send(.factLoaded("\(count) is a good number"))
      }
    case let .factLoaded(fact):
      state.fact = fact
      return .none
    }
  }
}

@MainActor
@Suite struct MainActorCounterTests {
  /// Main-actor state a closure captures: not Sendable, never leaves the main actor.
  final class Tally {
    var asserted = 0
  }

  @Test func increments() async {
    let store = TestStore(initialState: FactCounter.State()) { FactCounter() }
    await store.send(.increment) { $0.count = 1 }
  }

  @Test func aFactArrivesAfterASecondOfTestClockTime() async {
    let clock = TestClock()
    let tally = Tally()
    let store = TestStore(initialState: FactCounter.State()) {
      FactCounter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.increment) {
      tally.asserted += 1
      $0.count = 1
    }
    await store.send(.factButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.factLoaded("1 is a good number")) {
      tally.asserted += 1
      $0.fact = "1 is a good number"
    }
    await store.finish()
    #expect(tally.asserted == 2)
  }

  @Test func scopedSettingsAndSkippingRunOnTheMainActorToo() async {
    let clock = TestClock()
    let store = TestStore(initialState: FactCounter.State()) {
      FactCounter()
    } withDependencies: {
      $0.clock = clock
    }
    let tally = Tally()
    await store.withExhaustivity(.off) {
      await store.send(.factButtonTapped)
      await clock.advance(by: .seconds(1))
      await store.skipReceivedActions()
      tally.asserted += 1
    }
    await store.withDependencies {
      $0.clock = ImmediateClock()
    } operation: {
      await store.send(.factButtonTapped).finish()
      await store.receive(.factLoaded("0 is a good number"))
      tally.asserted += 1
    }
    store.assert { $0.fact = "0 is a good number" }
    #expect(tally.asserted == 2)
  }
}

@MainActor
final class MainActorXCTestCaseTests: XCTestCase {
  var sends = 0

  func testIncrementsOnTheMainActor() async {
    let store = TestStore(initialState: FactCounter.State()) { FactCounter() }
    await store.send(.increment) {
      self.sends += 1
      $0.count = 1
    }
    let task = await store.send(.increment) { $0.count = 2 }
    await task.finish()
    XCTAssertEqual(sends, 1)
  }
}

/// A suite isolated to its own actor, for hosts whose tests run on one.
actor ActorIsolatedTestStoreSuite {
  private var observed: [Int] = []

  func run() async -> [Int] {
    let store = TestStore(initialState: FactCounter.State()) { FactCounter() }
    await store.send(.increment) { [self] in
      $0.count = 1
      self.assumeIsolated { $0.observed.append(1) }
    }
    return observed
  }
}

@Suite struct NonisolatedAndActorTestStoreTests {
  @Test func aNonisolatedSuiteSends() async {
    let store = TestStore(initialState: FactCounter.State()) { FactCounter() }
    await store.send(.increment) { $0.count = 1 }
  }

  @Test func anActorIsolatedSuiteSends() async {
    #expect(await ActorIsolatedTestStoreSuite().run() == [1])
  }
}
