/// A child store's view of an optional part of its parent's state: works while the part is present, refuses
/// actions (a runtime issue) once it is gone, and then keeps showing the child's state as of its last read or send.
final class OptionalScopedCore<ParentState, ParentAction: Sendable, State, Action: Sendable>:
  StoreCore<State, Action>, @unchecked Sendable
{
  private let parent: StoreCore<ParentState, ParentAction>
  private let toChildState: @Sendable (borrowing ParentState) -> State?
  private let embed: @Sendable (Action) -> ParentAction
  private let fileID: StaticString
  private let line: UInt
  /// The child's state when this store last read or sent while it was present: what readers see once it is gone.
  private let lastState: LockIsolated<State>

  init(
    parent: StoreCore<ParentState, ParentAction>,
    toChildState: @escaping @Sendable (borrowing ParentState) -> State?,
    embed: @escaping @Sendable (Action) -> ParentAction,
    initial: State,
    fileID: StaticString,
    line: UInt
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.embed = embed
    self.fileID = fileID
    self.line = line
    self.lastState = LockIsolated(initial)
  }

  override func send(_ action: Action) -> StoreTask {
    guard parent.withState({ toChildState($0) != nil }) else {
      reportIssue(
        """
        A store scoped at \(fileID):\(line) was sent \(describe(action)) after its state went away (the child was \
        dismissed or popped). Scope again: `store.scope(state:action:)` returns nil while the child is absent.
        """, fileID: fileID, line: line)
      return StoreTask()
    }
    let task = parent.send(embed(action))
    if let current = parent.withState({ toChildState($0) }) { lastState.setValue(current) }
    return task
  }

  override func withState<T>(_ body: (borrowing State) -> T) -> T {
    let current: State? = parent.withState { toChildState($0) }
    if let current {
      lastState.setValue(current)
      return body(current)
    }
    return body(lastState.value)
  }

  override func trackAccess() { parent.trackAccess() }

  /// The child's states while it is present; the stream ends when it goes away.
  override func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> {
    let toChildState = toChildState
    let upstream = parent.stream { state -> T? in
      guard let child = toChildState(state) else { return nil }
      return transform(child)
    }
    let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .unbounded)
    let forwarding = Task {
      for await value in upstream {
        guard let value else { break }
        continuation.yield(value)
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in forwarding.cancel() }
    return stream
  }
}
