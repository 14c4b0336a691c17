/// What a store with an observer keeps for it, outside any generic context (the send path reads it).
struct ObservationCounters {
  /// The sequence number of the last action reduced.
  var sequence: UInt64 = 0
  /// Whether the observer wants clock readings.
  let measuresTime: Bool

  init(measuresTime: Bool) {
    self.measuresTime = measuresTime
  }

  /// Counts a reduction about to run; returns the clock's reading if the observer measures time, else 0.
  @inline(__always)
  static func willReduce(_ counters: UnsafeMutablePointer<ObservationCounters>) -> UInt64 {
    counters.pointee.sequence &+= 1
    return counters.pointee.measuresTime ? now() : 0
  }

  @inline(never)
  private static func now() -> UInt64 { InstrumentationClock.nanoseconds }
}
