// The synchronous work of a `send`: reducing the actions fed back and sent re-entrantly, starting effects. This is
// the store's one interpreter of effect trees: the asynchronous rest of a concatenation (RootCore+Concatenation.swift)
// hands each of its parts back here.
extension RootCore {
  // MARK: Batches

  /// Where an effect being started comes from, and where the records of what it starts go.
  struct Lineage {
    /// The action whose reduction returned the effect (for messages).
    var startedBy: Action
    /// The store's `sequence` of that reduction (for instruments).
    var sequence: UInt64
    /// The ids the effect answers to: those of every enclosing `cancellable`, in every enclosing namespace.
    var cancelIDs: [CancelID]
    /// The effect that fed back the action, if any: what the started effects are children of.
    var cause: EffectRecord?
    /// The handle the started effects belong to (``Batch/lists``).
    var list: Int
    /// The batch's reduction that returned the effect, for cancellations within the batch.
    var reduction: Int
    /// The concatenation part the effect belongs to (``Batch/parts``), whose next part waits for what it starts.
    var part: Int?
  }

  /// The synchronous work of one `send`, done with the lock held.
  enum Work {
    /// Reduce an action fed back synchronously or sent re-entrantly; its effects go to `list`.
    case reduce(Action, ActionOrigin, cause: EffectRecord?, list: Int, dropsIfCauseCancelled: Bool)
    /// Start an effect.
    case start(Effect<Action>, Lineage)
    /// Go on with a concatenation once its part `awaiting` has been started: its next parts, in `lineage`.
    case concatenate(ArraySlice<Effect<Action>>, Lineage, awaiting: Int)
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
    /// The effects started by each concatenation part begun in this batch: the next part waits for them.
    var parts: [[EffectRecord]] = []
    /// The concatenation whose part this batch starts (from its asynchronous rest): its own cancellation ids and
    /// those of its parts do not cancel it.
    var excluded: EffectRecord?

    /// Whether an effect with `cancelIDs`, returned by `reduction`, was cancelled by a later reduction's effect.
    func isCancelled(_ cancelIDs: [CancelID], returnedBy reduction: Int) -> Bool {
      cancelled.contains { $0.reduction > reduction && cancelIDs.contains($0.id) }
    }

    /// Adds a started effect to its handle and to the concatenation part it belongs to.
    mutating func add(_ record: EffectRecord, _ lineage: Lineage) {
      lists[lineage.list].append(record)
      if let part = lineage.part { parts[part].append(record) }
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
    return runWorkList(startingWith: effect, of: action, cause: cause, context: context)
  }

  /// The rest of ``runBatch(startingWith:of:cause:context:)`` when there is more to do than its fast paths: a
  /// function of its own, so that those paths never touch the work list's generic types (looking up their runtime
  /// metadata cost the `.send` round trip about 350 instructions).
  @inline(never)
  private func runWorkList(
    startingWith effect: Effect<Action>, of action: Action, cause: EffectRecord?,
    context: UnsafeMutablePointer<ThreadContext>
  ) -> StoreTask {
    var batch = Batch()
    let lineage = Lineage(
      startedBy: action, sequence: lastSequence, cancelIDs: [], cause: cause, list: 0, reduction: 0, part: nil)
    var work: [Work] = [.start(effect, lineage)]
    takeQueued(into: &work, batch: &batch)
    run(&work, batch: &batch, context: context)
    return endBatch(batch, context: context)
  }

  /// Processes `work` depth-first, with the lock held: the one place that knows what each kind of effect does.
  func run(_ work: inout [Work], batch: inout Batch, context: UnsafeMutablePointer<ThreadContext>) {
    while let item = work.popLast() {
      if flags.pointee.isInvalidated { break }
      switch item {
      case let .reduce(action, origin, cause, list, dropsIfCauseCancelled):
        if dropsIfCauseCancelled, cause?.isCancelled == true { continue }
        let effect = reduce(action, origin: origin, cause: cause, context: context)
        batch.reductions += 1
        let lineage = Lineage(
          startedBy: action, sequence: lastSequence, cancelIDs: [], cause: cause, list: list,
          reduction: batch.reductions, part: nil)
        work.append(.start(effect, lineage))
        takeQueued(into: &work, batch: &batch)

      case let .start(effect, lineage):
        switch effect.node {
        case .none:
          continue
        case let .send(next):
          // A consequence of an action already reduced: delivered even if that action cancelled its cause. What
          // the action starts is its own, not part of a concatenation's part.
          work.append(.reduce(next, .received, cause: lineage.cause, list: lineage.list, dropsIfCauseCancelled: false))
        case let .run(run):
          if batch.isCancelled(lineage.cancelIDs, returnedBy: lineage.reduction) { continue }
          let record = spawn(
            run, cancelIDs: lineage.cancelIDs, cause: lineage.cause, startedBy: lineage.startedBy,
            sequence: lineage.sequence)
          batch.add(record, lineage)
        case let .merge(effects):
          for effect in effects.reversed() { work.append(.start(effect, lineage)) }
        case let .concatenate(effects):
          concatenate(effects[...], lineage, awaiting: [], work: &work, batch: &batch)
        case let .cancellable(id, cancelInFlight, inner):
          if cancelInFlight { cancel(id, returnedBy: lineage.reduction, batch: &batch) }
          var inside = lineage
          inside.cancelIDs += id.registrationKeys
          work.append(.start(inner, inside))
        case let .cancel(id):
          cancel(id, returnedBy: lineage.reduction, batch: &batch)
        }

      case let .concatenate(effects, lineage, part):
        concatenate(effects, lineage, awaiting: batch.parts[part], work: &work, batch: &batch)
      }
    }
  }

  /// Cancels the effects running under `id` (but the concatenation the batch starts a part of) and those of the
  /// batch returned before `reduction` and not yet started.
  private func cancel(_ id: CancelID, returnedBy reduction: Int, batch: inout Batch) {
    cancelHeld(id: id, except: batch.excluded, into: &batch.cancellations)
    batch.cancelled.append((id, reduction))
  }

  /// Starts the parts of a concatenation in order, each once `awaiting` (what the one before started) has
  /// finished: at once while the parts before started nothing asynchronous, else in the concatenation's own task.
  ///
  /// A part that is a `.run` goes to that task too: it then runs inside it, with no task of its own (a debounced
  /// effect is one task).
  private func concatenate(
    _ effects: ArraySlice<Effect<Action>>, _ lineage: Lineage, awaiting: [EffectRecord], work: inout [Work],
    batch: inout Batch
  ) {
    guard let first = effects.first else {
      // Done: whatever the enclosing part waits for, it waits for what the last part started.
      if let part = lineage.part { batch.parts[part] += awaiting }
      return
    }
    if awaiting.isEmpty, !first.isRun {
      let part = batch.parts.count
      batch.parts.append([])
      var inside = lineage
      inside.part = part
      work.append(.concatenate(effects.dropFirst(), lineage, awaiting: part))
      work.append(.start(first, inside))
      return
    }
    if batch.isCancelled(lineage.cancelIDs, returnedBy: lineage.reduction) { return }
    let record = spawnConcatenation(effects, awaiting: awaiting, lineage: lineage)
    batch.add(record, lineage)
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

extension Effect {
  /// Whether this effect is one `.run`.
  var isRun: Bool {
    if case .run = node { return true }
    return false
  }
}
