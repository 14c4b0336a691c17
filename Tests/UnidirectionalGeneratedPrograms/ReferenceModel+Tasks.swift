// Running effects in the reference model: batches, tasks, the clock, cancellation.
extension ReferenceModel {
  // MARK: Starting effects

  /// Starts an effect returned by the batch's `reduction`-th action, inside the `send` that reduced it: `.send`
  /// actions are reduced at once, depth-first ("Actions fed back this way are processed depth-first"); a `run`,
  /// and the rest of a concatenation from its first asynchronous part on, start as tasks. "An effect returned next
  /// to a `.send` is cancelled by what the sent action cancels, even though it starts after it" (DifferencesFromTCA).
  func startSynchronously(_ effect: ModelEffect, keys: [ModelCancelKey], reduction: Int, batch: ModelBatch) {
    switch effect {
    case .none:
      return
    case let .send(target):
      deliver(target, batch: batch)
    case let .run(run):
      if batch.isCancelled(keys, returnedBy: reduction) { return }
      spawn(keys: keys, batch: batch) { [.steps(run, next: 0, $0)] }
    case let .merge(effects):
      for effect in effects { startSynchronously(effect, keys: keys, reduction: reduction, batch: batch) }
    case let .concatenate(effects):
      let leading = effects.prefix { !$0.isAsynchronous }.count
      for effect in effects[..<leading] {
        startSynchronously(effect, keys: keys, reduction: reduction, batch: batch)
      }
      guard leading < effects.count, !batch.isCancelled(keys, returnedBy: reduction) else { return }
      let rest = Array(effects[leading...])
      spawn(keys: keys, batch: batch) { [.concatenation(rest, next: 0, $0)] }
    case let .cancellable(key, cancelInFlight, inner):
      if cancelInFlight {
        cancel(key)
        batch.cancelled.append((key, reduction))
      }
      startSynchronously(inner, keys: keys + key.registrationKeys, reduction: reduction, batch: batch)
    case let .cancel(key):
      cancel(key)
      batch.cancelled.append((key, reduction))
    }
  }

  private func spawn(keys: [ModelCancelKey], batch: ModelBatch, frames: (CancelNode) -> [ModelFrame]) {
    let node = CancelNode(parent: nil)
    let record = ModelRecord(cause: batch.cause, node: node, keys: keys)
    register(node, under: keys)
    if let cause = batch.cause { cause.children.append(record) } else { batch.started.append(record) }
    enqueue(ModelTask(record: record, frames: frames(node), parent: nil))
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
      case let .effect(effect, node):
        run(effect, in: node, task: task)
      case let .concatenation(effects, next, node):
        // "Runs effects one after another: each starts when the previous one has finished", until cancelled.
        guard next < effects.count, !node.isCancelled else { continue }
        task.frames.append(.concatenation(effects, next: next + 1, node))
        task.frames.append(.effect(effects[next], node))
      case let .exitScope(node, keys):
        unregister(node, from: keys)
      case let .steps(run, next, node):
        step(run, at: next, in: node, task: task)
      case let .afterSleep(run, next, node):
        // A sleeper cancelled while it slept, or after it woke but before it ran, throws `CancellationError`.
        if node.isCancelled {
          end(run, in: node, task: task, failed: true)
        } else {
          task.frames.append(.steps(run, next: next, node))
        }
      case let .afterNever(run, node):
        end(run, in: node, task: task, failed: true)
      case .join:
        // Waits again while children remain (``Policy``: resumed by any child, or by the last).
        if task.pending > 0 {
          task.frames.append(.join)
          task.wait = .join
        }
      }
      if task.wait != nil { return }
    }
    finish(task)
  }

  /// Runs `effect` inside a task (the asynchronous rest of a concatenation).
  private func run(_ effect: ModelEffect, in node: CancelNode, task: ModelTask) {
    switch effect {
    case .none:
      return
    case let .send(target):
      if !node.isCancelled { deliver(target, from: task) }
    case let .run(run):
      task.frames.append(.steps(run, next: 0, node))
    case let .merge(effects):
      // Each part in a child task of its own (a task group); the task waits for all of them.
      task.pending = effects.count
      task.frames.append(.join)
      task.wait = .join
      for effect in effects { enqueue(ModelTask(record: task.record, frames: [.effect(effect, node)], parent: task)) }
    case let .concatenate(effects):
      task.frames.append(.concatenation(effects, next: 0, node))
    case let .cancellable(key, cancelInFlight, inner):
      // As TCA's `withTaskCancellation(id:)` around the part: cancelling the id ends this part only.
      if cancelInFlight { cancel(key) }
      let scope = CancelNode(parent: node)
      let keys = key.registrationKeys
      register(scope, under: keys)
      task.frames.append(.exitScope(scope, keys))
      task.frames.append(.effect(inner, scope))
    case let .cancel(key):
      cancel(key)
    }
  }

  /// Does step `index` of `run` (or ends it after the last).
  private func step(_ run: ModelRun, at index: Int, in node: CancelNode, task: ModelTask) {
    guard index < run.steps.count else {
      end(run, in: node, task: task, failed: false)
      return
    }
    let next = ModelFrame.steps(run, next: index + 1, node)
    switch run.steps[index] {
    case let .send(target):
      // "Once the effect is cancelled, `send` delivers nothing."
      if !node.isCancelled { deliver(target, from: task) }
      task.frames.append(next)
    case let .sleep(milliseconds):
      guard !node.isCancelled else { return end(run, in: node, task: task, failed: true) }
      // "A sleep returns at once only when its deadline is strictly before `now`."
      let sleeper = ModelSleeper(deadline: now + milliseconds, sequence: nextSuspension, task: task)
      nextSuspension += 1
      let position = sleepers.firstIndex { ($0.deadline, $0.sequence) > (sleeper.deadline, sleeper.sequence) }
      sleepers.insert(sleeper, at: position ?? sleepers.count)
      task.frames.append(.afterSleep(run, next: index + 1, node))
      task.wait = .sleep(node)
    case .checkCancellation:
      if node.isCancelled { return end(run, in: node, task: task, failed: true) }
      task.frames.append(next)
    case .fail:
      end(run, in: node, task: task, failed: true)
    case .never:
      guard !node.isCancelled else { return end(run, in: node, task: task, failed: true) }
      task.frames.append(.afterNever(run, node))
      suspendUntilCancelled(task, node: node)
    case .stream:
      task.frames.append(next)
      if !node.isCancelled { suspendUntilCancelled(task, node: node) }
    case let .cancel(id):
      cancel(ModelCancelKey(id: .generated(id), path: run.path))
      task.frames.append(next)
    case .dismiss:
      // "sends `.dismiss` … through the calling effect, synchronously" (DifferencesFromTCA).
      if !node.isCancelled { deliver(.dismissDestination, from: task) }
      task.frames.append(next)
    }
  }

  private func suspendUntilCancelled(_ task: ModelTask, node: CancelNode) {
    waiters.append((nextSuspension, task))
    nextSuspension += 1
    task.wait = .cancellation(node)
  }

  /// Ends `run`: "A thrown error that is not a cancellation is passed to `handler`".
  private func end(_ run: ModelRun, in node: CancelNode, task: ModelTask, failed: Bool) {
    let outcome: RunOutcome = node.isCancelled ? .cancelled : failed ? .threw : .completed
    if let id = run.id { outcomes[id] = outcome }
    if outcome == .threw, let caught = run.caught { deliver(caught, from: task) }
  }

  private func finish(_ task: ModelTask) {
    if let parent = task.parent {
      parent.pending -= 1
      if case .join? = parent.wait, parent.pending == 0 || !policy.resumesMergeAtTheLastChild { enqueue(parent) }
      return
    }
    let record = task.record
    record.isFinished = true
    unregister(record.node, from: record.keys)
  }

  /// An action an effect sends: a `send` of its own, with the effect as its cause.
  private func deliver(_ target: RootTarget, from task: ModelTask) {
    synchronously { deliver(target, batch: ModelBatch(cause: task.record)) }
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

  func register(_ node: CancelNode, under keys: [ModelCancelKey]) {
    for key in keys { registry[key, default: []].append(node) }
  }

  func unregister(_ node: CancelNode, from keys: [ModelCancelKey]) {
    for key in keys {
      registry[key]?.removeAll { $0 === node }
      if registry[key]?.isEmpty == true { registry[key] = nil }
    }
  }

  /// Cancels everything registered under `key`, waking what it waits on (at once, or at the end of the `send`).
  func cancel(_ key: ModelCancelKey) {
    for node in registry[key] ?? [] { node.isMarked = true }
    if policy.wakesCancelledAfterTheSend, sendDepth > 0 {
      hasDeferredWakes = true
    } else {
      wakeCancelled()
    }
  }

  /// "Cancels the effects (and the effects started by the actions they fed back)".
  func cancelTrees(_ records: [ModelRecord]) {
    var pending = records
    while let record = pending.popLast() {
      if !record.isFinished { record.node.isMarked = true }
      pending.append(contentsOf: record.children)
    }
    wakeCancelled()
  }

  /// Makes the cancelled sleepers and waiters ready, in the order they suspended.
  private func wakeCancelled() {
    var woken: [(Int, ModelTask)] = []
    sleepers.removeAll { sleeper in
      guard case let .sleep(node) = sleeper.task.wait, node.isCancelled else { return false }
      woken.append((sleeper.sequence, sleeper.task))
      return true
    }
    waiters.removeAll { waiter in
      guard case let .cancellation(node) = waiter.1.wait, node.isCancelled else { return false }
      woken.append(waiter)
      return true
    }
    for (_, task) in woken.sorted(by: { $0.0 < $1.0 }) { enqueue(task) }
  }
}

/// The synchronous work of one `send`: its reductions, the cancellations they made, the records they started.
final class ModelBatch {
  let cause: ModelRecord?
  var reductions = 0
  var cancelled: [(key: ModelCancelKey, reduction: Int)] = []
  var started: [ModelRecord] = []

  init(cause: ModelRecord?) {
    self.cause = cause
  }

  func isCancelled(_ keys: [ModelCancelKey], returnedBy reduction: Int) -> Bool {
    cancelled.contains { $0.reduction > reduction && keys.contains($0.key) }
  }
}

/// What cancellation reaches: a started effect, or a cancellable part inside the rest of a concatenation.
final class CancelNode {
  let parent: CancelNode?
  var isMarked = false

  init(parent: CancelNode?) {
    self.parent = parent
  }

  var isCancelled: Bool { isMarked || parent?.isCancelled == true }
}

/// A started effect: a task, and its cause (the effect that fed back the action that started it).
final class ModelRecord {
  let cause: ModelRecord?
  let node: CancelNode
  let keys: [ModelCancelKey]
  var children: [ModelRecord] = []
  var isFinished = false

  init(cause: ModelRecord?, node: CancelNode, keys: [ModelCancelKey]) {
    self.cause = cause
    self.node = node
    self.keys = keys
  }

}

/// A task of the model: an effect's own, or a child of one running a part of a merge inside a concatenation.
final class ModelTask {
  let record: ModelRecord
  var frames: [ModelFrame]
  var wait: ModelWait?
  /// The task a merge child's end is reported to.
  let parent: ModelTask?
  /// The merge children not yet ended.
  var pending = 0

  init(record: ModelRecord, frames: [ModelFrame], parent: ModelTask?) {
    self.record = record
    self.frames = frames
    self.parent = parent
  }
}

/// What a task does next; its frames form a stack.
enum ModelFrame {
  case effect(ModelEffect, CancelNode)
  case steps(ModelRun, next: Int, CancelNode)
  case afterSleep(ModelRun, next: Int, CancelNode)
  case afterNever(ModelRun, CancelNode)
  case concatenation([ModelEffect], next: Int, CancelNode)
  case exitScope(CancelNode, [ModelCancelKey])
  /// Waits for the children of a merge.
  case join
}

/// Why a task is suspended.
enum ModelWait {
  case sleep(CancelNode)
  case cancellation(CancelNode)
  case join
}

struct ModelSleeper {
  let deadline: Int
  let sequence: Int
  let task: ModelTask
}
