/// What a store with an observer keeps for it, outside any generic context (the send path reads it).
struct ObservationCounters {
  /// The sequence number of the last action reduced.
  var sequence: UInt64 = 0
  /// Whether the observer wants clock readings.
  let measuresTime: Bool

  init(measuresTime: Bool) {
    self.measuresTime = measuresTime
  }
}
