/// A task executor that runs effect jobs only when asked, on the asking thread: the engine that makes a
/// `TestStore` deterministic.
///
/// Effects started by a store that has a runtime run on it, and so do the default actors they call. After
/// ``runUntilIdle()`` returns, every such effect has reached its next suspension point: there is no need to yield
/// and hope. A ``TestClock`` advanced by a test drains the runtimes of the sleepers it wakes before waking later ones.
///
/// ```swift
/// let runtime = TestRuntime()
/// let task = Task(executorPreference: runtime) { await work() }
/// runtime.runUntilIdle()   // `work()` has run up to its first suspension
/// ```
public final class TestRuntime: TaskExecutor, @unchecked Sendable {
  private let lock = Lock()
  private var jobs: [UnownedJob] = []
  private var head = 0
  private var isDraining = false
  private var waiters: [UInt64: UnsafeContinuation<Void, Never>] = [:]
  private var nextWaiter: UInt64 = 0
  private var liveTasks = 0
  private var blockedTasks = 0

  /// A runtime with no jobs.
  public init() {}

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let woken = lock.withLock {
      jobs.append(job)
      defer { waiters.removeAll() }
      return waiters.values
    }
    for waiter in woken { waiter.resume() }
  }

  /// Runs enqueued jobs on the calling thread until none is left; returns how many ran.
  ///
  /// A call made while this runtime is already draining (from inside one of its jobs) returns 0 at once.
  @discardableResult
  public func runUntilIdle() -> Int {
    let canDrain = lock.withLock {
      guard !isDraining else { return false }
      isDraining = true
      return true
    }
    guard canDrain else { return 0 }
    var count = 0
    while let job = nextJob() {
      job.runSynchronously(on: asUnownedTaskExecutor())
      count += 1
    }
    return count
  }

  private func nextJob() -> UnownedJob? {
    lock.withLock {
      guard head < jobs.count else {
        jobs.removeAll(keepingCapacity: true)
        head = 0
        isDraining = false
        return nil
      }
      defer { head += 1 }
      return jobs[head]
    }
  }

  /// Whether no job is waiting to run.
  public var isIdle: Bool { lock.withLock { head >= jobs.count } }

  /// Whether every task tracked by this runtime is suspended on something only the test can resume (a
  /// ``TestClock`` sleep, or waiting on such tasks): nothing will happen until the test acts.
  public var isQuiescent: Bool {
    lock.withLock { head >= jobs.count && blockedTasks >= liveTasks }
  }

  /// The number of tracked tasks that have not finished.
  public var runningTaskCount: Int { lock.withLock { liveTasks } }

  /// Suspends until a job is enqueued or `timeout` passes on the continuous clock. Returns whether work arrived.
  ///
  /// Used only when effects wait on something outside the runtime (another actor, real I/O). Each wait has its
  /// own timer, which wakes that wait only, and only when its time is really up: a timer cancelled because work
  /// arrived first must not cut short the next wait.
  public func waitForWork(timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let token = lock.withLock {
      defer { nextWaiter += 1 }
      return nextWaiter
    }
    let timer = Task.detached { [weak self] in
      do {
        try await ContinuousClock().sleep(until: deadline)
      } catch {
        return
      }
      self?.wakeWaiter(token)
    }
    defer { timer.cancel() }
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let resumeNow = lock.withLock {
        if head < jobs.count { return true }
        waiters[token] = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
    return !isIdle
  }

  private func wakeWaiter(_ token: UInt64) {
    let waiter = lock.withLock { waiters.removeValue(forKey: token) }
    waiter?.resume()
  }

  func taskStarted() { lock.withLock { liveTasks += 1 } }
  func taskFinished() { lock.withLock { liveTasks -= 1 } }
  func taskBlocked() { lock.withLock { blockedTasks += 1 } }
  func taskUnblocked() { lock.withLock { blockedTasks -= 1 } }

  /// The runtime the current task's effects run on, if any.
  @TaskLocal public static var current: TestRuntime?
}

import Foundation
