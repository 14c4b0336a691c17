/// Events a service pushes — a socket's frames, purchase updates, a stream of progress — as a test double: the test
/// feeds them, the feature iterates them, and under an interleaving explorer each element's delivery is a choice
/// point, so an event may arrive before or after any of the user's actions that follow its `yield`.
///
/// Outside an explored run it is a plain stream: an element the test yields goes to the waiting iterator at once.
/// An iterator waiting for an element counts as waiting on the test (a `receive` says so at once instead of
/// waiting its timeout); one whose task is cancelled ends (returns `nil`), as an `AsyncStream`'s does.
///
/// ```swift
/// let frames = RacingStream<String>()
/// let store = TestStore(initialState: Chat.State()) { Chat() } withDependencies: {
///   $0.socket.frames = { frames.stream }
/// }
/// await store.send(.connect)
/// frames.yield("hello")                     // delivered when the explorer chooses, at the latest when needed
/// await store.receive(.frame("hello")) { $0.messages = ["hello"] }
/// frames.finish()
/// ```
public final class RacingStream<Element: Sendable>: AsyncSequence, Sendable {
  public typealias Failure = any Error

  /// What a waiting iterator is handed: the next element or the end, and the racing call that delivered it.
  private typealias Delivery = (result: Result<Element?, any Error>, call: UInt64?)

  private struct Consumer {
    let id: UInt64
    let runtime: TestRuntime?
    let caller: ScheduleLabel?
    let resume: @Sendable (Delivery) -> Void
    /// The racing call of its delivery, once an element waits for it (explored runs only).
    var call: UInt64?
  }

  private struct State {
    var elements: [Element] = []
    var end: Result<Void, any Error>?
    var consumers: [Consumer] = []
    var nextConsumer: UInt64 = 0
    /// Consumers cancelled before they started waiting.
    var cancelled: Set<UInt64> = []
    var delivered = 0
  }

  private let state = LockIsolated(State())
  /// Where it was made, which names it in a printed schedule.
  private let fileID: StaticString
  private let line: UInt

  /// A stream with no elements yet, named in a printed schedule by where it was made.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    (self.fileID, self.line) = (fileID, line)
  }

  /// Adds `element`: the next iterator to ask gets it (under an explorer, when the explorer delivers it).
  public func yield(_ element: Element) {
    let deliveries = state.withLock { state in
      state.elements.append(element)
      return schedule(&state)
    }
    for delivery in deliveries { delivery() }
  }

  /// Ends the stream after the elements already yielded: iterators then get `nil`, or `error` if there is one.
  public func finish(throwing error: (any Error)? = nil) {
    let deliveries = state.withLock { state in
      guard state.end == nil else { return [] as [() -> Void] }
      state.end = error.map { .failure($0) } ?? .success(())
      return schedule(&state)
    }
    for delivery in deliveries { delivery() }
  }

  /// The elements as an `AsyncThrowingStream`, the type a dependency usually returns.
  public var stream: AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream(unfolding: { try await self.next() })
  }

  /// The elements as an `AsyncStream` (an error the stream finishes with ends it).
  public var nonThrowingStream: AsyncStream<Element> {
    AsyncStream(unfolding: { try? await self.next() })
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }

  /// Iterates a ``RacingStream``.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let stream: RacingStream

    public mutating func next() async throws -> Element? { try await stream.next() }
  }

  /// The next element, when it is delivered; `nil` at the end or once the task is cancelled.
  private func next() async throws -> Element? {
    guard !Task.isCancelled else { return nil }
    let runtime = TestRuntime.current
    let caller = runtime?.runningTaskLabel
    let id = state.withLock { state in
      defer { state.nextConsumer += 1 }
      return state.nextConsumer
    }
    let delivery = await TestRuntime.waitingOnTheTest {
      await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Delivery, Never>) in
          let deliveries = state.withLock { state in
            if state.cancelled.remove(id) != nil { return [{ continuation.resume(returning: (.success(nil), nil)) }] }
            state.consumers.append(
              Consumer(id: id, runtime: runtime, caller: caller, resume: { continuation.resume(returning: $0) }))
            return schedule(&state)
          }
          for delivery in deliveries { delivery() }
        }
      } onCancel: {
        cancel(id)
      }
    }
    // The element is in hand: the explorer's delivery of it is over.
    if let call = delivery.call { runtime?.racingCallAnswered(call) }
    return try delivery.result.get()
  }

  /// What to do, outside the lock, for the consumers an element or the end now waits for: under an explorer, park
  /// the delivery as a racing call (the element is taken when the explorer completes it); otherwise hand the element
  /// over at once. Call with the lock held.
  private func schedule(_ state: inout State) -> [() -> Void] {
    var deliveries: [() -> Void] = []
    while let index = state.consumers.firstIndex(where: { $0.call == nil }),
      state.end != nil || state.elements.count > state.consumers.count(where: { $0.call != nil })
    {
      let consumer = state.consumers[index]
      guard let runtime = consumer.runtime, runtime.isExplored else {
        state.consumers.remove(at: index)
        let result = Self.take(from: &state)
        deliveries.append { consumer.resume((result, nil)) }
        continue
      }
      let call = runtime.makeRacingCall()
      state.consumers[index].call = call
      state.delivered += 1
      let site = RacingSite(element: state.delivered, ofStreamAt: fileID, line: line)
      deliveries.append { [self] in
        runtime.park(call, at: site, caller: consumer.caller) { self.deliver(to: consumer.id, completed: $0) }
      }
    }
    return deliveries
  }

  /// Hands consumer `id` the next element (or the end) — nil when its delivery was cancelled.
  private func deliver(to id: UInt64, completed: Bool) {
    let delivery: (Consumer, Result<Element?, any Error>)? = state.withLock { state in
      guard let index = state.consumers.firstIndex(where: { $0.id == id }) else { return nil }
      let consumer = state.consumers.remove(at: index)
      return (consumer, completed ? Self.take(from: &state) : .success(nil))
    }
    if let (consumer, result) = delivery { consumer.resume((result, consumer.call)) }
  }

  /// Consumer `id`'s task was cancelled: it ends, its delivery (if parked) cancelled.
  private func cancel(_ id: UInt64) {
    let consumer: Consumer? = state.withLock { state in
      guard let index = state.consumers.firstIndex(where: { $0.id == id }) else {
        state.cancelled.insert(id)
        return nil
      }
      guard state.consumers[index].call == nil else { return state.consumers[index] }
      return state.consumers.remove(at: index)
    }
    guard let consumer else { return }
    if let call = consumer.call, let runtime = consumer.runtime {
      runtime.cancelRacingCall(call)
    } else {
      consumer.resume((.success(nil), nil))
    }
  }

  /// The oldest element, or the end. Call with the lock held, with one of them there.
  private static func take(from state: inout State) -> Result<Element?, any Error> {
    if !state.elements.isEmpty { return .success(state.elements.removeFirst()) }
    switch state.end {
    case .failure(let error)?:
      return .failure(error)
    default:
      return .success(nil)
    }
  }
}
