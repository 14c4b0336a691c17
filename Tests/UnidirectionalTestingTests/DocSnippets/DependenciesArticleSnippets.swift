// swift-format-ignore-file
// The "Dependencies" article's code (Sources/Unidirectional/Unidirectional.docc/Dependencies.md), compiled and run
// here; Scripts/tests/test_doc_snippets.py checks that the article shows it verbatim. Not reformatted by
// swift-format, so that the article and this file stay the same text.
import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

struct NumberFactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let liveValue = NumberFactClient { number in "\(number) is a good number" }
  static let testValue = NumberFactClient { _ in
    reportIssue("NumberFactClient.fetch is not overridden in this test")
    return ""
  }
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

struct NumberFact: Reducer {
  struct State: Equatable { var count = 0; var fact: String? }
  enum Action: Equatable { case factButtonTapped, factLoaded(String) }
  @Dependency(\.numberFact) var numberFact

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .factButtonTapped:
      return .run { [count = state.count] send in send(.factLoaded(try await numberFact.fetch(count))) }
    case let .factLoaded(fact):
      state.fact = fact
      return .none
    }
  }
}

/// A list whose rows get their ids from the `uuid` dependency.
struct Rows: Reducer {
  struct State: Equatable { var ids: [UUID] = [] }
  enum Action: Equatable { case addTapped }
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.ids.append(uuid())
    return .none
  }
}

struct RowsParent: Reducer {
  struct State: Equatable { var rows = Rows.State() }
  enum Action: Equatable {
    case rows(Rows.Action)
    static let rowsCase = CasePath(Action.rows) { if case let .rows(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.rows, action: Action.rowsCase) {
      Rows().dependency(\.uuid, .incrementing)  // this subtree only
    }
  }
}

@Suite struct DependenciesArticleSnippets {
  @Test func aTestOverridesTheClient() async {
    let store = TestStore(initialState: NumberFact.State()) { NumberFact() } withDependencies: {
      $0.numberFact.fetch = { "\($0) is the test's number" }
    }
    await store.send(.factButtonTapped)
    await store.receive(.factLoaded("0 is the test's number")) { $0.fact = "0 is the test's number" }
  }

  @Test func aSubtreeGetsItsOwnUUIDs() async {
    let store = TestStore(initialState: RowsParent.State()) { RowsParent() }
    await store.send(.rows(.addTapped)) { $0.rows.ids = [UUID(0)] }
  }

  @Test func withDependenciesReachesTheStoresItMakes() {
    let store = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      Store(initialState: Rows.State()) { Rows() }
    }
    store.send(.addTapped)
    store.send(.addTapped)
    #expect(store.ids == [UUID(0), UUID(1)])
  }
}
