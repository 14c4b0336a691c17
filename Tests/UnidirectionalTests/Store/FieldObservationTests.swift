import Observation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// Observation of a store field by field and child store by child store, as TCA's `@ObservableState` gives
/// (the semantics of TCA's ObservableTests and the scoping cases of its StoreTests, through a `Store`). Before,
/// reading any field registered the whole state: every observer was told of every change.
final class FieldObservationTests: XCTestCase {
  struct Child: Equatable, Sendable {
    var count = 0
  }

  enum Destination: Equatable, Sendable {
    case child1(Child)
    case child2(Child)
    case inert(Int)
    var child1: Child? { if case let .child1(child) = self { child } else { nil } }
    var child2: Child? { if case let .child2(child) = self { child } else { nil } }
  }

  /// A reference type that is not `Equatable`: compared by identity.
  final class Handle: Sendable {}

  struct Parent: Equatable, Sendable {
    var count = 0
    var name = ""
    var child = Child()
    var sibling = Child()
    var optional: Child?
    var destination: Destination?
    var rows: IdentifiedArray<Int, Row> = []
    var handle = Handle()
    var profile = Profile()

    static func == (lhs: Parent, rhs: Parent) -> Bool {
      lhs.count == rhs.count && lhs.name == rhs.name && lhs.child == rhs.child && lhs.sibling == rhs.sibling
        && lhs.optional == rhs.optional && lhs.destination == rhs.destination && lhs.rows == rhs.rows
        && lhs.handle === rhs.handle && lhs.profile == rhs.profile
    }
  }

  struct Profile: Equatable, Sendable {
    var name = "Blob"
    var age = 40
  }

  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  /// Every mutation a test needs, as an action; `.row(id:action:)` reaches a row through `forEach`.
  enum Action: Equatable, Sendable {
    case setCount(Int), setName(String), setChildCount(Int), replaceChild(Child), swapSiblings
    case setOptional(Child?), incrementOptional, setDestination(Destination?), newHandle, setAge(Int)
    case appendRow(Row), row(id: Int, action: RowAction)
    enum RowAction: Equatable, Sendable { case increment }
    static let rowCase = CasePath(Action.row) { if case let .row(id, action) = $0 { (id, action) } else { nil } }
  }

  struct Feature: Reducer {
    var body: some Reducer<Parent, Action> {
      Reduce { state, action in
        switch action {
        case let .setCount(count): state.count = count
        case let .setName(name): state.name = name
        case let .setChildCount(count): state.child.count = count
        case let .replaceChild(child): state.child = child
        case .swapSiblings: swap(&state.child, &state.sibling)
        case let .setOptional(child): state.optional = child
        case .incrementOptional: state.optional?.count += 1
        case let .setDestination(destination): state.destination = destination
        case .newHandle: state.handle = Handle()
        case let .setAge(age): state.profile.age = age
        case let .appendRow(row): state.rows.append(row)
        case .row: break
        }
        return .none
      }
      .forEach(\.rows, action: Action.rowCase) {
        Reduce<Row, Action.RowAction> { row, _ in
          row.count += 1
          return .none
        }
      }
    }
  }

  private func makeStore(_ state: Parent = Parent()) -> Store<Parent, Action> {
    Store(initialState: state) { Feature() }
  }

  /// Counts the changes an observer of `read` is told of (re-registering after each, as a view re-renders).
  private final class Observer: @unchecked Sendable {
    private let changes = LockIsolated(0)
    private let read: () -> Void
    var count: Int { changes.value }

    init(_ read: @escaping () -> Void) {
      self.read = read
      observe()
    }

    private func observe() {
      withObservationTracking(read) { [weak self] in
        self?.changes.withLock { $0 += 1 }
      }
    }

    /// Registers again after a change was counted.
    func rearm() { observe() }
  }

  // MARK: Fields

  func testAnObserverOfAFieldIsToldWhenItChanges() {
    let store = makeStore()
    let count = Observer { _ = store.count }
    store.send(.setCount(1))
    XCTAssertEqual(count.count, 1)
    XCTAssertEqual(store.count, 1)
  }

  func testAnObserverOfAFieldIsNotToldOfAnotherFieldsChange() {
    let store = makeStore()
    let count = Observer { _ = store.count }
    let name = Observer { _ = store.name }
    store.send(.setName("Blob"))
    XCTAssertEqual(count.count, 0)
    XCTAssertEqual(name.count, 1)
  }

  func testAssigningAnEqualValueNotifiesNobody() {
    let store = makeStore()
    let count = Observer { _ = store.count }
    store.send(.setCount(0))
    XCTAssertEqual(count.count, 0)
  }

  func testAValueThatIsNotEquatableNotifiesWhenWritten() {
    let store = makeStore()
    let handle = Observer { _ = store.handle }
    store.send(.setCount(1))
    XCTAssertEqual(handle.count, 0, "a change elsewhere leaves the reference as it was")
    store.send(.newHandle)
    XCTAssertEqual(handle.count, 1)
  }

  func testANestedReadRegistersItsWholePath() {
    let store = makeStore()
    let name = Observer { _ = store[\.profile.name] }
    let profile = Observer { _ = store.profile.age }
    store.send(.setAge(41))
    XCTAssertEqual(name.count, 0, "store[\\.profile.name] observes the name only")
    XCTAssertEqual(profile.count, 1, "store.profile.age reads profile, then age of the copy: observes profile")
  }

  func testTheWholeStateIsObservedThroughState() {
    let store = makeStore()
    let state = Observer { _ = store.state }
    store.send(.setCount(0))
    XCTAssertEqual(state.count, 0)
    store.send(.setName("x"))
    XCTAssertEqual(state.count, 1)
  }

  func testChildCountMutationNotifiesTheObserverOfTheCount() {
    let store = makeStore()
    let childStore = store.scope(state: \.child, action: { (count: Int) in Action.setChildCount(count) })
    let childCount = Observer { _ = childStore.count }
    let sibling = Observer { _ = store.sibling }
    childStore.send(1)
    XCTAssertEqual(childCount.count, 1)
    XCTAssertEqual(sibling.count, 0)
    XCTAssertEqual(childStore.count, 1)
  }

  func testReplacingAChildNotifiesItsObservers() {
    let store = makeStore()
    let child = Observer { _ = store.child }
    store.send(.replaceChild(Child(count: 42)))
    XCTAssertEqual(child.count, 1)
    XCTAssertEqual(store.child.count, 42)
  }

  func testSwappingSiblingsNotifiesBoth() {
    let store = makeStore(Parent(child: Child(count: 1), sibling: Child(count: -1)))
    let child = Observer { _ = store.child }
    let sibling = Observer { _ = store.sibling }
    store.send(.swapSiblings)
    XCTAssertEqual(child.count, 1)
    XCTAssertEqual(sibling.count, 1)
  }

  // MARK: Optional and enum children

  func testPresentingAnOptionalChildNotifiesTheObserverOfItsPresenceOnce() {
    let store = makeStore()
    let presence = Observer { _ = store.scope(state: \.optional, action: noAction) }
    store.send(.setOptional(Child(count: 42)))
    XCTAssertEqual(presence.count, 1)
    XCTAssertEqual(store.scope(state: \.optional, action: noAction)?.count, 42)
  }

  func testMutatingAPresentedChildNotifiesItsStoreNotThePresence() throws {
    let store = makeStore(Parent(optional: Child()))
    let scope = { store.scope(state: \.optional, action: noAction) }
    let presence = Observer { _ = scope() }
    let child = try XCTUnwrap(scope())
    let childCount = Observer { _ = child.count }
    store.send(.incrementOptional)
    XCTAssertEqual(presence.count, 0)
    XCTAssertEqual(childCount.count, 1)
    XCTAssertEqual(child.count, 1)
  }

  func testDismissingAChildNotifiesThePresenceOnceAndTheScopeIsNil() {
    let store = makeStore(Parent(optional: Child()))
    let scope = { store.scope(state: \.optional, action: noAction) }
    let presence = Observer { _ = scope() }
    store.send(.setOptional(nil))
    store.send(.setCount(1))
    XCTAssertEqual(presence.count, 1)
    XCTAssertNil(scope())
  }

  func testChangingTheDestinationsCaseNotifiesBothCasesObservers() {
    let store = makeStore(Parent(destination: .child1(Child())))
    let first = Observer { _ = store.scope(state: \.destination?.child1, action: noAction) }
    let second = Observer { _ = store.scope(state: \.destination?.child2, action: noAction) }
    store.send(.setDestination(.child2(Child(count: 42))))
    XCTAssertEqual(first.count, 1)
    XCTAssertEqual(second.count, 1)
    XCTAssertEqual(store.scope(state: \.destination?.child2, action: noAction)?.count, 42)
  }

  func testAnInertCaseChangeNotifiesTheDestinationsObserver() {
    let store = makeStore(Parent(destination: .inert(0)))
    let destination = Observer { _ = store.destination }
    store.send(.setDestination(.inert(1)))
    XCTAssertEqual(destination.count, 1)
  }

  // MARK: Child store identity

  func testAScopeCalledAgainFromOneCallSiteGivesTheSameStore() {
    let store = makeStore(Parent(optional: Child()))
    var children: [Store<Child, Int>] = []
    for _ in 0..<2 { children.append(store.scope(state: \.child, action: { Action.setChildCount($0) })) }
    XCTAssertTrue(children[0] === children[1])
    var optionals: [Store<Child, Never>?] = []
    for _ in 0..<2 { optionals.append(store.scope(state: \.optional, action: noAction)) }
    XCTAssertNotNil(optionals[0])
    XCTAssertTrue(optionals[0] === optionals[1])
  }

  func testEachRowOfACollectionHasOneStoreByID() {
    let store = makeStore(Parent(rows: [Row(id: 1), Row(id: 2)]))
    let first = Array(store.scope(state: \.rows, action: Action.rowCase))
    let second = Array(store.scope(state: \.rows, action: Action.rowCase))
    XCTAssertEqual(first.map(\.id), [1, 2])
    XCTAssertTrue(first[0] === second[0])
    XCTAssertTrue(first[1] === second[1])
  }

  // MARK: A thousand rows

  func testChangingOneOfAThousandRowsNotifiesThatRowsObserversOnly() {
    let store = makeStore(Parent(rows: IdentifiedArray(uniqueElements: (0..<1_000).map { Row(id: $0) })))
    let rows = Array(store.scope(state: \.rows, action: Action.rowCase))
    let rowObservers = rows.map { row in Observer { _ = row.count } }
    let list = Observer { _ = store.scope(state: \.rows, action: Action.rowCase) }

    store.send(.row(id: 7, action: .increment))
    XCTAssertEqual(rowObservers.map(\.count).reduce(0, +), 1)
    XCTAssertEqual(rowObservers[7].count, 1)
    XCTAssertEqual(list.count, 0, "the list read the ids only")
    XCTAssertEqual(rows[7].count, 1)

    rowObservers[7].rearm()
    store.send(.appendRow(Row(id: 1_000)))
    XCTAssertEqual(list.count, 1, "a new row changes the ids")
    XCTAssertEqual(rowObservers.map(\.count).reduce(0, +), 1, "no row's count changed")
  }

  func testAnObserverOfTheWholeArrayIsToldOfARowsChange() {
    let store = makeStore(Parent(rows: [Row(id: 1), Row(id: 2)]))
    let array = Observer { _ = store.rows }
    store.send(.row(id: 2, action: .increment))
    XCTAssertEqual(array.count, 1)
  }

  // MARK: Live use

  func testAnObserverMaySendFromItsChangeHandler() {
    let store = makeStore()
    let sent = LockIsolated(false)
    withObservationTracking {
      _ = store.count
    } onChange: {
      let isFirst = sent.withLock { wasSent in
        defer { wasSent = true }
        return !wasSent
      }
      if isFirst { store.send(.setName("from the handler")) }
    }
    store.send(.setCount(1))
    XCTAssertEqual(store.name, "from the handler")
  }

  func testAHeadlessStoreThatIsNeverObservedIsNeverCompared() {
    // A store nobody observed takes the send path that does no observation work; reading through `withState`
    // registers nothing.
    let store = makeStore()
    for count in 1...100 { store.send(.setCount(count)) }
    XCTAssertEqual(store.withState { $0.count }, 100)
  }
}

/// The embedding of a child store that sends nothing.
@Sendable private func noAction(_ never: Never) -> FieldObservationTests.Action {}
