import Foundation
import Unidirectional

/// The feature of the committed emitted test (`ChecklistSessionTests.swift`): a shared list of items, each made
/// with a UUID and the date, a draft typed through an action, a filter, tags, and a sync on the clock whose
/// effect reads the date.
struct Checklist: Reducer {
  struct Item: Codable, Equatable, Sendable {
    let id: UUID
    var title: String
    var isDone = false
    var addedAt: Date
  }

  enum Filter: String, Codable, Equatable, Sendable {
    case all, open
  }

  enum Sync: Codable, Equatable, Sendable {
    case syncing(count: Int)
    case synced(Date)
  }

  struct State: Codable, Equatable, Sendable {
    @Shared var items: [Item]
    var draft = ""
    var filter = Filter.all
    var tags: Set<String> = []
    var sync: Sync?
  }

  enum Action: Codable, Equatable, Sendable {
    case draftChanged(String)
    case addTapped
    case toggle(UUID)
    case filterChanged(Filter)
    case tag(String)
    case syncTapped
    case syncFinished(at: Date)
  }

  /// Whether sync finishes: a variant without that effect is a changed reducer of the tests.
  var syncFinishes = true
  /// Whether tags are kept in capitals: another changed reducer.
  var capitalizesTags = false

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .draftChanged(text):
      state.draft = text
      return .none
    case .addTapped:
      let item = Item(id: uuid(), title: state.draft, addedAt: date.now)
      state.$items.withLock { $0.append(item) }
      state.draft = ""
      return .none
    case let .toggle(id):
      state.$items.withLock { items in
        if let index = items.firstIndex(where: { $0.id == id }) { items[index].isDone.toggle() }
      }
      return .none
    case let .filterChanged(filter):
      state.filter = filter
      return .none
    case let .tag(tag):
      state.tags.insert(capitalizesTags ? tag.uppercased() : tag)
      return .none
    case .syncTapped:
      state.sync = .syncing(count: state.items.count)
      guard syncFinishes else { return .none }
      let (clock, date) = (clock, date)
      return .run { send in
        try await clock.sleep(for: .seconds(2))
        send(.syncFinished(at: date.now))
      }
    case let .syncFinished(at):
      state.sync = .synced(at)
      return .none
    }
  }
}
