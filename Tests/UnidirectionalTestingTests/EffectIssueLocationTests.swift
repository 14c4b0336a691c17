import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// An issue raised inside an effect (an unimplemented dependency, an unhandled error) is reported at the `send`
/// that started the effect, where the test can act on it; before, an effect that raised it after its `send` had
/// returned (here, when the test advanced the clock) had it reported at the `TestStore(` line.
final class EffectIssueLocationTests: XCTestCase {
  struct Feature: Reducer {
    struct State: Equatable {}
    enum Action: Equatable, Sendable { case start, ignite }
    @Dependency(\.clock) var clock
    @Dependency(\.uuid) var uuid

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .none
      case .ignite:
        return .run { [clock, uuid] _ in
          try await clock.sleep(for: .seconds(1))
          _ = uuid()
        }
      }
    }
  }

  func testAnIssueInAnEffectIsReportedAtTheSendThatStartedIt() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = TestStore(
      initialState: Feature.State(), reducer: { Feature() }, withDependencies: { $0.clock = clock },
      reporter: failures.reporter)
    await store.send(.start)
    let sendLine = #line + 1
    await store.send(.ignite)
    await clock.advance(by: .seconds(1))
    await store.finish()
    XCTAssertEqual(failures.all.count, 1, "\(failures.messages)")
    XCTAssertTrue(failures.all.first?.message.contains("uuid") == true, "\(failures.messages)")
    XCTAssertEqual(failures.all.first?.line, UInt(sendLine))
  }
}
