import Testing
import Unidirectional

// TCA's `@CasePathable` enum, as a conformance: `modify`, `is` and `[case:]` by constructor or case path. Ported from
// swift-case-paths' `CasePathableTests` (`modify`, `is`, the `[case:]` subscript) and TCA's tests that change a
// destination's case in place (`$0.destination?.modify(\.edit) { … }`).

private struct Counter: Equatable, Sendable { var count = 0 }

private enum State: Equatable, Sendable, CasePathable {
  case loggedIn(Counter)
  case loggedOut(String)
  case loading
}

private func issues(_ body: () -> Void) -> [String] {
  let issues = LockIsolated<[String]>([])
  withDependencies {
    $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
  } operation: {
    body()
  }
  return issues.value
}

@Suite struct CasePathableTests {
  @Test func modifiesThePayloadInPlace() {
    var state = State.loggedIn(Counter())
    state.modify(State.loggedIn) { $0.count += 1 }
    #expect(state == .loggedIn(Counter(count: 1)))
    state.modify(CasePath(State.loggedIn)) { $0.count += 1 }
    #expect(state == .loggedIn(Counter(count: 2)))
  }

  @Test func modifyingAnotherCaseIsAnIssueAndChangesNothing() {
    var state = State.loggedOut("blob")
    let found = issues { state.modify(State.loggedIn) { $0.count += 1 } }
    #expect(state == .loggedOut("blob"))
    #expect(found.count == 1)
    #expect(found.first?.contains("Can't modify") == true, "\(found)")
  }

  @Test func anOptionalDestinationIsModifiedThroughOptionalChaining() {
    var destination: State? = .loggedIn(Counter())
    destination?.modify(State.loggedIn) { $0.count = 5 }
    #expect(destination == .loggedIn(Counter(count: 5)))
    destination = nil
    destination?.modify(State.loggedIn) { $0.count = 6 }
    #expect(destination == nil)
  }

  @Test func testsTheCase() {
    #expect(State.loggedIn(Counter()).is(State.loggedIn))
    #expect(!State.loggedIn(Counter()).is(State.loggedOut))
    #expect(State.loading.is(CasePath(State.loading)))
    #expect(!State.loggedOut("x").is(CasePath(State.loading)))
  }

  @Test func readsAndWritesThePayloadBySubscript() {
    var state = State.loggedOut("blob")
    #expect(state[case: State.loggedOut] == "blob")
    #expect(state[case: State.loggedIn] == nil)
    let loggedIn = CasePath(State.loggedIn)
    state[case: loggedIn] = Counter(count: 3)
    #expect(state == .loggedIn(Counter(count: 3)))
    state[case: loggedIn]?.count += 1
    #expect(state == .loggedIn(Counter(count: 4)))
    state[case: loggedIn] = nil
    #expect(state == .loggedIn(Counter(count: 4)), "setting nil changes nothing")
  }
}
