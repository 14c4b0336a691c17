/// A clock whose time moves only when the test moves it.
///
/// Sleepers wake in deadline order (ties in the order they went to sleep). Before waking the next deadline,
/// `advance` runs the woken effects on their ``TestRuntime`` until they suspend again, so an effect that sleeps
/// again inside the advanced window wakes in the same `advance`, with no real-time yielding.
///
/// A sleep returns at once only when its deadline is strictly before `now`. A sleep until `now` itself — such as
/// `sleep(for: .zero)` — suspends until the next `advance`, which may be `advance(by: .zero)`: the same rule as
/// swift-clocks' `TestClock`, so a zero-length sleep is still a point where the test decides what runs next.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.clock = clock
/// }
/// await store.send(.uploadFinished) { $0.status = .success }
/// await clock.advance(by: .seconds(3))
/// await store.receive(.clearStatus) { $0.status = .idle }
/// ```
public final class TestClock: Clock, @unchecked Sendable {
  /// A point in a test clock's time: an offset from its start.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// Time since the clock started.
    public var offset: Duration

    /// The instant `offset` after the clock's start.
    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    public func duration(to other: Self) -> Duration { other.offset - offset }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "TestClock.Instant(\(offset))" }
  }

  private struct Sleeper {
    let deadline: Instant
    let sequence: UInt64
  }

  private struct Waiting {
    let continuation: UnsafeContinuation<Void, any Error>
    let runtime: TestRuntime?
    /// The sleeping task (``TestRuntime/currentTask``): its runtime waits for it after waking it.
    let task: UInt?
  }

  private let lock = Lock()
  private var _now: Instant
  private var heap = SleeperHeap()
  private var waiting: [UInt64: Waiting] = [:]
  /// Work scheduled with ``schedule(after:_:)``, run by `advance` at its deadline like a sleeper.
  private var scheduled: [UInt64: @Sendable () -> Void] = [:]
  private var cancelledEarly: Set<UInt64> = []
  private var nextSequence: UInt64 = 0

  /// A clock at `now` (its start by default).
  public init(now: Instant = Instant()) {
    self._now = now
  }

  public var now: Instant { lock.withLock { _now } }
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int { lock.withLock { waiting.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let runtime = TestRuntime.current
    let sequence = lock.withLock {
      defer { nextSequence += 1 }
      return nextSequence
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        enum Outcome { case wait, resume, cancel }
        let outcome: Outcome = lock.withLock {
          if cancelledEarly.remove(sequence) != nil { return .cancel }
          // As swift-clocks' TestClock: only a deadline strictly in the past returns at once; a sleep until `now`
          // (`sleep(for: .zero)`) waits for the next `advance`, even `advance(by: .zero)`.
          if deadline < _now { return .resume }
          waiting[sequence] = Waiting(continuation: continuation, runtime: runtime, task: TestRuntime.currentTask)
          heap.insert(Sleeper(deadline: deadline, sequence: sequence))
          return .wait
        }
        switch outcome {
        case .wait: runtime?.taskBlocked()
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let cancelled: Waiting? = lock.withLock {
        if let entry = waiting.removeValue(forKey: sequence) { return entry }
        cancelledEarly.insert(sequence)
        return nil
      }
      if let cancelled {
        cancelled.runtime?.taskUnblocked()
        cancelled.continuation.resume(throwing: CancellationError())
      }
    }
    // Woken, then cancelled before it ran (by an effect woken at the same deadline): it ends as a sleep cancelled
    // while waiting does, as with swift-clocks. The cancellation handler found it already woken and left a mark.
    let cancelledAfterWaking = lock.withLock { cancelledEarly.remove(sequence) != nil }
    if cancelledAfterWaking || Task.isCancelled { throw CancellationError() }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline is reached, in deadline order.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline` (never backwards), waking sleepers in deadline order.
  ///
  /// Before time moves, and after each deadline's sleepers wake, the effects of the test's stores run until each
  /// is suspended again: an effect on its way to a sleep (even by way of the main actor) registers it first. The
  /// sleepers of one deadline are all resumed before any of them runs, and then run in the order they went to
  /// sleep, followed by what they started: one order, every run.
  public func advance(to deadline: Instant) async {
    let known = knownRuntimes()
    let current = TestRuntime.current
    await settle(known)
    while let (_, woken, actions) = popDue(until: deadline) {
      for action in actions { action() }
      var runtimes: [TestRuntime] = []
      for entry in woken {
        if let runtime = entry.runtime, !runtimes.contains(where: { $0 === runtime }) { runtimes.append(runtime) }
      }
      // Held while they are resumed: a background drain must not run the first before the last is resumed.
      for runtime in runtimes { runtime.hold() }
      for entry in woken {
        // The runtime of an effect that advances the clock only drains (see `settle`): it waits for no woken task.
        entry.runtime?.taskWoken(entry.runtime === current ? nil : entry.task)
        entry.continuation.resume()
      }
      for runtime in runtimes { runtime.release() }
      await settle(runtimes + known.filter { known in !runtimes.contains { $0 === known } })
    }
    lock.withLock { if _now < deadline { _now = deadline } }
  }

  /// Advances to each next deadline until no task sleeps on this clock (at most `limit` deadlines).
  public func run(limit: Int = 100_000) async {
    for _ in 0..<limit {
      guard let next = lock.withLock({ nextDeadline() }) else { return }
      await advance(to: next)
    }
  }

  /// Wakes the sleepers with the earliest deadline not after `deadline`, setting `now` to it.
  private func popDue(until deadline: Instant) -> (Instant, [Waiting], [@Sendable () -> Void])? {
    lock.withLock {
      guard let first = nextDeadline(), first <= deadline else { return nil }
      _now = max(_now, first)
      var woken: [Waiting] = []
      var actions: [@Sendable () -> Void] = []
      while let top = heap.peek, top.deadline == first {
        heap.removeFirst()
        if let entry = waiting.removeValue(forKey: top.sequence) { woken.append(entry) }
        if let action = scheduled.removeValue(forKey: top.sequence) { actions.append(action) }
      }
      return (first, woken, actions)
    }
  }

  private func nextDeadline() -> Instant? {
    while let top = heap.peek {
      if waiting[top.sequence] != nil || scheduled[top.sequence] != nil { return top.deadline }
      heap.removeFirst()
    }
    return nil
  }

  /// Runs `action` when the clock is advanced `delay` past now, without a task: work that must happen at a time
  /// but has nothing to suspend (a debounced save). Returns how to cancel it.
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let sequence: UInt64 = lock.withLock {
      let sequence = nextSequence
      nextSequence += 1
      scheduled[sequence] = action
      heap.insert(Sleeper(deadline: _now.advanced(by: delay), sequence: sequence))
      return sequence
    }
    return { [weak self] in
      guard let self else { return }
      _ = self.lock.withLock { self.scheduled.removeValue(forKey: sequence) }
    }
  }

  /// The runtimes whose effects may sleep on this clock: those of its sleepers and those of the current test's stores.
  private func knownRuntimes() -> [TestRuntime] {
    var runtimes: [TestRuntime] = []
    func add(_ runtime: TestRuntime) {
      if !runtimes.contains(where: { $0 === runtime }) { runtimes.append(runtime) }
    }
    lock.withLock { for entry in waiting.values { entry.runtime.map(add) } }
    TestRuntimes.ofCurrentTest.forEach(add)
    return runtimes
  }

  /// Lets the effects of `runtimes` that are about to sleep register before time moves. From inside an effect (a
  /// test double that advances the clock), its own runtime is running that effect: it only runs what is queued.
  private func settle(_ runtimes: [TestRuntime]) async {
    let current = TestRuntime.current
    for runtime in runtimes where runtime !== current { await runtime.settle(defersCompletions: true) }
    current?.runUntilIdle()
  }

  /// A binary min-heap ordered by (deadline, sequence).
  private struct SleeperHeap {
    private var storage: [Sleeper] = []

    var peek: Sleeper? { storage.first }

    mutating func insert(_ sleeper: Sleeper) {
      storage.append(sleeper)
      var child = storage.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard Self.precedes(storage[child], storage[parent]) else { break }
        storage.swapAt(child, parent)
        child = parent
      }
    }

    mutating func removeFirst() {
      guard !storage.isEmpty else { return }
      storage.swapAt(0, storage.count - 1)
      storage.removeLast()
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < storage.count, Self.precedes(storage[left], storage[smallest]) { smallest = left }
        if right < storage.count, Self.precedes(storage[right], storage[smallest]) { smallest = right }
        guard smallest != parent else { return }
        storage.swapAt(parent, smallest)
        parent = smallest
      }
    }

    private static func precedes(_ lhs: Sleeper, _ rhs: Sleeper) -> Bool {
      lhs.deadline < rhs.deadline || (lhs.deadline == rhs.deadline && lhs.sequence < rhs.sequence)
    }
  }
}
