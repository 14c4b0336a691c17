/// Feeds actions from an effect back into the store that runs it.
///
/// A `Send` is handed to the operation of ``Effect/run(priority:operation:catch:)``. Calling it is synchronous:
/// the store reduces the action (or queues it, when another action is being reduced) and returns.
///
/// ```swift
/// return .run { send in
///   for await event in client.events() {
///     send(.event(event))
///   }
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  let deliver: @Sendable (Action) -> Void

  /// Creates a `Send` that hands each action to `deliver`. Useful for calling an effect's operation in a test.
  public init(_ deliver: @escaping @Sendable (Action) -> Void) {
    self.deliver = deliver
  }

  /// Sends `action` back into the store, unless the effect has been cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}
