// The dependencies a root core runs with, and what it tells its instrument.
extension RootCore {
  // MARK: Dependencies

  /// The dependencies the reducer reads and new effects start with.
  var dependencies: DependencyValues {
    locked { mutable.pointee.dependencies.values }
  }

  /// Replaces the dependencies for the actions reduced from now on; running effects keep theirs.
  func setDependencies(_ values: DependencyValues) {
    let scope = ReducerDependencies(values: values)
    locked {
      mutable.pointee.dependencies = scope
      dependenciesSlot.pointee = Unmanaged.passUnretained(scope)
    }
  }

  func report(_ message: String) {
    dependencies.issueReporter.report(RuntimeIssue(message: message, fileID: "Unidirectional/Store", line: 0))
  }

  // MARK: Instrument

  /// Reports a reduction begun by ``InstrumentCounters/willReduce(_:)`` at `start` to the instrument. Out of line: a
  /// store without instruments pays nothing for it. (A store whose instrument has a step buffer copies into it instead,
  /// in `reduce`.)
  @inline(never)
  func didReduce(
    _ action: Action, origin: ActionOrigin, cause: EffectRecord?, start: UInt64,
    counters: UnsafeMutablePointer<InstrumentCounters>
  ) {
    let timing =
      counters.pointee.measuresTime
      ? ReducerTiming(start: start, nanoseconds: InstrumentationClock.nanoseconds &- start) : nil
    let reduction = Reduction(
      sequence: counters.pointee.sequence, origin: origin, effect: cause?.id, timing: timing)
    instrument.didReduce(action, reduction, state: ReducedState(state))
  }

  /// The sequence number of the last action reduced (0 without an instrument). Call with the lock held.
  var lastSequence: UInt64 { counters?.pointee.sequence ?? 0 }

  /// Tells the instrument what happened to `record`. Call with the lock held.
  func report(_ kind: EffectEvent.Kind, _ record: EffectRecord) {
    guard let counters else { return }
    instrument.effectDidChange(
      EffectEvent(
        kind: kind, effect: record.id, startedBy: record.sequence, parent: kind == .started ? record.parent?.id : nil,
        time: counters.pointee.measuresTime ? InstrumentationClock.nanoseconds : nil))
  }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    try locked(body)
  }
}

/// What a store with an instrument keeps for it, outside any generic context (the send path reads it).
struct InstrumentCounters {
  /// The sequence number of the last action reduced.
  var sequence: UInt64 = 0
  /// Whether the instrument wants clock readings.
  let measuresTime: Bool

  init(measuresTime: Bool) {
    self.measuresTime = measuresTime
  }

  /// Counts a reduction about to run; returns the clock's reading if the instrument measures time, else 0.
  @inline(__always)
  static func willReduce(_ counters: UnsafeMutablePointer<InstrumentCounters>) -> UInt64 {
    counters.pointee.sequence &+= 1
    return counters.pointee.measuresTime ? now() : 0
  }

  @inline(never)
  private static func now() -> UInt64 { InstrumentationClock.nanoseconds }
}
