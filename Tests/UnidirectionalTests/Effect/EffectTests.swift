@testable import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Effects: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }

  enum Action: Equatable, Sendable {
    case merged, concatenated, nested, mapped, failing, failingHandled
    case note(String)
    case child(ChildAction)
    case handled(String)
  }

  enum ChildAction: Equatable, Sendable { case done(Int) }

  struct Failure: Error, CustomStringConvertible {
    var description: String { "disk is full" }
  }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .merged:
      return .merge(.send(.note("a")), .run { send in send(.note("b")) }, .send(.note("c")))
    case .concatenated:
      return .concatenate(
        .run { send in
          try await clock.sleep(for: .seconds(2))
          send(.note("slow first"))
        },
        .send(.note("then immediate")),
        .run { send in send(.note("fast last")) }
      )
    case .nested:
      return .send(.note("outer"))
    case .mapped:
      return Effect<ChildAction>.run { send in send(.done(7)) }.map(Action.child)
    case .failing:
      return .run { _ in throw Failure() }
    case .failingHandled:
      return .run { _ in
        throw Failure()
      } catch: { error, send in
        send(.handled("\(error)"))
      }
    case let .note(text):
      state.log.append(text)
      return text == "outer" ? .send(.note("inner")) : .none
    case let .child(.done(value)):
      state.log.append("child \(value)")
      return .none
    case let .handled(text):
      state.log.append("handled: \(text)")
      return .none
    }
  }
}

final class EffectTests: XCTestCase {
  func testMergeDeliversImmediateActionsFirstThenAsynchronousOnes() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await store.send(.merged)
    await store.receive(.note("a")) { $0.log = ["a"] }
    await store.receive(.note("c")) { $0.log = ["a", "c"] }
    await store.receive(.note("b")) { $0.log = ["a", "c", "b"] }
  }

  func testConcatenateWaitsForEachEffectBeforeStartingTheNext() async {
    let clock = TestClock()
    let store = TestStore(initialState: Effects.State()) {
      Effects()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.concatenated)
    await clock.advance(by: .seconds(1))
    await clock.advance(by: .seconds(1))
    await store.receive(.note("slow first")) { $0.log = ["slow first"] }
    await store.receive(.note("then immediate")) { $0.log = ["slow first", "then immediate"] }
    await store.receive(.note("fast last")) { $0.log = ["slow first", "then immediate", "fast last"] }
  }

  func testActionsSentByReceivedActionsAreProcessedDepthFirst() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await store.send(.nested)
    await store.receive(.note("outer")) { $0.log = ["outer"] }
    await store.receive(.note("inner")) { $0.log = ["outer", "inner"] }
  }

  func testMapEmbedsTheActionsOfAnEffect() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await store.send(.mapped)
    await store.receive(.child(.done(7))) { $0.log = ["child 7"] }
  }

  func testAnUnhandledErrorIsReportedWithTheActionThatStartedTheEffect() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Effects.State(), reducer: { Effects() }, reporter: failures.reporter)
    await store.send(.failing)
    await store.finish()
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].hasPrefix(
        "An effect returned for the action Effects.Action.failing threw an unhandled error: disk is full."),
      failures.messages[0])
  }

  func testACatchHandlerReceivesTheErrorAndCanSend() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await store.send(.failingHandled)
    await store.receive(.handled("disk is full")) { $0.log = ["handled: disk is full"] }
  }

  func testMergeAndConcatenateDropNoneEffects() {
    XCTAssertTrue(Effect<Int>.merge(.none, .none).isNone)
    XCTAssertTrue(Effect<Int>.concatenate([]).isNone)
    XCTAssertFalse(Effect<Int>.merge(.none, .send(1)).isNone)
    XCTAssertTrue(Effect<Int>.none.merge(with: .none).isNone)
  }
}

final class CancelIDTests: XCTestCase {
  private struct First: Hashable, Sendable {}
  private struct Second: Hashable, Sendable {}

  func testIDsOfDifferentTypesAreUnequalAndHashApart() {
    XCTAssertNotEqual(CancelID(First()), CancelID(Second()))
    XCTAssertNotEqual(CancelID(First()).hashValue, CancelID(Second()).hashValue)
    XCTAssertEqual(CancelID(First()), CancelID(First()))
    XCTAssertEqual(CancelID(First()).hashValue, CancelID(First()).hashValue)
  }
}
