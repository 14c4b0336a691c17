/// A task executor that runs effect jobs one at a time, and lets a test wait until every effect has reached its
/// next suspension point: the engine that makes a `TestStore` deterministic.
///
/// Effects started by a store that has a runtime run on it, and so do the default actors they call. After
/// ``runUntilIdle()`` returns, every such effect has reached its next suspension point: there is no need to yield
/// and hope. A ``TestClock`` advanced by a test drains the runtimes of the sleepers it wakes before waking later ones.
///
/// Between those points, work that something outside the test makes ready (a real clock's timer fired, real I/O
/// finished) runs on a background thread, as effects do in TCA while a test awaits something else: a test that
/// sleeps for real while a live timer ticks receives the ticks. Effects that wait only on a ``TestClock`` never
/// become ready without the test, so between the test's calls nothing runs and every order stays deterministic.
///
/// ```swift
/// let runtime = TestRuntime()
/// let task = Task(executorPreference: runtime) { await work() }
/// runtime.runUntilIdle()   // `work()` has run up to its first suspension
/// ```
public final class TestRuntime: TaskExecutor, @unchecked Sendable {
  let lock = Lock()
  /// Held by the thread that runs jobs, for the whole drain: jobs run one at a time, and a test that asks to run
  /// them waits for a background drain to finish.
  private let drainLock = Lock()
  var jobs: [UnownedJob] = []
  var head = 0
  /// The thread running jobs now, if any.
  private var drainer: pthread_t?
  private var isBackgroundDrainScheduled = false
  /// While positive, a test store operation is under way: only the test runs jobs, at the points it chooses.
  private var holds = 0
  private let background = DispatchQueue(label: "unidirectional.test-runtime")
  /// Each resumed with what ended its wait.
  var waiters: [UInt64: Waiter] = [:]
  var nextWaiter: UInt64 = 0
  var mainActorWaitsTimedOut = 0
  private var liveTasks = 0
  private var blockedTasks = 0
  /// The tasks a ``TestClock`` woke during a ``settle()`` that have not blocked on the test again nor finished, by
  /// identity. A woken task-group child is not one of the live tasks counted above (only effects are), so the counts
  /// can say "quiescent" while it is still on its way to its next sleep — by way of the main actor, say.
  var wokenTasks: Set<UInt> = []
  /// Chooses what runs next whenever more than one thing is ready (an interleaving explorer); nil: first in,
  /// first out.
  private let chooser: (any ScheduleChooser)?
  /// What an explored runtime keeps besides its jobs: racing calls waiting, labels, problems. Guarded by `lock`.
  var exploration = Exploration()

  /// A runtime with no jobs.
  public init() {
    chooser = nil
    describesChoices = false
  }

  /// A runtime whose every choice `chooser` makes: one explored schedule. It never drains in the background, so
  /// only the test's calls run its jobs, and a schedule replays the same way every time.
  package init(chooser: any ScheduleChooser) {
    self.chooser = chooser
    describesChoices = chooser.describesChoices
    holds = 1
  }

  /// Whether a chooser decides this runtime's order (racing calls wait for it only then).
  package var isExplored: Bool { chooser != nil }

  /// Whether the chooser wants the choice points in words (a run that is printed): tasks, the test's steps and
  /// racing calls are then labelled.
  package let describesChoices: Bool

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let (woken, schedulesDrain) = lock.withLock {
      jobs.append(job)
      if describesChoices { exploration.label(enqueued: Self.identity(of: job)) }
      // A wait not yet suspended sees the job itself when it suspends.
      var woken: [UnsafeContinuation<WaitEnd, Never>] = []
      for (token, waiter) in waiters {
        guard case let .suspended(continuation) = waiter else { continue }
        woken.append(continuation)
        waiters[token] = nil
      }
      return (woken, scheduleBackgroundDrainIfNeeded())
    }
    for waiter in woken { waiter.resume(returning: .workArrived) }
    if schedulesDrain { background.async { [weak self] in self?.drainInBackground() } }
  }

  /// Stops background drains until ``release()``: a test store's `send` asserts the state before the effects it
  /// started run, as in TCA.
  package func hold() {
    lock.withLock { holds += 1 }
  }

  /// Ends a ``hold()``; work that became ready meanwhile runs in the background again.
  package func release() {
    let schedulesDrain = lock.withLock {
      holds -= 1
      return scheduleBackgroundDrainIfNeeded()
    }
    if schedulesDrain { background.async { [weak self] in self?.drainInBackground() } }
  }

  /// Whether to schedule a background drain now. Call with `lock` held.
  private func scheduleBackgroundDrainIfNeeded() -> Bool {
    guard holds == 0, head < jobs.count, !isBackgroundDrainScheduled else { return false }
    isBackgroundDrainScheduled = true
    return true
  }

  /// Runs enqueued jobs on the calling thread until none is left; returns how many ran. If another thread is
  /// running jobs, waits for it to finish first.
  ///
  /// A call made from inside one of this runtime's jobs returns 0 at once.
  @discardableResult
  public func runUntilIdle() -> Int {
    drain(inBackground: false) { false }
  }

  /// ``runUntilIdle()`` at a point where the test goes on without needing effects to progress (after a `send`): an
  /// explorer may leave racing calls waiting here.
  package func runUntilIdle(defersCompletions: Bool) -> Int {
    drain(inBackground: false) { defersCompletions }
  }

  /// ``runUntilIdle()`` where the test needs some of the racing calls waiting (a `receive` its action): they
  /// complete one at a time, in the order the explorer chooses, until `isSatisfied` says the test has what it needs;
  /// from then on they may stay waiting.
  @discardableResult
  package func runUntilIdle(completingRacingCallsUntil isSatisfied: () -> Bool) -> Int {
    drain(inBackground: false, until: isSatisfied)
  }

  /// Runs what became ready while the test was elsewhere, unless a test store operation holds the runtime.
  private func drainInBackground() {
    lock.withLock { isBackgroundDrainScheduled = false }
    _ = drain(inBackground: true) { false }
  }

  private func drain(inBackground: Bool, until isSatisfied: () -> Bool) -> Int {
    let thread = pthread_self()
    let isReentrant = lock.withLock { drainer.map { pthread_equal($0, thread) != 0 } ?? false }
    guard !isReentrant else { return 0 }
    drainLock.lock()
    // Checked with the drain lock held: a hold that began while this drain waited for it wins.
    let isHeld = lock.withLock {
      guard !inBackground || holds == 0 else { return true }
      drainer = thread
      return false
    }
    guard !isHeld else {
      drainLock.unlock()
      return 0
    }
    defer {
      lock.withLock { drainer = nil }
      drainLock.unlock()
    }
    var count = 0
    while let step = nextStep(until: isSatisfied) {
      switch step {
      case let .run(job): job.runSynchronously(on: asUnownedTaskExecutor())
      case let .complete(call): complete(call)
      }
      count += 1
    }
    return count
  }

  private enum Step {
    case run(UnownedJob)
    case complete(Exploration.Waiting)
  }

  /// The next step: a job to run or a racing call to complete, or nil when there is nothing (more) to do.
  private func nextStep(until isSatisfied: () -> Bool) -> Step? {
    // `isSatisfied` is asked outside the lock (it reads the test store's journal or effects), and only where racing
    // calls are all that is left to do.
    var satisfied: Bool?
    while true {
      switch nextStep(satisfied: satisfied) {
      case let .step(step): return step
      case .asks: satisfied = isSatisfied()
      }
    }
  }

  private enum Next {
    case step(Step?)
    /// Only racing calls are left: whether the test has what it needs decides whether they may stay waiting.
    case asks
  }

  private func nextStep(satisfied: Bool?) -> Next {
    lock.withLock {
      if chooser != nil, satisfied == nil, head >= jobs.count, !exploration.waiting.isEmpty { return .asks }
      return .step(takeStep(satisfied: satisfied ?? true))
    }
  }

  /// The oldest ready job; with a chooser and more than one option, the one it chooses. Call with the lock held.
  private func takeStep(satisfied: Bool) -> Step? {
    let ready = jobs.count - head
    guard let chooser, ready > 1 || !exploration.waiting.isEmpty else {
      guard ready > 0 else {
        jobs.removeAll(keepingCapacity: true)
        head = 0
        if chooser != nil { exploration.running = nil }
        return nil
      }
      defer { head += 1 }
      if chooser != nil { exploration.running = Self.identity(of: jobs[head]) }
      return .run(jobs[head])
    }
    // Ready jobs first in, first out, then the waiting racing calls in the order they were made. Where the test
    // goes on without needing progress, leaving the calls waiting comes first: a racing answer arrives as late as
    // the test allows unless the explorer makes it early. Calls that answered without end since the test's last
    // step wait (``Exploration/isSpinning``).
    let completes = !exploration.isSpinning
    let defers = ready == 0 && (satisfied || !completes)
    var options = defers ? [ScheduleOption.deferCompletions] : []
    options += jobs[head...].map { ScheduleOption.job(task: Self.identity(of: $0)) }
    if completes { options += exploration.waiting.map { .completion(call: $0.call) } }
    var chosen = 0
    let isCompletion: Bool
    if case .completion = options[0] { isCompletion = true } else { isCompletion = false }
    // A choice point, or a racing call completed without a choice: a printed schedule says where it answered.
    if options.count > 1 || (isCompletion && describesChoices) {
      let point =
        describesChoices
        ? ChoicePoint(options: options, labels: exploration.labels(of: options), step: exploration.step)
        : ChoicePoint(options: options)
      if options.count > 1 {
        chosen = min(max(chooser.choose(point), 0), options.count - 1)
      } else {
        chooser.didComplete(point)
      }
    }
    let choice = chosen - (defers ? 1 : 0)
    exploration.running = nil
    if choice < 0 { return nil }
    if choice < ready {
      let job = jobs.remove(at: head + choice)
      exploration.running = Self.identity(of: job)
      return .run(job)
    }
    return .complete(exploration.take(at: choice - ready))
  }

  /// Completes a racing call the chooser chose: resumes its caller and runs it at once — with whatever the answer
  /// makes ready, oldest first, without choices — until the caller has its answer. The answer, and what the caller
  /// does with it up to its next suspension, happen at the explorer's moment, before any job that was ready.
  ///
  /// A caller still without its answer once nothing it made ready is left waits for something the explorer does
  /// not order (a stream the test feeds, a clock, the main actor, real I/O): a problem the test store reports.
  private func complete(_ call: Exploration.Waiting) {
    let start = lock.withLock {
      exploration.answering = call.call
      return jobs.count
    }
    call.resume(true)
    while let job = lock.withLock({ () -> UnownedJob? in
      guard exploration.answering == call.call, jobs.count > start else { return nil }
      let job = jobs.remove(at: start)
      exploration.running = Self.identity(of: job)
      return job
    }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
    lock.withLock {
      exploration.running = nil
      if exploration.answering == call.call {
        exploration.answering = nil
        exploration.reportUnanswered(call)
      }
    }
  }

  /// The identity of a job's task (the same every time the task is ready): its address.
  static func identity(of job: UnownedJob) -> UInt { unsafeBitCast(job, to: UInt.self) }

  /// Whether no job is waiting to run.
  package var isIdle: Bool { lock.withLock { head >= jobs.count } }

  /// Whether every task tracked by this runtime is suspended on something only the test can resume (a
  /// ``TestClock`` sleep, or waiting on such tasks): nothing will happen until the test acts.
  package var isQuiescent: Bool {
    lock.withLock { head >= jobs.count && blockedTasks >= liveTasks && wokenTasks.isEmpty }
  }

  /// The number of tracked tasks that have not finished.
  package var runningTaskCount: Int { lock.withLock { liveTasks } }

  func taskStarted() { lock.withLock { liveTasks += 1 } }

  /// Called by an effect's task as it ends.
  func taskFinished() {
    let task = Self.currentTask
    lock.withLock {
      liveTasks -= 1
      if let task { wokenTasks.remove(task) }
      // Called by the task itself, from its last job: its address may be a new task's next.
      if describesChoices { exploration.forgetRunningTask() }
    }
  }

  /// Called by a task as it blocks on the test (a ``TestClock`` sleep, `Task.never()`).
  func taskBlocked() {
    let task = Self.currentTask
    lock.withLock {
      blockedTasks += 1
      if let task { wokenTasks.remove(task) }
    }
  }

  func taskUnblocked() { lock.withLock { blockedTasks -= 1 } }

  /// A ``TestClock`` woke `task` (``currentTask`` when it went to sleep), which was blocked on this runtime.
  func taskWoken(_ task: UInt?) {
    lock.withLock {
      blockedTasks -= 1
      if let task { wokenTasks.insert(task) }
    }
  }

  /// The identity of the current task. A task's address is reused only after it has finished, so a new task
  /// mistaken for a woken one that finished can only end a wait that was over.
  static var currentTask: UInt? {
    withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
  }

  /// The runtime the current task's effects run on, if any.
  @TaskLocal public static var current: TestRuntime?
}

import Foundation
