import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// `ifLet` over `PresentationState`: TCA's PresentationReducerTests, in this library's spelling.
final class PresentationTests: XCTestCase {
  private func presentTwoChildren(_ clock: TestClock) async -> TestStore<TwoChildren.State, TwoChildren.Action> {
    let store = TestStore(initialState: TwoChildren.State()) {
      TwoChildren()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.presentChildren) {
      $0.child1 = TimerChild.State()
      $0.child2 = TimerChild.State()
    }
    return store
  }

  private func makeIdentifiedParentStore(_ clock: TestClock) -> TestStore<
    IdentifiedParent.State, IdentifiedParent.Action
  > {
    TestStore(initialState: IdentifiedParent.State()) {
      IdentifiedParent()
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
    }
  }

  // MARK: Dismissal

  func testParentDismissal() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.incrementTapped))) { $0.child?.count = 1 }
    await store.send(.child(.dismiss)) {
      $0.child = nil
      $0.lastCount = 1
    }
  }

  func testParentDismissalBySettingNil() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.incrementTapped))) { $0.child?.count = 1 }
    await store.send(.dismissChild) { $0.child = nil }
  }

  func testChildDismissesItselfAndTheParentSeesItsLastState() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.decrementTapped))) { $0.child?.count = -1 }
    await store.send(.child(.presented(.closeTapped)))
    await store.receive(.child(.dismiss)) {
      $0.child = nil
      $0.lastCount = -1
    }
  }

  func testParentDismissalCancelsTheChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.startTimer)))
    await clock.advance(by: .seconds(2))
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 1 }
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 2 }
    await store.send(.child(.dismiss)) {
      $0.child = nil
      $0.lastCount = 2
    }
    await clock.advance(by: .seconds(5))
  }

  func testChildDismissalCancelsTheChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.startTimer)))
    await clock.advance(by: .seconds(2))
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 1 }
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 2 }
    await store.send(.child(.presented(.closeTapped)))
    await store.receive(.child(.dismiss)) {
      $0.child = nil
      $0.lastCount = 2
    }
    await clock.advance(by: .seconds(5))
  }

  func testSettingNilFromAReducerAfterTheIfLetCancelsAtTheNextAction() async {
    let store = TestStore(initialState: OuterCancellation.State()) { OuterCancellation() }
    await store.send(.tapChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.onAppear)))
    await store.send(.tapBefore) { $0.child = nil }

    await store.send(.tapChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.onAppear)))
    await store.send(.tapAfter) { $0.child = nil }
    // The nil was set after the `ifLet` ran: it notices at the next action it sees.
    await store.send(.tapAfter)
  }

  func testChildSettingItselfNilThroughTheParentCancelsItsLongLivingEffect() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.send(.child(.presented(.onAppear)))
    await store.send(.child(.presented(.askToBeDismissed)))
    await store.receive(.child(.presented(.dismissMe))) { $0.child = nil }
  }

  // MARK: Identity

  func testReplacingTheChildWithADifferentOneCancelsTheOldOnesEffects() async {
    let clock = TestClock()
    let store = makeIdentifiedParentStore(clock)
    await store.send(.presentChild) { $0.child = IdentifiedChild.State(id: UUID(sequenceNumber: 0)) }
    await store.send(.child(.presented(.startTimer)))
    await clock.advance(by: .seconds(2))
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 1 }
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 2 }
    await store.send(.presentChild) { $0.child = IdentifiedChild.State(id: UUID(sequenceNumber: 1)) }
    // The first child's timer went with it: nothing ticks.
    await clock.advance(by: .seconds(2))
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testPresentingTheSameChildAgainKeepsItsEffects() async {
    let clock = TestClock()
    let store = makeIdentifiedParentStore(clock)
    await store.send(.presentChild) { $0.child = IdentifiedChild.State(id: UUID(sequenceNumber: 0)) }
    await store.send(.child(.presented(.startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 1 }
    await store.send(.presentChildWithID(UUID(sequenceNumber: 0))) { $0.child?.count = 0 }
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.presented(.tick))) { $0.child?.count = 1 }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testAChildChangingItsOwnIdentityCancelsItsEarlierEffects() async {
    let clock = TestClock()
    let store = makeIdentifiedParentStore(clock)
    await store.send(.presentChild) { $0.child = IdentifiedChild.State(id: UUID(sequenceNumber: 0)) }
    await store.send(.child(.presented(.respondLater))) { $0.child?.count = 1 }
    await store.send(.child(.presented(.resetIdentity))) {
      $0.child?.id = UUID(sequenceNumber: 1)
      $0.child?.count = 0
    }
    await clock.run()
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testHydratedChildDismissesItself() async {
    let store = TestStore(initialState: Parent.State(child: Child.State())) { Parent() }
    await store.send(.child(.presented(.closeTapped)))
    await store.receive(.child(.dismiss)) {
      $0.child = nil
      $0.lastCount = 0
    }
  }

  func testRepresentedChildDismissesItselfAgain() async {
    let store = TestStore(initialState: Container.State()) { Container() }
    for _ in 1...2 {
      await store.send(.inner(.open)) { $0.inner.child = Child.State() }
      await store.send(.inner(.child(.presented(.closeTapped))))
      await store.receive(.inner(.child(.dismiss))) { $0.inner.child = nil }
    }
  }

  func testParentPresentingTheSameChildWhileDismissingStillDismisses() async {
    let store = TestStore(initialState: Rehydrating.State(child: Child.State())) { Rehydrating() }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testParentPresentingADifferentChildWhileDismissingKeepsTheNewOne() async {
    let store = TestStore(
      initialState: IdentifiedParent.State(child: IdentifiedChild.State(id: IdentifiedParent.replaceableID))
    ) {
      IdentifiedParent()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.child(.dismiss)) { $0.child = IdentifiedChild.State(id: UUID(sequenceNumber: 0)) }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testLeavingAChildPresentedAtTheEndIsFine() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.presentChild) { $0.child = Child.State() }
    await store.finish()
  }

  func testAChildsLongLivingEffectLeftRunningFailsTheTest() async {
    let failures = TestFailures()
    do {
      let store = TestStore(initialState: Parent.State(), reducer: { Parent() }, reporter: failures.reporter)
      await store.send(.presentChild) { $0.child = Child.State() }
      await store.send(.child(.presented(.onAppear)))
    }
    XCTAssertEqual(failures.messages.count, 1, "\(failures.messages)")
    XCTAssertTrue(failures.messages.first?.contains("is still running") == true, "\(failures.messages)")
  }

  // MARK: Runtime issues

  func testDismissWhileNothingIsPresentedIsARuntimeIssue() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Parent.State(), reducer: { Parent() }, reporter: failures.reporter)
    await store.send(.child(.dismiss))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].contains("received a presentation action when destination state was absent"),
      failures.messages[0])
    XCTAssertTrue(
      failures.messages[0].contains("Parent.Action.child(PresentationAction<Child.Action>.dismiss)"),
      failures.messages[0])
  }

  func testChildActionWhileNothingIsPresentedIsARuntimeIssueAndChangesNothing() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Parent.State(), reducer: { Parent() }, reporter: failures.reporter)
    await store.send(.child(.presented(.incrementTapped)))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("An \"ifLet\" at "), failures.messages[0])
    XCTAssertTrue(failures.messages[0].contains("incrementTapped"), failures.messages[0])
    XCTAssertNil(store.state.child)
  }

  // MARK: Cancel ids across presentations

  func testAChildCancelsItsOwnIDs() async {
    let store = TestStore(initialState: CancelParent.State()) { CancelParent() }
    let presentation = await store.send(.presentChild) { $0.child = CancelChild.State() }
    await store.send(.child(.presented(.startForever)))
    await store.send(.child(.presented(.stopForever)))
    await presentation.cancel()
  }

  func testAParentCancelsTheIDsOfItsChildAndGrandchild() async {
    let store = TestStore(initialState: CancelParent.State()) { CancelParent() }
    await store.send(.presentChild) { $0.child = CancelChild.State() }
    await store.send(.child(.presented(.presentGrandchild))) { $0.child?.grandchild = CancelGrandchild.State() }
    await store.send(.child(.presented(.startForever)))
    await store.send(.child(.presented(.grandchild(.presented(.startForever)))))
    await store.send(.stopEverything)
  }

  func testAParentCancelsTheSameIDInTwoChildren() async {
    let clock = TestClock()
    let store = await presentTwoChildren(clock)
    await store.send(.child1(.presented(.startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.child1(.presented(.response(42)))) { $0.child1?.count = 42 }
    await store.send(.child2(.presented(.startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.child1(.presented(.response(42))))
    await store.receive(.child2(.presented(.response(42)))) { $0.child2?.count = 42 }
    await store.send(.stopTimers)
    await clock.run()
    await store.send(.child1(.dismiss)) { $0.child1 = nil }
    await store.send(.child2(.dismiss)) { $0.child2 = nil }
  }

  func testAChildCannotCancelItsSiblingsIDs() async {
    let clock = TestClock()
    let store = await presentTwoChildren(clock)
    await store.send(.child1(.presented(.startTimer)))
    await store.send(.child2(.presented(.startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.child1(.presented(.response(42)))) { $0.child1?.count = 42 }
    await store.receive(.child2(.presented(.response(42)))) { $0.child2?.count = 42 }
    await store.send(.child1(.presented(.stopTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.child2(.presented(.response(42))))
    await store.send(.child2(.presented(.stopTimer)))
    await clock.run()
    await store.send(.child1(.dismiss)) { $0.child1 = nil }
    await store.send(.child2(.dismiss)) { $0.child2 = nil }
  }

  func testAChildCannotCancelItsParentsIDs() async {
    let clock = TestClock()
    let store = TestStore(initialState: CancelParent.State()) {
      CancelParent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.presentChild) { $0.child = CancelChild.State() }
    await store.send(.startResponse)
    await store.send(.child(.presented(.stopParentResponse)))
    await clock.advance(by: .seconds(1))
    await store.receive(.response(42)) { $0.count = 42 }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testAParentDismissesAGrandchildAndItsEffects() async {
    let store = TestStore(initialState: CancelParent.State()) { CancelParent() }
    await store.send(.presentChild) { $0.child = CancelChild.State() }
    await store.send(.child(.presented(.presentGrandchild))) { $0.child?.grandchild = CancelGrandchild.State() }
    await store.send(.child(.presented(.grandchild(.presented(.startForever)))))
    await store.send(.dismissGrandchild)
    await store.receive(.child(.presented(.grandchild(.dismiss)))) { $0.child?.grandchild = nil }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testCancelInFlightInAChildLeavesTheParentsEffectWithTheSameID() async {
    let clock = TestClock()
    let store = TestStore(initialState: InFlightParent.State()) {
      InFlightParent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.presentChild) { $0.child = InFlightChild.State() }
    await store.send(.child(.presented(.tap)))
    await clock.advance(by: .milliseconds(500))
    await store.send(.child(.presented(.tap)))
    await clock.advance(by: .milliseconds(1_000))
    await store.receive(.child(.presented(.response(42)))) { $0.child?.count = 42 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.response(42)) { $0.count = 42 }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  func testNestedDismissalDismissesTheInnermostPresentation() async {
    let store = TestStore(initialState: Nested.State()) { Nested() }
    await store.send(.presentTapped) { $0.child = Nested.State() }
    await store.send(.child(.presented(.presentTapped))) { $0.child?.child = Nested.State() }
    await store.send(.child(.presented(.child(.presented(.dismissTapped)))))
    await store.receive(.child(.presented(.child(.dismiss)))) { $0.child?.child = nil }
  }

  // MARK: Destination enums

  func testEnumDestination() async {
    let clock = TestClock()
    let store = TestStore(initialState: Screen.State()) {
      Screen()
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
    }
    await store.send(.presentChild()) { $0.destination = .child(IdentifiedChild.State(id: UUID(sequenceNumber: 0))) }
    await store.send(.destination(.presented(.child(.startTimer))))
    await clock.advance(by: .seconds(2))
    await store.receive(.destination(.presented(.child(.tick)))) {
      $0.$destination[case: Destination.State.childCase]?.count = 1
    }
    await store.receive(.destination(.presented(.child(.tick)))) {
      $0.$destination[case: Destination.State.childCase]?.count = 2
    }
    await store.send(.destination(.presented(.child(.closeTapped))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }

    await store.send(.presentChild()) { $0.destination = .child(IdentifiedChild.State(id: UUID(sequenceNumber: 1))) }
    await store.send(.destination(.presented(.child(.startTimer))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.child(.tick)))) {
      $0.$destination[case: Destination.State.childCase]?.count = 1
    }
    // The same child again: its timer keeps running.
    await store.send(.presentChild(id: UUID(sequenceNumber: 1))) {
      $0.$destination[case: Destination.State.childCase]?.count = 0
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.child(.tick)))) {
      $0.$destination[case: Destination.State.childCase]?.count = 1
    }
    // Another case: the child is gone, and its timer with it.
    await store.send(.presentAlert) { $0.destination = .alert(Screen.alert) }
    await clock.advance(by: .seconds(5))
    await store.send(.destination(.presented(.alert(.deleteTapped)))) {
      $0.destination = nil
      $0.isDeleted = true
    }
  }

  func testAnAlertIsDismissedByItsFirstAction() async {
    let store = TestStore(initialState: AlertParent.State()) { AlertParent() }
    await store.send(.presentAlert) { $0.alert = AlertParent.alert }
    await store.send(.alert(.presented(.deleteTapped))) {
      $0.alert = nil
      $0.isDeleted = true
    }
  }

  func testAnAlertCanBeDismissedWithoutAnAction() async {
    let store = TestStore(initialState: AlertParent.State()) { AlertParent() }
    await store.send(.presentAlert) { $0.alert = AlertParent.alert }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  func testAnAlertReplacedByADialogFromItsOwnButtonStaysReplaced() async {
    let store = TestStore(initialState: AlertThenDialog.State()) { AlertThenDialog() }
    await store.send(.showAlert) { $0.destination = .alert(AlertThenDialog.alert) }
    await store.send(.destination(.presented(.alert(.showDialog)))) {
      $0.destination = .dialog(ConfirmationDialogState(title: "Hello!"))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }

    await store.send(.showDialog) { $0.destination = .dialog(AlertThenDialog.dialog) }
    await store.send(.destination(.presented(.dialog(.showAlert)))) {
      $0.destination = .alert(AlertState(title: "Hello!"))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  func testAnActionForAnotherCaseLeavesTheAlertPresentedAndIsARuntimeIssue() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Screen.State(), reducer: { Screen() }, reporter: failures.reporter)
    await store.send(.presentAlert) { $0.destination = .alert(Screen.alert) }
    await store.send(.destination(.presented(.child(.incrementTapped))))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].contains("received a child action when child state was set to a different case"),
      failures.messages[0])
    XCTAssertEqual(store.state.destination, .alert(Screen.alert))
  }

  func testADestinationEnumChangingCaseCancelsTheOldCasesEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Screen.State()) {
      Screen()
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
    }
    await store.send(.presentChild()) { $0.destination = .child(IdentifiedChild.State(id: UUID(sequenceNumber: 0))) }
    await store.send(.destination(.presented(.child(.startTimer))))
    await store.send(.presentAlert) { $0.destination = .alert(Screen.alert) }
    await clock.advance(by: .seconds(3))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  // MARK: PresentationState

  func testCaseSubscriptChangesThePresentedCaseAndSettingNilDismisses() {
    var state = PresentationState<Destination.State>(
      wrappedValue: .child(IdentifiedChild.State(id: UUID(sequenceNumber: 0))))
    state[case: Destination.State.childCase]?.count += 1
    XCTAssertEqual(state.wrappedValue, .child(IdentifiedChild.State(id: UUID(sequenceNumber: 0), count: 1)))
    state[case: Destination.State.childCase] = nil
    XCTAssertNil(state.wrappedValue)
  }

  func testCaseSubscriptOnAnotherCaseIsARuntimeIssueAndChangesNothing() {
    let issues = LockIsolated<[String]>([])
    withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      var state = PresentationState<Destination.State>(wrappedValue: .alert(Screen.alert))
      state[case: Destination.State.childCase]?.count += 1
      state[case: Destination.State.childCase] = nil
      XCTAssertEqual(state.wrappedValue, .alert(Screen.alert))
    }
    XCTAssertEqual(issues.value, ["Can't modify unrelated case \"alert\".", "Can't modify unrelated case \"alert\"."])
  }

  func testPresentationStateComparesDumpsAndCodesOnlyItsValue() throws {
    let presented = PresentationState(wrappedValue: Child.State(count: 2))
    var same = PresentationState(wrappedValue: Child.State(count: 2))
    same.wrappedValue?.count = 2
    XCTAssertEqual(presented, same)
    XCTAssertNotEqual(presented, PresentationState(wrappedValue: nil))
    XCTAssertEqual(
      customDump(Parent.State(child: Child.State(count: 2))),
      """
      Parent.State(
        child: Child.State(
          count: 2
        ),
        lastCount: nil
      )
      """)
    let data = try JSONEncoder().encode(presented)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"count":2}"#)
    XCTAssertEqual(try JSONDecoder().decode(PresentationState<Child.State>.self, from: data), presented)
    XCTAssertEqual(
      try JSONDecoder().decode(PresentationState<Child.State>.self, from: Data("null".utf8)), .init(wrappedValue: nil))
  }
}

// MARK: - Features

private struct Child: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Equatable, Sendable {
    case askToBeDismissed, closeTapped, decrementTapped, dismissMe, incrementTapped, onAppear, startTimer, tick
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .askToBeDismissed: return .send(.dismissMe)
    case .closeTapped: return .run { _ in await dismiss() }
    case .decrementTapped:
      state.count -= 1
      return .none
    case .dismissMe: return .none
    case .incrementTapped:
      state.count += 1
      return .none
    case .onAppear: return .run { _ in try await Task.never() }
    case .startTimer:
      return .ticking(.tick, on: clock)
    case .tick:
      state.count += 1
      return .none
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Child.State?
    var lastCount: Int?
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Child.Action>)
    case dismissChild
    case presentChild
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child(.dismiss):
        state.lastCount = state.child?.count
        return .none
      case .child(.presented(.dismissMe)):
        state.child = nil
        return .none
      case .child:
        return .none
      case .dismissChild:
        state.child = nil
        return .none
      case .presentChild:
        state.child = Child.State()
        return .none
      }
    }
    .ifLet(\.$child, action: Action.childCase) { Child() }
  }
}

private struct OuterCancellation: Reducer {
  struct State: Equatable, Sendable { @PresentationState var child: Child.State? }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Child.Action>)
    case tapAfter, tapBefore, tapChild
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .tapBefore = action { state.child = nil }
      return .none
    }
    Reduce { state, action in
      if case .tapChild = action { state.child = Child.State() }
      return .none
    }
    .ifLet(\.$child, action: Action.childCase) { Child() }
    Reduce { state, action in
      if case .tapAfter = action { state.child = nil }
      return .none
    }
  }
}

private struct IdentifiedChild: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: UUID
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case closeTapped, incrementTapped, resetIdentity, respondLater, response, startTimer, tick
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeTapped: return .run { _ in await dismiss() }
    case .incrementTapped:
      state.count += 1
      return .none
    case .resetIdentity:
      state.count = 0
      state.id = uuid()
      return .none
    case .respondLater:
      state.count += 1
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.response)
      }
    case .response:
      state.count = 999
      return .none
    case .startTimer:
      return .ticking(.tick, on: clock)
    case .tick:
      state.count += 1
      return .none
    }
  }
}

private struct IdentifiedParent: Reducer {
  static let replaceableID = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF") ?? UUID(sequenceNumber: 99)
  struct State: Equatable, Sendable { @PresentationState var child: IdentifiedChild.State? }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<IdentifiedChild.Action>)
    case presentChild
    case presentChildWithID(UUID)
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child(.dismiss):
        if state.child?.id == Self.replaceableID { state.child = IdentifiedChild.State(id: uuid()) }
        return .none
      case .child:
        return .none
      case .presentChild:
        state.child = IdentifiedChild.State(id: uuid())
        return .none
      case let .presentChildWithID(id):
        state.child = IdentifiedChild.State(id: id)
        return .none
      }
    }
    .ifLet(\.$child, action: Action.childCase) { IdentifiedChild() }
  }
}

private struct Rehydrating: Reducer {
  struct State: Equatable, Sendable { @PresentationState var child: Child.State? }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Child.Action>)
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .child(.dismiss) = action { state.child = Child.State() }
      return .none
    }
    .ifLet(\.$child, action: Action.childCase) { Child() }
  }
}

/// A presenting feature scoped inside another: its child dismisses itself through two levels of embedding.
private struct Container: Reducer {
  struct Inner: Reducer {
    struct State: Equatable, Sendable { @PresentationState var child: Child.State? }
    enum Action: Equatable, Sendable {
      case child(PresentationAction<Child.Action>)
      case open
      static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
    }
    var body: some Reducer<State, Action> {
      EmptyReducer().ifLet(\.$child, action: Action.childCase) { Child() }
    }
  }
  struct State: Equatable, Sendable { var inner = Inner.State() }
  enum Action: Equatable, Sendable {
    case inner(Inner.Action)
    static let innerCase = CasePath(Action.inner) { if case let .inner(action) = $0 { action } else { nil } }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.inner, action: Action.innerCase) { Inner() }
    Reduce { state, action in
      if case .inner(.open) = action { state.inner.child = Child.State() }
      return .none
    }
  }
}

private struct CancelGrandchild: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case startForever }
  enum CancelID { case forever }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in try await Task.never() }.cancellable(id: CancelID.forever)
  }
}

private struct CancelChild: Reducer {
  struct State: Equatable, Sendable { @PresentationState var grandchild: CancelGrandchild.State? }
  enum Action: Equatable, Sendable {
    case grandchild(PresentationAction<CancelGrandchild.Action>)
    case presentGrandchild, startForever, stopForever, stopParentResponse
    static let grandchildCase = CasePath(Action.grandchild) {
      if case let .grandchild(action) = $0 { action } else { nil }
    }
  }
  enum CancelID { case forever }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .grandchild: return .none
      case .presentGrandchild:
        state.grandchild = CancelGrandchild.State()
        return .none
      case .startForever: return .run { _ in try await Task.never() }.cancellable(id: CancelID.forever)
      case .stopForever: return .cancel(id: CancelID.forever)
      case .stopParentResponse: return .cancel(id: CancelParent.CancelID.response)
      }
    }
    .ifLet(\.$grandchild, action: Action.grandchildCase) { CancelGrandchild() }
  }
}

private struct CancelParent: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: CancelChild.State?
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<CancelChild.Action>)
    case dismissGrandchild, presentChild, response(Int), startResponse, stopEverything
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  enum CancelID { case response }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child: return .none
      case .dismissGrandchild: return .send(.child(.presented(.grandchild(.dismiss))))
      case .presentChild:
        state.child = CancelChild.State()
        return .none
      case let .response(value):
        state.count = value
        return .none
      case .startResponse:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.response(42))
        }
        .cancellable(id: CancelID.response)
      case .stopEverything:
        return .merge(.cancel(id: CancelChild.CancelID.forever), .cancel(id: CancelGrandchild.CancelID.forever))
      }
    }
    .ifLet(\.$child, action: Action.childCase) { CancelChild() }
  }
}

private struct TimerChild: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case response(Int), startTimer, stopTimer }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .response(value):
      state.count = value
      return .none
    case .startTimer:
      return .ticking(.response(42), on: clock).cancellable(id: CancelID.timer)
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    }
  }
}

private struct TwoChildren: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child1: TimerChild.State?
    @PresentationState var child2: TimerChild.State?
  }
  enum Action: Equatable, Sendable {
    case child1(PresentationAction<TimerChild.Action>)
    case child2(PresentationAction<TimerChild.Action>)
    case presentChildren, stopTimers
    static let child1Case = CasePath(Action.child1) { if case let .child1(action) = $0 { action } else { nil } }
    static let child2Case = CasePath(Action.child2) { if case let .child2(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child1, .child2: return .none
      case .presentChildren:
        state.child1 = TimerChild.State()
        state.child2 = TimerChild.State()
        return .none
      case .stopTimers: return .cancel(id: TimerChild.CancelID.timer)
      }
    }
    .ifLet(\.$child1, action: Action.child1Case) { TimerChild() }
    .ifLet(\.$child2, action: Action.child2Case) { TimerChild() }
  }
}

private struct InFlightChild: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case response(Int), tap }
  struct CancelID: Hashable, Sendable {}
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .response(value):
      state.count = value
      return .none
    case .tap:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.response(42))
      }
      .cancellable(id: CancelID(), cancelInFlight: true)
    }
  }
}

private struct InFlightParent: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: InFlightChild.State?
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<InFlightChild.Action>)
    case presentChild, response(Int)
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child: return .none
      case .presentChild:
        state.child = InFlightChild.State()
        return .run { send in
          try await clock.sleep(for: .seconds(2))
          send(.response(42))
        }
        .cancellable(id: InFlightChild.CancelID())
      case let .response(value):
        state.count = value
        return .none
      }
    }
    .ifLet(\.$child, action: Action.childCase) { InFlightChild() }
  }
}

private struct Nested: Reducer {
  struct State: Equatable, Sendable { @PresentationState var child: Nested.State? }
  enum Action: Equatable, Sendable {
    indirect case child(PresentationAction<Action>)
    case dismissTapped, presentTapped
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child: return .none
      case .dismissTapped: return .run { _ in await dismiss() }
      case .presentTapped:
        state.child = State()
        return .none
      }
    }
    .ifLet(\.$child, action: Action.childCase) { Nested() }
  }
}

private struct Destination: Reducer {
  enum State: Equatable, Sendable, Identifiable {
    case alert(AlertState<Action.Alert>)
    case child(IdentifiedChild.State)

    static let alertCase = CasePath(State.alert) { if case let .alert(state) = $0 { state } else { nil } }
    static let childCase = CasePath(State.child) { if case let .child(state) = $0 { state } else { nil } }

    /// The case, and the child's own id: another case, or another child, is another presentation.
    enum ID: Hashable, Sendable { case alert, child(UUID) }
    var id: ID {
      switch self {
      case .alert: .alert
      case let .child(child): .child(child.id)
      }
    }
  }
  enum Action: Equatable, Sendable {
    case alert(Alert)
    case child(IdentifiedChild.Action)
    enum Alert: Equatable, Sendable { case deleteTapped }

    static let alertCase = CasePath(Action.alert) { if case let .alert(action) = $0 { action } else { nil } }
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: State.childCase, action: Action.childCase) { IdentifiedChild() }
  }
}

extension Destination.State: EphemeralState {
  fileprivate func isDismissed(by action: Destination.Action) -> Bool {
    if case .alert = self, case .alert = action { true } else { false }
  }
}

private struct Screen: Reducer {
  static let alert = AlertState<Destination.Action.Alert>(
    title: "Uh oh!", buttons: [ButtonState(role: .destructive, action: .deleteTapped, label: "Delete")])

  struct State: Equatable, Sendable {
    @PresentationState var destination: Destination.State?
    var isDeleted = false
  }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
    case presentAlert
    case presentChild(id: UUID? = nil)
    static let destinationCase = CasePath(Action.destination) {
      if case let .destination(action) = $0 { action } else { nil }
    }
  }
  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.alert(.deleteTapped))):
        state.isDeleted = true
        return .none
      case .destination:
        return .none
      case .presentAlert:
        state.destination = .alert(Self.alert)
        return .none
      case let .presentChild(id):
        state.destination = .child(IdentifiedChild.State(id: id ?? uuid()))
        return .none
      }
    }
    .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
  }
}

private struct AlertParent: Reducer {
  static let alert = AlertState<Action.Alert>(
    title: "Uh oh!", buttons: [ButtonState(role: .destructive, action: .deleteTapped, label: "Delete")])

  struct State: Equatable, Sendable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var isDeleted = false
  }
  enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case presentAlert
    enum Alert: Equatable, Sendable { case deleteTapped }
    static let alertCase = CasePath(Action.alert) { if case let .alert(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.deleteTapped)):
        state.isDeleted = true
        return .none
      case .alert:
        return .none
      case .presentAlert:
        state.alert = Self.alert
        return .none
      }
    }
    .ifLet(\.$alert, action: Action.alertCase)
  }
}

private struct AlertThenDialog: Reducer {
  enum Choice: Equatable, Sendable { case showAlert, showDialog }
  static let alert = AlertState<Choice>(
    title: "Choose",
    buttons: [
      ButtonState(action: .showAlert, label: "Show alert"), ButtonState(action: .showDialog, label: "Show dialog"),
    ])
  static let dialog = ConfirmationDialogState<Choice>(
    title: "Choose",
    buttons: [
      ButtonState(action: .showAlert, label: "Show alert"), ButtonState(action: .showDialog, label: "Show dialog"),
    ])

  enum DestinationState: Equatable, Sendable, EphemeralState {
    case alert(AlertState<Choice>)
    case dialog(ConfirmationDialogState<Choice>)

    func isDismissed(by action: DestinationAction) -> Bool {
      switch (self, action) {
      case (.alert, .alert), (.dialog, .dialog): true
      default: false
      }
    }
  }
  enum DestinationAction: Equatable, Sendable { case alert(Choice), dialog(Choice) }

  struct State: Equatable, Sendable { @PresentationState var destination: DestinationState? }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<DestinationAction>)
    case showAlert, showDialog
    static let destinationCase = CasePath(Action.destination) {
      if case let .destination(action) = $0 { action } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.alert(.showDialog))):
        state.destination = .dialog(ConfirmationDialogState(title: "Hello!"))
        return .none
      case .destination(.presented(.dialog(.showAlert))):
        state.destination = .alert(AlertState(title: "Hello!"))
        return .none
      case .destination:
        return .none
      case .showAlert:
        state.destination = .alert(Self.alert)
        return .none
      case .showDialog:
        state.destination = .dialog(Self.dialog)
        return .none
      }
    }
    .ifLet(\.$destination, action: Action.destinationCase) { EmptyReducer() }
  }
}
