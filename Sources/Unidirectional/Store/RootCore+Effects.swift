// Running, finishing and cancelling the effects a root core owns.
extension RootCore {
  // MARK: Effects

  /// Starts `run` in a task of its own. Call with the lock held.
  ///
  /// The task-locals the effect runs with (its dependencies, its cancellation context, the test runtime) are bound
  /// around the task's creation, which copies them, not inside the task: the task's first stack slab then holds
  /// the whole effect, where nested bindings took a second (1 KB more per long-living effect).
  func spawn(
    _ run: Effect<Action>.Run, cancelIDs: [CancelID], cause: EffectRecord?, startedBy action: Action, sequence: UInt64
  ) -> EffectRecord {
    let record = register(action, cancelIDs: cancelIDs, cause: cause, sequence: sequence)
    let send = Send<Action> { [self] action in _ = self.send(action, origin: .received, cause: record) }
    let context = EffectContext(registry: self, namespace: run.namespace)
    let values = run.dependencies ?? mutable.pointee.dependencies.values
    let priority = run.priority
    record.task = DependencyValues.$taskValues.withValue(values) {
      EffectContext.$current.withValue(context) {
        if let runtime {
          runtime.taskStarted()
          return TestRuntime.$current.withValue(runtime) {
            Task(executorPreference: runtime, priority: priority) {
              await self.perform(run, send: send, record: record)
              self.finish(record)
              runtime.taskFinished()
            }
          }
        }
        return Task(priority: priority) {
          await self.perform(run, send: send, record: record)
          self.finish(record)
        }
      }
    }
    return record
  }

  /// A record of an effect `action` started, registered under its id and cancellation ids, which ``finish(_:)``
  /// removes: the only registration of an effect. Call with the lock held.
  func register(
    _ action: Action, cancelIDs: [CancelID], cause: EffectRecord?, sequence: UInt64
  ) -> EffectRecord {
    let record = EffectRecord(action: action, cancelIDs: cancelIDs, owner: self)
    let id = mutable.pointee.nextEffectID
    mutable.pointee.nextEffectID += 1
    record.id = id
    record.sequence = sequence
    mutable.pointee.effects[id] = record
    for cancelID in cancelIDs { mutable.pointee.cancellables[cancelID, default: []].insert(id) }
    if let cause {
      record.parent = cause
      cause.children[id] = record
    }
    if counters != nil { report(.started, record) }
    return record
  }

  /// Runs one `.run` effect in the current task, with its dependencies (or `values`) and cancellation context bound:
  /// a part of a concatenation, inside the concatenation's task.
  func execute(_ run: Effect<Action>.Run, record: EffectRecord, values: DependencyValues) async {
    let send = Send<Action> { [self] action in _ = self.send(action, origin: .received, cause: record) }
    let context = EffectContext(registry: self, namespace: run.namespace)
    await EffectContext.$current.withValue(context) {
      await DependencyValues.$taskValues.withValue(run.dependencies ?? values) {
        await perform(run, send: send, record: record)
      }
    }
  }

  /// Runs `run`'s operation in the current task, with whatever task-locals are bound, handling what it throws.
  func perform(_ run: Effect<Action>.Run, send: Send<Action>, record: EffectRecord) async {
    do {
      try await run.operation(send)
    } catch {
      if Task.isCancelled || error is CancellationError { return }
      if let handler = run.handler {
        await handler(error, send)
      } else {
        report(
          """
          An effect returned for the action \(describe(record.action)) threw an unhandled error: \(error). \
          Handle it with .run(operation:catch:) or inside the operation.
          """)
      }
    }
  }

  func finish(_ record: EffectRecord) {
    locked {
      record.isFinished = true
      if counters != nil { report(.finished, record) }
      mutable.pointee.effects.removeValue(forKey: record.id)
      for id in record.cancelIDs { removeCancellable(id, record.id) }
      record.pruneFromTree()
    }
  }

  func removeCancellable(_ id: CancelID, _ recordID: UInt64) {
    guard var set = mutable.pointee.cancellables[id] else { return }
    set.remove(recordID)
    mutable.pointee.cancellables[id] = set.isEmpty ? nil : set
  }

  func isCancelled(_ record: EffectRecord) -> Bool {
    locked { record.isCancelled }
  }

  /// Marks the effects running under `id` cancelled and collects how to cancel them and the work registered
  /// under `id`. Call with the lock held; run the collected cancellations after releasing it.
  func cancelHeld(
    id: CancelID, except excluded: EffectRecord? = nil, into cancellations: inout [@Sendable () -> Void]
  ) {
    if let ids = mutable.pointee.cancellables[id] {
      for recordID in ids {
        guard let record = mutable.pointee.effects[recordID], record !== excluded, !record.isCancelled else {
          continue
        }
        record.isCancelled = true
        if counters != nil { report(.cancelled, record) }
        if let task = record.task { cancellations.append { task.cancel() } }
      }
    }
    if let work = rare?.registeredWork.removeValue(forKey: id) {
      cancellations.append(contentsOf: work.values)
    }
  }

  func cancel(id: CancelID, except excluded: EffectRecord? = nil) {
    var cancellations: [@Sendable () -> Void] = []
    locked { cancelHeld(id: id, except: excluded, into: &cancellations) }
    for cancel in cancellations { cancel() }
  }

  func cancel(id: CancelID) {
    cancel(id: id, except: nil)
  }

  func start(id: CancelID, cancelInFlight: Bool, _ start: () -> @Sendable () -> Void) -> UInt64 {
    var cancellations: [@Sendable () -> Void] = []
    let token: UInt64 = locked {
      if cancelInFlight { cancelHeld(id: id, into: &cancellations) }
      let rare = rareBookkeeping
      rare.nextWorkToken += 1
      let token = rare.nextWorkToken
      let cancel = start()
      for key in id.registrationKeys { rare.registeredWork[key, default: [:]][token] = cancel }
      return token
    }
    for cancel in cancellations { cancel() }
    return token
  }

  func unregister(id: CancelID, token: UInt64) {
    locked {
      for key in id.registrationKeys {
        rare?.registeredWork[key]?.removeValue(forKey: token)
        if rare?.registeredWork[key]?.isEmpty == true {
          rare?.registeredWork[key] = nil
        }
      }
    }
  }

  /// Cancels `records` and every effect started by the actions they fed back, recursively.
  func cancelTrees(_ records: [EffectRecord]) {
    let tasks: [Task<Void, Never>] = locked {
      var tasks: [Task<Void, Never>] = []
      for record in records {
        record.forEachInTree { record in
          guard !record.isFinished, !record.isCancelled else { return }
          record.isCancelled = true
          if counters != nil { report(.cancelled, record) }
          if let task = record.task { tasks.append(task) }
        }
      }
      return tasks
    }
    for task in tasks { task.cancel() }
  }

  /// The tasks of `records` and their descendants that have not finished.
  func unfinishedTasks(inTreesOf records: [EffectRecord]) -> [Task<Void, Never>] {
    // Collected by non-generic code into a local, not returned through `locked`: in this generic class, a generic
    // call returning the array, or the array built here, looks up its runtime type on every call.
    var tasks: [Task<Void, Never>] = []
    locked { tasks = EffectRecord.unfinishedTasks(inTreesOf: records) }
    return tasks
  }

  /// Cancels every effect and stops accepting actions: the store has been released.
  func invalidate() {
    // Most stores end with no effect running and no state stream: then nothing is collected (collecting looked up
    // the runtime types of the arrays, a third of what making and releasing an idle store cost).
    var records: [EffectRecord] = []
    var hasRare = false
    locked {
      flags.pointee.isInvalidated = true
      flags.pointee.hasStreams = false
      if !mutable.pointee.effects.isEmpty { records = Array(mutable.pointee.effects.values) }
      hasRare = mutable.pointee.rare != nil
    }
    if !records.isEmpty { cancelTrees(records) }
    if hasRare { finishStreams() }
  }

  /// Finishes every `states` stream of a released store.
  @inline(never)
  private func finishStreams() {
    let streams = locked {
      defer { rare?.streams.removeAll() }
      return Array(rare?.streams.values ?? [:].values)
    }
    for stream in streams { stream.finish() }
  }

  /// Cancels every running effect (the store stays usable).
  func cancelAllEffects() {
    cancelTrees(locked { Array(mutable.pointee.effects.values) })
  }

  /// Stops counting the effects running now as in flight (a test no longer waits for them); they keep running.
  func skipRunningEffects() {
    locked { for record in mutable.pointee.effects.values { record.isSkipped = true } }
  }

  /// The effects still running and not skipped, oldest first: the action that started each, and whether it has
  /// been cancelled (and is winding down).
  var runningEffectSummaries: [(action: any Sendable, isCancelled: Bool)] {
    locked {
      mutable.pointee.effects.values.filter { !$0.isSkipped }.sorted { $0.id < $1.id }
        .map { ($0.action, $0.isCancelled) }
    }
  }

}
