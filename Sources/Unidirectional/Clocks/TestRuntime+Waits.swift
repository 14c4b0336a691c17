import Foundation

/// The test runtime's waits: for work to arrive, for a main-actor round trip, and ``settle(timeout:defersCompletions:)``,
/// which a `TestStore` and a ``TestClock`` use to let effects reach their next suspension point.
///
/// Each wait is registered before the tasks that can end it start, and a waker that runs before the wait suspends
/// leaves its word instead of resuming it: no wake-up is lost, whichever runs first.
///
/// ```swift
/// await runtime.settle()   // every effect is suspended on the test clock, finished, or waiting outside the test
/// ```
extension TestRuntime {
  /// Suspends until a job is enqueued or `timeout` passes on the continuous clock. Returns whether work arrived.
  ///
  /// Used only when effects wait on something outside the runtime (another actor, real I/O). Each wait has its
  /// own timer, which wakes that wait only, and only when its time is really up: a timer cancelled because work
  /// arrived first must not cut short the next wait.
  package func waitForWork(timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    return await suspend { [weak self] token in
      [
        Task.detached {
          do {
            try await ContinuousClock().sleep(until: deadline)
          } catch {
            return
          }
          self?.wakeWaiter(token, .timedOut)
        }
      ]
    } == .workArrived
  }

  /// What ended a wait of the test on its runtime.
  package enum WaitEnd: Equatable, Sendable {
    /// A job was enqueued on the runtime.
    case workArrived
    /// The main actor ran what had been queued on it before the wait began.
    case mainActorRan
    /// The wait's timer ran out.
    case timedOut
  }

  /// A wait of the test, from the moment it is registered.
  enum Waiter {
    /// Registered, not yet suspended.
    case starting
    /// Woken before it suspended: it does not suspend.
    case woken(WaitEnd)
    case suspended(UnsafeContinuation<WaitEnd, Never>)
  }

  /// Suspends until a job is enqueued or a task that `wakers` starts calls `wakeWaiter` with the wait's token.
  ///
  /// The wait is registered before the wakers start: a waker that ran before its wait was registered found nothing
  /// to wake, and the wait lasted until work happened to arrive (issue 45: a `send` stalled for its whole one-second
  /// timer, then ran what it should have left suspended). A waker that runs before the wait suspends leaves its word
  /// for it (``Waiter/woken(_:)``), so the wait is resumed by another thread only once it has suspended. The wakers
  /// are cancelled when it ends.
  fileprivate func suspend(wakers: (_ token: UInt64) -> [Task<Void, Never>]) async -> WaitEnd {
    let token = lock.withLock {
      defer { nextWaiter += 1 }
      waiters[nextWaiter] = .starting
      return nextWaiter
    }
    let started = wakers(token)
    let end = await withUnsafeContinuation { (continuation: UnsafeContinuation<WaitEnd, Never>) in
      let now: WaitEnd? = lock.withLock {
        if head < jobs.count {
          waiters[token] = nil
          return .workArrived
        }
        if case let .woken(end)? = waiters[token] {
          waiters[token] = nil
          return end
        }
        waiters[token] = .suspended(continuation)
        return nil
      }
      if let now { continuation.resume(returning: now) }
    }
    for waker in started { waker.cancel() }
    return end
  }

  fileprivate func wakeWaiter(_ token: UInt64, _ end: WaitEnd) {
    let continuation: UnsafeContinuation<WaitEnd, Never>? = lock.withLock {
      switch waiters[token] {
      case .starting:
        waiters[token] = .woken(end)
        return nil
      case let .suspended(continuation):
        waiters[token] = nil
        return continuation
      case .woken, nil:
        return nil
      }
    }
    continuation?.resume(returning: end)
  }

  /// Runs jobs until every tracked task is suspended on something only the test can resume (a ``TestClock``
  /// sleep), or is waiting for something outside the test (real I/O): what a ``TestClock`` does before it moves
  /// time, so that no effect is still on its way to a sleep.
  ///
  /// A task that is neither runnable here nor blocked on a test clock may be on the main actor: in an Xcode 26 app
  /// target an effect that reads its reducer's `@Dependency var clock` hops there before it sleeps. The main actor
  /// runs its jobs in order, so a job queued on it now runs after that hop; once it has run, the task is back here
  /// (or really waiting elsewhere). Each round is one such round trip, bounded by `timeout` in case nothing serves
  /// the main actor; a round that brings no work back ends the wait. The bound is generous: a test runner always
  /// serves the main actor, but other tests' main-actor work can hold it for seconds when a whole suite runs in
  /// parallel on a loaded machine, and a round cut short leaves an effect half-way (a dismissal not yet made).
  ///
  /// A task that a ``TestClock`` woke is waited for until it blocks on the test again or finishes, however many
  /// round trips that takes: an Xcode 26 target's effect that reads `self.clock` to sleep, then `self.socket` to
  /// call a `@MainActor` test double, goes to the main actor and back twice before its next sleep. Once the wait
  /// ends the woken tasks are forgotten: those still away wait on something else (a stream, real I/O).
  package func settle(timeout: Duration = .seconds(10), defersCompletions: Bool = false) async {
    hold()
    defer {
      lock.withLock { wokenTasks.removeAll() }
      release()
    }
    for _ in 0..<1_000 {
      _ = runUntilIdle(defersCompletions: defersCompletions)
      if isQuiescent { return }
      let end = await waitForMainActor(timeout: timeout)
      guard end == .workArrived || !isIdle else { return }
    }
  }

  /// Suspends until a job is enqueued here, or the main actor has run what was queued on it before this call, or
  /// `timeout` passes.
  package func waitForMainActor(timeout: Duration) async -> WaitEnd {
    let end = await suspend { [weak self] token in
      [
        Task { @MainActor in self?.wakeWaiter(token, .mainActorRan) },
        Task.detached {
          do {
            try await ContinuousClock().sleep(for: timeout)
          } catch {
            return
          }
          self?.wakeWaiter(token, .timedOut)
        },
      ]
    }
    if end == .timedOut { lock.withLock { mainActorWaitsTimedOut += 1 } }
    return end
  }

  /// How many waits for a main-actor round trip ended at their timer: a main actor that nobody serves, or a lost
  /// wake-up.
  package var mainActorWaitTimeouts: Int { lock.withLock { mainActorWaitsTimedOut } }
}
