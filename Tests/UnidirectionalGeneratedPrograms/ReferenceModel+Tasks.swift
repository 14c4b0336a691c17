// Running effects in the reference model: batches, tasks, the clock, cancellation.
extension ReferenceModel {
  // MARK: Starting effects

  /// Starts an effect returned by the batch's `reduction`-th action, inside the `send` that reduced it, and returns
  /// the tasks it started (what the next part of an enclosing concatenation waits for).
  ///
  /// - `.send`: reduced at once, depth-first ("Actions fed back this way are processed depth-first"); what the
  ///   action starts is its own, not the part's (CHANGELOG, `concatenate`).
  /// - `run`: a task. "An effect returned next to a `.send` is cancelled by what the sent action cancels, even though
  ///   it starts after it" (DifferencesFromTCA): such a `run` never starts.
  /// - `concatenate`: "each part starts once everything the part before started has finished, and a part that is
  ///   not a single `.run` is started like any other effect — its `.send`s are delivered at once (as inside `merge`),
  ///   and a `cancellable(id:)` inside it answers to that id alone" (CHANGELOG). Parts start here while the parts
  ///   before started nothing; the rest runs in a task of the concatenation's own, where a `.run` part runs inside it.
  @discardableResult
  func startSynchronously(
    _ effect: ModelEffect, keys: [ModelCancelKey], reduction: Int, batch: ModelBatch
  ) -> [ModelTask] {
    switch effect {
    case .none:
      return []
    case let .send(target):
      deliver(target, batch: batch)
      return []
    case let .run(run):
      if batch.isCancelled(keys, returnedBy: reduction) { return [] }
      return [spawn(keys: keys, batch: batch, frames: [.steps(run, next: 0)])]
    case let .merge(effects):
      return effects.flatMap { startSynchronously($0, keys: keys, reduction: reduction, batch: batch) }
    case let .concatenate(effects):
      var awaiting: [ModelTask] = []
      var next = 0
      while next < effects.count, awaiting.isEmpty, !effects[next].isRun {
        awaiting = startSynchronously(effects[next], keys: keys, reduction: reduction, batch: batch)
        next += 1
      }
      guard next < effects.count else { return awaiting }
      if batch.isCancelled(keys, returnedBy: reduction) { return [] }
      let rest = Array(effects[next...])
      return [spawn(keys: keys, batch: batch, frames: [.concatenation(rest, next: 0, awaiting: awaiting)])]
    case let .cancellable(key, cancelInFlight, inner):
      if cancelInFlight { cancel(key, in: batch, reduction: reduction) }
      return startSynchronously(inner, keys: keys + key.registrationKeys, reduction: reduction, batch: batch)
    case let .cancel(key):
      cancel(key, in: batch, reduction: reduction)
      return []
    }
  }

  private func cancel(_ key: ModelCancelKey, in batch: ModelBatch, reduction: Int) {
    cancel(key, except: batch.concatenation)
    batch.cancelled.append((key, reduction))
  }

  private func spawn(keys: [ModelCancelKey], batch: ModelBatch, frames: [ModelFrame]) -> ModelTask {
    let task = ModelTask(serial: nextSerial, keys: keys, frames: frames)
    nextSerial += 1
    register(task, under: keys)
    if let cause = batch.cause { cause.children.append(task) } else { batch.started.append(task) }
    enqueue(task)
    return task
  }

  // MARK: Running tasks

  /// Runs ready tasks, oldest first, each until it suspends or ends, until none is ready.
  func runUntilIdle() {
    while readyHead < ready.count {
      let task = ready[readyHead]
      readyHead += 1
      resume(task)
    }
    ready.removeAll(keepingCapacity: true)
    readyHead = 0
  }

  func enqueue(_ task: ModelTask) {
    task.wait = nil
    ready.append(task)
  }

  /// Runs `task` from where it stopped until it suspends (`wait` set) or ends.
  private func resume(_ task: ModelTask) {
    while let frame = task.frames.popLast() {
      switch frame {
      case let .concatenation(effects, next, awaiting):
        concatenate(effects, next: next, awaiting: awaiting, task: task)
      case let .steps(run, next):
        step(run, at: next, task: task)
      case let .afterSleep(run, next):
        // A sleeper cancelled while it slept, or after it woke but before it ran, throws `CancellationError`.
        if task.isCancelled {
          end(run, task: task, failed: true)
        } else {
          task.frames.append(.steps(run, next: next))
        }
      case let .afterNever(run):
        end(run, task: task, failed: true)
      }
      if task.wait != nil { return }
    }
    finish(task)
  }

  /// The concatenation's own task: waits for what the part before started, then starts part `next` (a `.run` runs
  /// in this task); once cancelled, starts nothing more. It ends when the last part's tasks have.
  private func concatenate(_ effects: [ModelEffect], next: Int, awaiting: [ModelTask], task: ModelTask) {
    if let pending = awaiting.first(where: { !$0.isFinished }) {
      task.frames.append(.concatenation(effects, next: next, awaiting: awaiting))
      pending.waiters.append(task)
      task.wait = .task
      return
    }
    guard next < effects.count, !task.isCancelled else { return }
    if case let .run(run) = effects[next] {
      task.frames.append(.concatenation(effects, next: next + 1, awaiting: []))
      task.frames.append(.steps(run, next: 0))
      return
    }
    // A part that is not a `.run` starts as a `send` of its own would, its effects the concatenation's children.
    let batch = ModelBatch(cause: task, concatenation: task)
    var started: [ModelTask] = []
    synchronously { started = startSynchronously(effects[next], keys: task.keys, reduction: 0, batch: batch) }
    task.frames.append(.concatenation(effects, next: next + 1, awaiting: started))
  }

  /// Does step `index` of `run` (or ends it after the last).
  private func step(_ run: ModelRun, at index: Int, task: ModelTask) {
    guard index < run.steps.count else {
      end(run, task: task, failed: false)
      return
    }
    let next = ModelFrame.steps(run, next: index + 1)
    switch run.steps[index] {
    case let .send(target):
      // "Once the effect is cancelled, `send` delivers nothing."
      if !task.isCancelled { deliver(target, from: task) }
      task.frames.append(next)
    case let .sleep(milliseconds):
      guard !task.isCancelled else { return end(run, task: task, failed: true) }
      // "A sleep returns at once only when its deadline is strictly before `now`."
      let sleeper = ModelSleeper(deadline: now + milliseconds, sequence: nextSuspension, task: task)
      nextSuspension += 1
      let position = sleepers.firstIndex { ($0.deadline, $0.sequence) > (sleeper.deadline, sleeper.sequence) }
      sleepers.insert(sleeper, at: position ?? sleepers.count)
      task.frames.append(.afterSleep(run, next: index + 1))
      task.wait = .sleep
    case .checkCancellation:
      if task.isCancelled { return end(run, task: task, failed: true) }
      task.frames.append(next)
    case .fail:
      end(run, task: task, failed: true)
    case .never:
      guard !task.isCancelled else { return end(run, task: task, failed: true) }
      task.frames.append(.afterNever(run))
      suspendUntilCancelled(task)
    case .stream:
      task.frames.append(next)
      if !task.isCancelled { suspendUntilCancelled(task) }
    case let .cancel(id):
      cancel(ModelCancelKey(id: .generated(id), path: run.path), except: nil)
      task.frames.append(next)
    case .dismiss:
      // "sends `.dismiss` … through the calling effect, synchronously" (DifferencesFromTCA).
      if !task.isCancelled { deliver(.dismissDestination, from: task) }
      task.frames.append(next)
    }
  }

  private func suspendUntilCancelled(_ task: ModelTask) {
    waiters.append((nextSuspension, task))
    nextSuspension += 1
    task.wait = .cancellation
  }

  /// Ends `run`: "A thrown error that is not a cancellation is passed to `handler`".
  private func end(_ run: ModelRun, task: ModelTask, failed: Bool) {
    let outcome: RunOutcome = task.isCancelled ? .cancelled : failed ? .threw : .completed
    if let id = run.id { outcomes[id] = outcome }
    if outcome == .threw, let caught = run.caught { deliver(caught, from: task) }
  }

  private func finish(_ task: ModelTask) {
    task.isFinished = true
    unregister(task, from: task.keys)
    for waiter in task.waiters { enqueue(waiter) }
    task.waiters.removeAll()
  }

  /// An action an effect sends: a `send` of its own, with the effect as its cause.
  private func deliver(_ target: RootTarget, from task: ModelTask) {
    synchronously { deliver(target, batch: ModelBatch(cause: task)) }
  }

  /// Runs a `send`'s synchronous work; then wakes what its cancellations deferred (``Policy``).
  func synchronously(_ work: () -> Void) {
    sendDepth += 1
    work()
    sendDepth -= 1
    if sendDepth == 0, hasDeferredWakes {
      hasDeferredWakes = false
      wakeCancelled()
    }
  }

  // MARK: Time

  /// Wakes the sleepers with the earliest deadline not after `deadline`, all of them before any runs, then runs
  /// them in the order they went to sleep "followed by what they started"; repeats; then sets `now`.
  func advance(to deadline: Int) {
    while let first = sleepers.first, first.deadline <= deadline {
      now = max(now, first.deadline)
      let due = sleepers.prefix { $0.deadline == first.deadline }
      sleepers.removeFirst(due.count)
      for sleeper in due { enqueue(sleeper.task) }
      runUntilIdle()
    }
    now = max(now, deadline)
  }

  // MARK: Cancelling

  func register(_ task: ModelTask, under keys: [ModelCancelKey]) {
    for key in keys { registry[key, default: []].append(task) }
  }

  func unregister(_ task: ModelTask, from keys: [ModelCancelKey]) {
    for key in keys {
      registry[key]?.removeAll { $0 === task }
      if registry[key]?.isEmpty == true { registry[key] = nil }
    }
  }

  /// Cancels every task registered under `key` (but `excluded`: a concatenation is not cancelled by its own parts),
  /// waking what it waits on: at once, or at the end of the `send` (``Policy``).
  func cancel(_ key: ModelCancelKey, except excluded: ModelTask?) {
    for task in registry[key] ?? [] where task !== excluded { task.isCancelled = true }
    if policy.wakesCancelledAfterTheSend, sendDepth > 0 {
      hasDeferredWakes = true
    } else {
      wakeCancelled()
    }
  }

  /// "Cancels the effects (and the effects started by the actions they fed back)".
  func cancelTrees(_ tasks: [ModelTask]) {
    var pending = tasks
    while let task = pending.popLast() {
      if !task.isFinished { task.isCancelled = true }
      pending.append(contentsOf: task.children)
    }
    wakeCancelled()
  }

  /// Makes the cancelled sleepers and waiters ready, in the order they started.
  ///
  /// The documentation fixes no order here, and the store's follows a hash table's: when two of them do more than end
  /// (a concatenation waits for each, or a stream's reader goes on to cancel), what follows is open
  /// (``wakeOrderIsOpen``).
  private func wakeCancelled() {
    var woken: [ModelTask] = []
    sleepers.removeAll { sleeper in
      guard sleeper.task.isCancelled else { return false }
      woken.append(sleeper.task)
      return true
    }
    waiters.removeAll { waiter in
      guard waiter.1.isCancelled else { return false }
      woken.append(waiter.1)
      return true
    }
    if woken.count(where: hasConsequences) > 1 { wakeOrderIsOpen = true }
    for task in woken.sorted(by: { $0.serial < $1.serial }) { enqueue(task) }
  }

  /// Whether a task woken by a cancellation does something once it ends: a concatenation not cancelled waits for
  /// it, or it reads a stream and then cancels an id.
  private func hasConsequences(_ task: ModelTask) -> Bool {
    if task.waiters.contains(where: { !$0.isCancelled }) { return true }
    guard case let .steps(run, next)? = task.frames.last else { return false }
    return run.steps[next...].contains { if case .cancel = $0 { true } else { false } }
  }
}

/// The synchronous work of one `send` (or of a concatenation's part): the cancellations its reductions made, the
/// tasks it started.
final class ModelBatch {
  let cause: ModelTask?
  /// The concatenation whose part the batch starts: not cancelled by it.
  let concatenation: ModelTask?
  var reductions = 0
  var cancelled: [(key: ModelCancelKey, reduction: Int)] = []
  var started: [ModelTask] = []

  init(cause: ModelTask?, concatenation: ModelTask? = nil) {
    self.cause = cause
    self.concatenation = concatenation
  }

  func isCancelled(_ keys: [ModelCancelKey], returnedBy reduction: Int) -> Bool {
    cancelled.contains { $0.reduction > reduction && keys.contains($0.key) }
  }
}

/// A started effect: a task, the ids it answers to, what it does next. Its cause (the effect that fed back the action
/// that started it) holds it among its `children`; it does not hold its cause, so a finished program's tasks are
/// freed (a task and its cause holding each other kept every program's tasks, about 800 bytes a program).
final class ModelTask {
  /// The order it started in.
  let serial: Int
  let keys: [ModelCancelKey]
  var frames: [ModelFrame]
  var wait: ModelWait?
  var isCancelled = false
  var isFinished = false
  /// Effects started by actions it fed back, and the parts a concatenation started.
  var children: [ModelTask] = []
  /// Concatenations waiting for it to finish.
  var waiters: [ModelTask] = []

  init(serial: Int, keys: [ModelCancelKey], frames: [ModelFrame]) {
    self.serial = serial
    self.keys = keys
    self.frames = frames
  }
}

/// What a task does next; its frames form a stack.
enum ModelFrame {
  case steps(ModelRun, next: Int)
  case afterSleep(ModelRun, next: Int)
  case afterNever(ModelRun)
  case concatenation([ModelEffect], next: Int, awaiting: [ModelTask])
}

/// Why a task is suspended.
enum ModelWait {
  case sleep
  case cancellation
  /// A concatenation waiting for a task its part started.
  case task
}

struct ModelSleeper {
  let deadline: Int
  let sequence: Int
  let task: ModelTask
}
