import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// `@Dependency(\.dismiss)` and `@Dependency(\.isPresented)` at the root, in a live store, and in a TestStore.
final class DismissTests: XCTestCase {
  func testALiveStoresPresentedChildDismissesItself() async {
    let store = Store(initialState: Sheet.State()) { Sheet() }
    store.send(.present)
    XCTAssertEqual(store.child?.isPresented, false)
    await store.send(.child(.presented(.checkPresented))).finish()
    XCTAssertEqual(store.child?.isPresented, true)
    await store.send(.child(.presented(.closeTapped))).finish()
    XCTAssertNil(store.child)
    XCTAssertEqual(store.dismissals, 1)
  }

  func testDismissingTheRootOfALiveStoreIsARuntimeIssue() async {
    let issues = LockIsolated<[String]>([])
    let store = Store(initialState: Closable.State()) {
      Closable()
    } withDependencies: {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    }
    await store.send(.checkPresented).finish()
    XCTAssertEqual(store.isPresented, false)
    await store.send(.closeTapped).finish()
    XCTAssertEqual(issues.value.count, 1)
    XCTAssertTrue(issues.value[0].contains("requested dismissal at"), issues.value[0])
    XCTAssertTrue(issues.value[0].contains("but couldn't be dismissed"), issues.value[0])
  }

  func testATestStoresRootIsPresentedAndDismissingItEndsTheTest() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Closable.State(), reducer: { Closable() }, reporter: failures.reporter)
    await store.send(.checkPresented) { $0.isPresented = true }
    await store.send(.onAppear)
    XCTAssertFalse(store.isDismissed)
    await store.send(.closeTapped)
    XCTAssertTrue(store.isDismissed)
    await store.send(.checkPresented)
    XCTAssertEqual(failures.messages, ["Can't send action to dismissed test store."])
    // The long-living effect still in flight when the feature dismissed itself is not a failure.
    await store.finish()
    XCTAssertEqual(failures.messages.count, 1)
  }

  func testAnOverriddenDismissIsCalledToo() async {
    let dismissed = LockIsolated(0)
    let store = TestStore(initialState: Closable.State()) {
      Closable()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.withLock { $0 += 1 } }
    }
    await store.send(.closeTapped)
    XCTAssertEqual(dismissed.value, 1)
    XCTAssertTrue(store.isDismissed)
  }

  func testAFeatureTestedAloneCanCheckItsDismissalWithAnOverride() async {
    let dismissed = LockIsolated(false)
    let store = Store(initialState: Closable.State()) {
      Closable()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.setValue(true) }
    }
    await store.send(.checkPresented).finish()
    XCTAssertTrue(store.isPresented, "an overridden dismissal counts as presented")
    await store.send(.closeTapped).finish()
    XCTAssertTrue(dismissed.value)
  }

  func testDismissingFromTheChildsErrorHandlerWorksToo() async {
    let store = TestStore(initialState: Sheet.State()) { Sheet() }
    await store.send(.present) { $0.child = Closable.State() }
    await store.send(.child(.presented(.failThenClose)))
    await store.receive(.child(.dismiss)) {
      $0.child = nil
      $0.dismissals = 1
    }
  }
}

private struct Closable: Reducer {
  struct State: Equatable, Sendable { var isPresented = false }
  enum Action: Equatable, Sendable { case checkPresented, closeTapped, failThenClose, onAppear }
  struct Failure: Error {}
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .checkPresented:
      state.isPresented = isPresented
      return .none
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .failThenClose:
      return .run { _ in
        throw Failure()
      } catch: { _, _ in
        await dismiss()
      }
    case .onAppear:
      return .run { _ in try await Task.never() }
    }
  }
}

private struct Sheet: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Closable.State?
    var dismissals = 0
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Closable.Action>)
    case present
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child(.dismiss): state.dismissals += 1
      case .child: break
      case .present: state.child = Closable.State()
      }
      return .none
    }
    .ifLet(\.$child, action: Action.childCase) { Closable() }
  }
}
