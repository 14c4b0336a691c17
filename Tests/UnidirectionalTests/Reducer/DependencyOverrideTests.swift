import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Stamp: Reducer {
  struct State: Equatable, Sendable {
    var ids: [UUID] = []
    var laterIDs: [UUID] = []
  }
  enum Action: Equatable, Sendable { case stamp, stampLater, stampedLater(UUID) }
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp:
      state.ids.append(uuid())
      return .none
    case .stampLater:
      return .run { send in send(.stampedLater(uuid())) }
    case let .stampedLater(id):
      state.laterIDs.append(id)
      return .none
    }
  }
}

private struct Overridden: Reducer {
  var body: some Reducer<Stamp.State, Stamp.Action> {
    Stamp().dependency(\.uuid, .constant(UUID(sequenceNumber: 99)))
  }
}

final class DependencyOverrideTests: XCTestCase {
  func testStoreOverrideIsSeenByReducerAndEffects() async {
    let store = TestStore(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.stamp) { $0.ids = [UUID(sequenceNumber: 0)] }
    await store.send(.stampLater)
    await store.receive(.stampedLater(UUID(sequenceNumber: 1))) { $0.laterIDs = [UUID(sequenceNumber: 1)] }
  }

  func testReducerOverrideWinsOverTheStoreOneForItsSubtreeAndItsEffects() async {
    let store = TestStore(initialState: Stamp.State()) {
      Overridden()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.stamp) { $0.ids = [UUID(sequenceNumber: 99)] }
    await store.send(.stampLater)
    await store.receive(.stampedLater(UUID(sequenceNumber: 99))) { $0.laterIDs = [UUID(sequenceNumber: 99)] }
  }

  func testStoreOverrideWinsOverTheEnclosingWithDependenciesScope() async {
    let store = withDependencies {
      $0.uuid = .constant(UUID(sequenceNumber: 5))
    } operation: {
      TestStore(initialState: Stamp.State()) {
        Stamp()
      } withDependencies: {
        $0.uuid = .incrementing
      }
    }
    await store.send(.stamp) { $0.ids = [UUID(sequenceNumber: 0)] }
  }

  func testEnclosingWithDependenciesScopeIsInheritedByTheStore() async {
    let store = withDependencies {
      $0.uuid = .constant(UUID(sequenceNumber: 5))
    } operation: {
      TestStore(initialState: Stamp.State()) { Stamp() }
    }
    await store.send(.stamp) { $0.ids = [UUID(sequenceNumber: 5)] }
  }
}
