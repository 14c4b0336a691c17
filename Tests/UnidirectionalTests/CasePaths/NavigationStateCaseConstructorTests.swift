import Testing
import Unidirectional

// A presented destination's or a stack element's case, by the case's constructor: TCA's
// `state.$destination[case: \.edit]` and `state.path[id: 0, case: \.detail]`.

private struct Edit: Equatable, Sendable { var title = "" }

private enum Destination: Equatable, Sendable {
  case edit(Edit)
  case other(Int)
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

@Suite struct NavigationStateCaseConstructorTests {
  @Test func aPresentedDestinationsCase() {
    var destination = PresentationState<Destination>(wrappedValue: .edit(Edit()))
    #expect(destination[case: Destination.edit] == Edit())
    #expect(destination[case: Destination.other] == nil)
    destination[case: Destination.edit]?.title = "Kite"
    #expect(destination.wrappedValue == .edit(Edit(title: "Kite")))
    let found = issues { destination[case: Destination.other] = 1 }
    #expect(found.count == 1)
    #expect(destination.wrappedValue == .edit(Edit(title: "Kite")), "another case is not changed")
    destination[case: Destination.edit] = nil
    #expect(destination.wrappedValue == nil)
  }

  @Test func aStackElementsCase() {
    var path = StackState<Destination>()
    path.append(.edit(Edit()))
    path.append(.other(1))
    #expect(path[id: 0, case: Destination.edit] == Edit())
    #expect(path[id: 1, case: Destination.edit] == nil)
    path[id: 0, case: Destination.edit]?.title = "Kite"
    #expect(path[id: 0] == .edit(Edit(title: "Kite")))
    let found = issues { path[id: 1, case: Destination.edit] = Edit() }
    #expect(found.count == 1)
    #expect(path[id: 1] == .other(1))
  }
}
