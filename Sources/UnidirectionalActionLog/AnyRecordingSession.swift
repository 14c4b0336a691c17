/// What ``ActionRecorder`` needs from a recording, whatever the store's `State` and `Action` types.
protocol AnyRecordingSession: AnyObject, Sendable {
  /// The writer thread's loop; returns when the recording is finished.
  func runWriter()
  func flush() async throws(ActionLogError)
  func close() async throws(ActionLogError)
  var writtenCount: Int { get }
  var backPressureWaitCount: Int { get }
  func setWriterHeld(_ held: Bool)
  /// Blocks until `condition` holds for the recording's progress (checked each time the writer or a sender signals
  /// a change); false if it did not within `timeout`, a bound for a broken build, not a pace. For tests.
  func waitForWriter(timeout: Duration, until condition: (RecordingProgress) -> Bool) -> Bool
}

/// Where a recording is, for tests waiting for its writer.
struct RecordingProgress {
  /// Action lines written so far.
  let written: UInt64
  /// Whether the writer polls (collects the partial chunk by itself every flush interval).
  let polls: Bool
  /// How often a send waited for the writer because the buffer was full.
  let backPressureWaits: Int
}
