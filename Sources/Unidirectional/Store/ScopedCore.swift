/// A child store's view of its parent: reads through a key path, sends through an embedding.
final class ScopedCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: StoreCore<State, Action>,
  @unchecked Sendable
{
  private let parent: StoreCore<ParentState, ParentAction>
  private let toChildState: KeyPath<ParentState, State>
  private let embed: @Sendable (Action) -> ParentAction

  init(
    parent: StoreCore<ParentState, ParentAction>,
    toChildState: KeyPath<ParentState, State>,
    embed: @escaping @Sendable (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.embed = embed
  }

  override func send(_ action: Action) -> StoreTask {
    parent.send(embed(action))
  }

  override func withState<T>(_ body: (borrowing State) -> T) -> T {
    parent.withState { body($0[keyPath: toChildState]) }
  }

  override func trackAccess() { parent.trackAccess() }

  override func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> {
    let toChildState = toChildState
    return parent.stream { transform($0[keyPath: toChildState]) }
  }
}
