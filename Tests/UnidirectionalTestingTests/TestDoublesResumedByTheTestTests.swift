import Testing
import Unidirectional
import UnidirectionalTesting

/// Test doubles that park their caller until the test resumes it: the store knows such an effect waits on the test,
/// and effects the test resumes together run in the order it resumed them.
@MainActor
struct TestDoublesResumedByTheTestTests {
  /// A dependency whose calls wait until the test answers them, in any order it likes.
  final class Answers: Sendable {
    private let pending = LockIsolated<[String: CheckedContinuation<String, Never>]>([:])

    /// The call `query` makes, parked until ``answer(_:with:)``; counted as waiting on the test when `marked`.
    func call(_ query: String, marked: Bool) async -> String {
      if marked {
        return await TestRuntime.waitingOnTheTest { await park(query) }
      }
      return await park(query)
    }

    private func park(_ query: String) async -> String {
      await withCheckedContinuation { continuation in pending.withLock { $0[query] = continuation } }
    }

    func answer(_ query: String, with answer: String) {
      pending.withLock { $0.removeValue(forKey: query) }?.resume(returning: answer)
    }

    var waiting: Int { pending.withLock { $0.count } }
  }

  struct Feature: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Equatable { case ask(String), answered(String, String), followedUp(String) }
    let answers: Answers
    let marked: Bool
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .ask(query):
        return .run { [answers, marked] send in
          let answer = await answers.call(query, marked: marked)
          send(.answered(query, answer))
          await Task.yield()
          send(.followedUp(query))
        }
      case let .answered(query, answer):
        state.log.append("\(query)=\(answer)")
        return .none
      case let .followedUp(query):
        state.log.append("\(query) done")
        return .none
      }
    }
  }

  @Test func aReceiveThatWaitsOnTheTestFailsAtOnceSayingSo() async {
    let answers = Answers()
    let failures = TestFailures()
    let store = TestStore(
      initialState: Feature.State(), reducer: { Feature(answers: answers, marked: true) }, reporter: failures.reporter)
    store.timeout = .seconds(60)  // never reached: the store knows nothing happens until the test acts
    await store.send(.ask("a"))
    await store.receive(.answered("a", "apple"))
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.contains("suspended on a TestClock or waiting for each other") == true)
    answers.answer("a", with: "apple")
    await store.receive(.answered("a", "apple")) { $0.log = ["a=apple"] }
    await store.receive(.followedUp("a")) { $0.log = ["a=apple", "a done"] }
  }

  @Test func anUnmarkedWaitCountsAsRealIOAndTheReceiveWaitsItsTimeout() async {
    let answers = Answers()
    let failures = TestFailures()
    let store = TestStore(
      initialState: Feature.State(), reducer: { Feature(answers: answers, marked: false) },
      reporter: failures.reporter)
    store.timeout = .milliseconds(20)
    await store.send(.ask("a"))
    await store.receive(.answered("a", "apple"))
    #expect(failures.messages.first?.contains("timed out after") == true)
    answers.answer("a", with: "apple")
    await store.receive(.answered("a", "apple")) { $0.log = ["a=apple"] }
    await store.receive(.followedUp("a")) { $0.log = ["a=apple", "a done"] }
  }

  @Test func answersResumedWithTheEffectsHeldArriveInTheOrderTheTestGaveThem() async {
    for _ in 0..<200 {
      let answers = Answers()
      let store = TestStore(initialState: Feature.State()) { Feature(answers: answers, marked: true) }
      await store.send(.ask("a"))
      await store.send(.ask("ab"))
      #expect(answers.waiting == 2)
      await store.withEffectsHeld {
        answers.answer("ab", with: "abc")
        answers.answer("a", with: "apple")
      }
      // Each effect runs up to its next suspension in turn: both answers, then both follow-ups.
      await store.receive(.answered("ab", "abc")) { $0.log = ["ab=abc"] }
      await store.receive(.answered("a", "apple")) { $0.log = ["ab=abc", "a=apple"] }
      await store.receive(.followedUp("ab")) { $0.log = ["ab=abc", "a=apple", "ab done"] }
      await store.receive(.followedUp("a")) { $0.log = ["ab=abc", "a=apple", "ab done", "a done"] }
    }
  }
}
