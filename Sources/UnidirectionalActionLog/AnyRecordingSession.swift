/// What ``ActionRecorder`` needs from a recording, whatever the store's `State` and `Action` types.
protocol AnyRecordingSession: AnyObject, Sendable {
  /// The writer thread's loop; returns when the recording is finished.
  func runWriter()
  func flush() async throws(ActionLogError)
  func close() async throws(ActionLogError)
  var writtenCount: Int { get }
  var backPressureWaitCount: Int { get }
  func setWriterHeld(_ held: Bool)
  func waitForBackPressure(timeout: Duration) -> Bool
}
