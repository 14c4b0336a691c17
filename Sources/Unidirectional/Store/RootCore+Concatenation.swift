// The asynchronous rest of a concatenation: one task that runs its parts one after another, each part started by
// the store's one interpreter (RootCore+Batch.swift) and awaited before the next.
extension RootCore {
  /// Starts, in a task of its own, the parts `effects` of a concatenation, once `awaiting` (what the part before
  /// them started) has finished. Call with the lock held.
  ///
  /// The task is the concatenation's record: it answers to the concatenation's cancellation ids, and the effects its
  /// parts start are its children, registered under their own ids (and removed when they finish).
  func spawnConcatenation(
    _ effects: ArraySlice<Effect<Action>>, awaiting: [EffectRecord], lineage: Lineage
  ) -> EffectRecord {
    let record = register(
      lineage.startedBy, cancelIDs: lineage.cancelIDs, cause: lineage.cause, sequence: lineage.sequence)
    let values = mutable.pointee.dependencies.values
    let startedBy = lineage.startedBy
    if let runtime {
      runtime.taskStarted()
      record.task = Task(executorPreference: runtime) {
        await TestRuntime.$current.withValue(runtime) {
          await self.runParts(effects, awaiting: awaiting, record: record, startedBy: startedBy, values: values)
        }
        self.finish(record)
        runtime.taskFinished()
      }
    } else {
      record.task = Task {
        await self.runParts(effects, awaiting: awaiting, record: record, startedBy: startedBy, values: values)
        self.finish(record)
      }
    }
    return record
  }

  /// Runs the parts of a concatenation one after another in the current task: a `.run` part inside it, any other
  /// part through the interpreter, waiting for what it started before the next.
  private func runParts(
    _ effects: ArraySlice<Effect<Action>>, awaiting: [EffectRecord], record: EffectRecord, startedBy: Action,
    values: DependencyValues
  ) async {
    var awaiting = awaiting
    for effect in effects {
      await waitForAll(awaiting)
      if Task.isCancelled || isCancelled(record) { return }
      if case let .run(run) = effect.node {
        await execute(run, record: record, values: values)
        awaiting = []
      } else {
        awaiting = startPart(effect, of: record, startedBy: startedBy)
      }
    }
    // The concatenation ends when its last part has: an enclosing concatenation waits for it.
    await waitForAll(awaiting)
  }

  /// Starts one part of the concatenation `record` through the interpreter, as a batch of its own; returns the
  /// effects the part started, which the next part waits for.
  private func startPart(_ effect: Effect<Action>, of record: EffectRecord, startedBy: Action) -> [EffectRecord] {
    let context = ThreadContext.current(key: threadKey)
    lock.lock()
    if flags.pointee.isInvalidated || record.isCancelled {
      lock.unlock()
      return []
    }
    hold(context)
    var batch = Batch()
    batch.excluded = record
    batch.parts = [[]]
    let lineage = Lineage(
      startedBy: startedBy, sequence: record.sequence, cancelIDs: record.cancelIDs, cause: record, list: 0,
      reduction: 0, part: 0)
    var work: [Work] = [.start(effect, lineage)]
    run(&work, batch: &batch, context: context)
    let started = batch.parts[0]
    _ = endBatch(batch, context: context)
    return started
  }

  /// Waits until each of `records` has finished, counted by a test runtime as waiting on them (they are tracked).
  private func waitForAll(_ records: [EffectRecord]) async {
    guard !records.isEmpty else { return }
    // Each record's task was set under the lock before the record was handed here.
    let tasks = records.compactMap(\.task)
    runtime?.taskBlocked()
    for task in tasks { await task.value }
    runtime?.taskUnblocked()
  }
}
