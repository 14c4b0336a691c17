/// What a ``Store`` needs from whatever runs its reducer: the root runtime, or a scope of a parent.
class StoreCore<State, Action: Sendable>: @unchecked Sendable {
  func send(_ action: Action) -> StoreTask { fatalError("abstract") }
  func withState<T>(_ body: (borrowing State) -> T) -> T { fatalError("abstract") }
  /// The current state, then the state after every batch of reduced actions, each passed through `transform`.
  func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> { fatalError("abstract") }
  /// Marks the state as read through an observation-tracked path, so later changes notify observers.
  func trackAccess() {}
}

/// What the hot path of a root core reads, outside any generic context: touching a generic struct from the
/// store's unspecialized code instantiates its metadata on every call (measured: 60% of `send`).
struct StoreFlags {
  var isInvalidated = false
  var isObserved = false
  var hasStreams = false
  /// Actions were sent on the reducing thread (re-entrantly) and wait in the queue.
  var hasQueued = false
  /// While a thread holds this store's lock to reduce: the store that thread held before, if any.
  var outerHeld: UnsafeMutablePointer<StoreFlags>?
}
