// The synchronous work of a `send`: reducing the actions fed back and sent re-entrantly, starting effects.
extension RootCore {
  // MARK: Batches

  /// The synchronous work of one `send`, done with the lock held.
  enum Work {
    /// Reduce an action fed back synchronously or sent re-entrantly; its effects go to `list`.
    case reduce(Action, ActionOrigin, cause: EffectRecord?, list: Int, dropsIfCauseCancelled: Bool)
    /// Start an effect returned for `action` (the store's `sequence`-th reduction, for instruments; the batch's
    /// `reduction`-th, for cancellations within the batch).
    case start(
      Effect<Action>, startedBy: Action, sequence: UInt64, cancelIDs: [CancelID], cause: EffectRecord?, list: Int,
      reduction: Int)
    /// Start the asynchronous rest of a concatenation, once its synchronous leading parts are done.
    case spawnRest(
      [Effect<Action>], startedBy: Action, sequence: UInt64, cancelIDs: [CancelID], cause: EffectRecord?, list: Int,
      reduction: Int)
  }

  /// What a batch collects while the lock is held and hands out after releasing it.
  struct Batch {
    /// The effects started, per handle: list 0 is the sender's, one more per re-entrant action.
    var lists: [[EffectRecord]] = [[]]
    var deferred: [(DeferredEffects, Int)] = []
    var cancellations: [@Sendable () -> Void] = []
    /// How many actions the batch has reduced: each effect is tagged with the reduction that returned it.
    var reductions = 0
    /// The ids cancelled so far, with the reduction whose effect cancelled them. An effect returned earlier but
    /// not started yet — it waits behind a `.send` reduced depth-first — is cancelled by them too, as in TCA, which
    /// starts all of an action's effects before reducing what they send.
    var cancelled: [(id: CancelID, reduction: Int)] = []

    /// Whether an effect with `cancelIDs`, returned by `reduction`, was cancelled by a later reduction's effect.
    func isCancelled(_ cancelIDs: [CancelID], returnedBy reduction: Int) -> Bool {
      cancelled.contains { $0.reduction > reduction && cancelIDs.contains($0.id) }
    }
  }

  /// Finishes a `send` whose first action returned `effect`: the lock is held (and this thread holds the store).
  @inline(never)
  func runBatch(
    startingWith effect: Effect<Action>, of action: Action, cause: EffectRecord?,
    context: UnsafeMutablePointer<ThreadContext>
  ) -> StoreTask {
    // The common chains of `.send` effects need no bookkeeping at all.
    var effect = effect
    var action = action
    while !flags.pointee.hasQueued, case let .send(next) = effect.node {
      action = next
      effect = reduce(next, origin: .received, cause: cause, context: context)
    }
    if effect.isNone && !flags.pointee.hasQueued {
      // Nothing was started and nothing is queued: no bookkeeping to hand out (and nothing to allocate).
      if releaseAfterBatch(context) { observationHook?() }
      return StoreTask()
    }
    if case let .run(run) = effect.node, !flags.pointee.hasQueued, !flags.pointee.isInvalidated {
      // One effect to start and nothing queued, the usual case: no work list, no batch to build and hand out.
      let record = spawn(run, cancelIDs: [], cause: cause, startedBy: action, sequence: lastSequence)
      if releaseAfterBatch(context) { observationHook?() }
      return StoreTask(records: [record])
    }
    var batch = Batch()
    var work: [Work] = [
      .start(effect, startedBy: action, sequence: lastSequence, cancelIDs: [], cause: cause, list: 0, reduction: 0)
    ]
    takeQueued(into: &work, batch: &batch)
    run(&work, batch: &batch, context: context)
    return endBatch(batch, context: context)
  }

  /// Processes `work` depth-first, with the lock held.
  func run(_ work: inout [Work], batch: inout Batch, context: UnsafeMutablePointer<ThreadContext>) {
    while let item = work.popLast() {
      if flags.pointee.isInvalidated { break }
      switch item {
      case let .reduce(action, origin, cause, list, dropsIfCauseCancelled):
        if dropsIfCauseCancelled, cause?.isCancelled == true { continue }
        let effect = reduce(action, origin: origin, cause: cause, context: context)
        batch.reductions += 1
        work.append(
          .start(
            effect, startedBy: action, sequence: lastSequence, cancelIDs: [], cause: cause, list: list,
            reduction: batch.reductions))
        takeQueued(into: &work, batch: &batch)

      case let .start(effect, action, sequence, cancelIDs, cause, list, reduction):
        switch effect.node {
        case .none:
          continue
        case let .send(next):
          // A consequence of an action already reduced: delivered even if that action cancelled its cause.
          work.append(.reduce(next, .received, cause: cause, list: list, dropsIfCauseCancelled: false))
        case let .run(run):
          if batch.isCancelled(cancelIDs, returnedBy: reduction) { continue }
          batch.lists[list].append(
            spawn(run, cancelIDs: cancelIDs, cause: cause, startedBy: action, sequence: sequence))
        case let .merge(effects):
          for effect in effects.reversed() {
            work.append(
              .start(
                effect, startedBy: action, sequence: sequence, cancelIDs: cancelIDs, cause: cause, list: list,
                reduction: reduction))
          }
        case let .concatenate(effects):
          let leading = effects.prefix { $0.isSynchronous }.count
          if leading < effects.count {
            work.append(
              .spawnRest(
                Array(effects[leading...]), startedBy: action, sequence: sequence, cancelIDs: cancelIDs, cause: cause,
                list: list, reduction: reduction))
          }
          for effect in effects[..<leading].reversed() {
            work.append(
              .start(
                effect, startedBy: action, sequence: sequence, cancelIDs: cancelIDs, cause: cause, list: list,
                reduction: reduction))
          }
        case let .cancellable(id, cancelInFlight, inner):
          if cancelInFlight {
            cancelHeld(id: id, into: &batch.cancellations)
            batch.cancelled.append((id, reduction))
          }
          work.append(
            .start(
              inner, startedBy: action, sequence: sequence, cancelIDs: cancelIDs + id.registrationKeys, cause: cause,
              list: list, reduction: reduction))
        case let .cancel(id):
          cancelHeld(id: id, into: &batch.cancellations)
          batch.cancelled.append((id, reduction))
        }

      case let .spawnRest(effects, action, sequence, cancelIDs, cause, list, reduction):
        if batch.isCancelled(cancelIDs, returnedBy: reduction) { continue }
        let rest = effects.count == 1 ? effects[0] : Effect(.concatenate(effects))
        let record = spawnRest(cancelIDs: cancelIDs, cause: cause, startedBy: action, sequence: sequence, priority: nil)
        {
          core, record, values in
          await DependencyValues.$taskValues.withValue(values) { await core.runToCompletion(rest, record: record) }
        }
        batch.lists[list].append(record)
      }
    }
  }

  /// Moves the actions sent re-entrantly onto the work stack, so they are reduced next, in the order sent.
  func takeQueued(into work: inout [Work], batch: inout Batch) {
    guard flags.pointee.hasQueued else { return }
    let rare = rareBookkeeping
    let queued = rare.queue
    rare.queue.removeAll(keepingCapacity: true)
    flags.pointee.hasQueued = false
    for item in queued.reversed() {
      let list = batch.lists.count
      batch.lists.append([])
      batch.deferred.append((item.deferred, list))
      work.append(.reduce(item.action, item.origin, cause: item.cause, list: list, dropsIfCauseCancelled: true))
    }
  }

  /// Feeds state streams once for the whole batch, lets other threads in, then does what must not run locked.
  func endBatch(_ batch: Batch, context: UnsafeMutablePointer<ThreadContext>) -> StoreTask {
    // Actions queued when the store was released mid-batch are dropped; their handles resolve empty.
    var dropped: [DeferredEffects] = []
    if flags.pointee.hasQueued {
      let rare = rareBookkeeping
      dropped = rare.queue.map(\.deferred)
      rare.queue.removeAll()
      flags.pointee.hasQueued = false
    }
    let notify = releaseAfterBatch(context)
    for cancel in batch.cancellations { cancel() }
    for (deferred, list) in batch.deferred { deferred.resolve(batch.lists[list]) }
    for deferred in dropped { deferred.resolve([]) }
    if notify { observationHook?() }
    return StoreTask(records: batch.lists[0])
  }
}
