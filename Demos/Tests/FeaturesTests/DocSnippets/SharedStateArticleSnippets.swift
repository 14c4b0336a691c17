// swift-format-ignore-file
// The "Shared state" article's code (Sources/Unidirectional/Unidirectional.docc/SharedState.md), compiled and run
// here; Scripts/tests/test_doc_snippets.py checks that the article shows it verbatim. Not reformatted by
// swift-format, so that the article and this file stay the same text.
import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

struct SyncUp: Codable, Equatable, Identifiable, Sendable { let id: UUID; var title = "" }

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
  static var syncUps: Self { Self[.fileStorage(URL(fileURLWithPath: "sync-ups.json")), default: []] }
}

struct SyncUpsList: Reducer {
  struct State: Equatable { @Shared(.syncUps) var syncUps }
  enum Action: Equatable { case delete(SyncUp.ID) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .delete(id):
      _ = state.$syncUps.withLock { $0.remove(id: id) }  // the detail screen sees it too
      return .none
    }
  }
}

@Suite struct SharedStateArticleSnippets {
  @Test func deleting() async {
    let syncUp = SyncUp(id: UUID(0), title: "Design")
    @Shared(.syncUps) var syncUps = [syncUp]
    let store = TestStore(initialState: SyncUpsList.State()) { SyncUpsList() }
    await store.send(.delete(syncUp.id)) { $0.$syncUps.withLock { $0 = [] } }
  }
}
