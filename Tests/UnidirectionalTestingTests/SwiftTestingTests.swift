import Testing
import Unidirectional
import UnidirectionalTesting

@Suite struct SwiftTestingTests {
  @Test func aTestStoreFlowPassesUnderSwiftTesting() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    await store.send(.stopTimer) { $0.isTimerOn = false }
    await store.finish()
  }

  @Test func failuresAreRecordedAsSwiftTestingIssues() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("A state change does not match expectation") }
    }
  }
}
