/// Sends into another store made by a thread that holds a store's lock to reduce: deferred until that thread lets
/// go of its outermost store, so a thread holding one store's lock never waits for another's.
///
/// Without this, two stores that send into each other from two threads deadlock: each thread holds its own store
/// and waits for the other's. With it no cycle of waits can form: a send waits for a store's lock only on a thread
/// that holds none.
///
/// ```swift
/// // Reducing `.tapped` on `app`, whose reducer calls `analytics.send(.logged("tapped"))`:
/// app.send(.tapped)   // `.tapped` and everything it feeds back are reduced, `app`'s lock is released,
///                     // then `.logged` is sent into `analytics` on this thread, before `send` returns.
/// ```
enum CrossStoreSends {
  /// Queues `send` on this thread until it lets go of its outermost store. Call with a store held.
  static func append(_ send: @escaping () -> Void, to context: UnsafeMutablePointer<ThreadContext>) {
    if context.pointee.outgoing?.append(send) == nil { context.pointee.outgoing = [send] }
  }

  /// Delivers the waiting sends, in the order they were made, once this thread holds no store; sends made while
  /// delivering (by the reducers they run) are delivered after them, by the same loop.
  @inline(never)
  static func deliver(_ context: UnsafeMutablePointer<ThreadContext>) {
    guard context.pointee.heldStores == nil, !context.pointee.isDeliveringOutgoing else { return }
    context.pointee.isDeliveringOutgoing = true
    while let sends = context.pointee.outgoing {
      context.pointee.outgoing = nil
      for send in sends { send() }
    }
    context.pointee.isDeliveringOutgoing = false
  }
}
