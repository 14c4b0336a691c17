import Foundation
import Unidirectional
import UnidirectionalActionLog

/// The floor under recording: an instrument that reads, for every action, the clock the recorder reads for a store
/// on `ContinuousClock` (`CLOCK_BOOTTIME` on Linux, read directly as the recorder does), and keeps the reading.
final class ClockReadInstrument: StoreInstrument, @unchecked Sendable {
  /// The last reading; written only from `didReduce`, which the store calls with its lock held.
  private let last = UnsafeMutablePointer<Int64>.allocate(capacity: 1)

  init() { last.initialize(to: 0) }

  deinit { last.deallocate() }

  func didReduce(_ action: LogBenchAction, _ reduction: Reduction, state: ReducedState<LogBenchState>) {
    last.pointee = Self.now()
  }

  @inline(__always)
  static func now() -> Int64 {
    #if os(Linux)
      var time = timespec()
      clock_gettime(CLOCK_BOOTTIME, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #else
      let now = ContinuousClock.now
      return Int64(bitPattern: UInt64(truncatingIfNeeded: now.hashValue))
    #endif
  }
}

/// Recording on the send path: `send` on a recording store against its floor (a store whose instrument reads the
/// clock per action, `ClockReadInstrument`) and against plain `send`, in the same bursts of the same feature.
enum RecordingSendBenchmarks {
  /// `--profile record_send [N]` (and `record_send_no_fingerprints`): `send` on a recording store in bursts of
  /// 1,000, the writer flushed after each, for callgrind; `record_send_baseline` is the same `send` unrecorded,
  /// `record_send_floor` the same `send` with the clock-reading instrument. Returns false for an unknown name.
  static func profile(_ name: String, iterations: Int) -> Bool {
    if name == "record_send_baseline" {
      let plain = Store(initialState: LogBenchState()) { LogBenchFeature() }
      for _ in 0..<iterations { plain.send(.increment) }
      return true
    }
    if name == "record_send_floor" {
      let floor = Store(initialState: LogBenchState(), instruments: [ClockReadInstrument()]) { LogBenchFeature() }
      for _ in 0..<iterations { floor.send(.increment) }
      return true
    }
    guard name == "record_send" || name == "record_send_no_fingerprints" else { return false }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("unidirectional-profile-record.jsonl")
    try? FileManager.default.removeItem(at: url)
    defer { try? FileManager.default.removeItem(at: url) }
    guard let recorder = try? ActionRecorder(fileURL: url, fingerprints: name == "record_send") else { return true }
    let store = Store(initialState: LogBenchState(), recordingTo: recorder) {
      LogBenchFeature()
    } withDependencies: {
      $0.clock = ContinuousClock()
    }
    for start in stride(from: 0, to: iterations, by: 1_000) {
      for _ in start..<min(start + 1_000, iterations) { store.send(.increment) }
      waitFor { try? await recorder.flush() }
    }
    waitFor { try? await recorder.close() }
    return true
  }

  /// Runs `body` to its end from synchronous code (the profile loop).
  private static func waitFor(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await body()
      done.signal()
    }
    done.wait()
  }

  /// The send-path rows, recorded into files in a temporary folder of their own.
  static func all(rounds: Int) async -> [BenchmarkResult] {
    await inTemporaryFolder(named: "recording") { try await all(rounds: rounds, folder: $0) }
  }

  /// The send-path rows, recorded into files in `folder`.
  static func all(rounds: Int, folder: URL) async throws -> [BenchmarkResult] {
    // Bursts of 1,000 actions (one buffer chunk; the writer catches up between bursts, untimed), interleaved with
    // the same bursts on an unrecorded store and on the floor's store, same feature. Median of 201 bursts.
    let plain = Store(initialState: LogBenchState()) { LogBenchFeature() }
    let floor = Store(initialState: LogBenchState(), instruments: [ClockReadInstrument()]) { LogBenchFeature() }
    let withFingerprints = try await recordedSend(
      folder.appendingPathComponent("burst.jsonl"), fingerprints: true, plain: plain, floor: floor, burst: 1_000,
      bursts: 201)
    let bare = try await recordedSend(
      folder.appendingPathComponent("burst-bare.jsonl"), fingerprints: false, plain: plain, floor: floor,
      burst: 1_000, bursts: 201)
    // Long bursts: the writer encodes on the other core while the sender keeps going.
    let long = try await recordedSend(
      folder.appendingPathComponent("burst-long.jsonl"), fingerprints: true, plain: plain, floor: floor,
      burst: 50_000, bursts: rounds)
    let clockRead = await median(rounds: rounds) {
      let clock = ContinuousClock()
      let start = clock.now
      var total = Duration.zero
      let result = measure(iterations: 50_000) { total += start.duration(to: clock.now) }
      blackHole(total)
      return result
    }
    let send = withFingerprints.plain
    let note = """
      recording: send \(format(send)) ns, floor \(format(withFingerprints.floor)) ns, record_send \
      \(format(withFingerprints.recorded)) ns (no fingerprints \(format(bare.recorded)) ns against a floor of \
      \(format(bare.floor)) ns; 50k bursts \(format(long.recorded)) vs \(format(long.floor)) ns), \
      ContinuousClock.now alone \(format(clockRead)) ns

      """
    FileHandle.standardError.write(Data(note.utf8))
    return [
      BenchmarkResult(
        name: "send, instrument reading the clock (the recorder's floor)", nsPerOp: withFingerprints.floor,
        baselineName: "send (same feature)", baselineNsPerOp: send, target: "reference"),
      BenchmarkResult(
        name: "record_send", nsPerOp: withFingerprints.recorded, baselineName: "floor (same bursts)",
        baselineNsPerOp: withFingerprints.floor, target: "≤ 1.3× floor"),
      BenchmarkResult(
        name: "record_send_no_fingerprints", nsPerOp: bare.recorded, baselineName: "floor (same bursts)",
        baselineNsPerOp: bare.floor, target: "≤ 1.3× floor"),
      BenchmarkResult(
        name: "record_send_50k_bursts", nsPerOp: long.recorded, baselineName: "floor (same bursts)",
        baselineNsPerOp: long.floor, target: "reference"),
      BenchmarkResult(
        name: "record_send, against plain send", nsPerOp: withFingerprints.recorded,
        baselineName: "send (same feature)", baselineNsPerOp: send, target: "reference"),
      BenchmarkResult(
        name: "clock_now (ContinuousClock)", nsPerOp: clockRead, baselineName: "send (same feature)",
        baselineNsPerOp: send, target: "reference"),
    ]
  }

  /// Median ns per `send` on `plain`, on `floor` and on a recording store, in `bursts` interleaved bursts of
  /// `burst` actions each; the writer is flushed between bursts, untimed.
  private static func recordedSend(
    _ url: URL, fingerprints: Bool, plain: Store<LogBenchState, LogBenchAction>,
    floor: Store<LogBenchState, LogBenchAction>, burst: Int, bursts: Int
  ) async throws -> (plain: Double, floor: Double, recorded: Double) {
    let recorder = try ActionRecorder(fileURL: url, fingerprints: fingerprints)
    let store = Store(initialState: LogBenchState(), recordingTo: recorder) {
      LogBenchFeature()
    } withDependencies: {
      $0.clock = ContinuousClock()
    }
    var plainSamples: [Double] = []
    var floorSamples: [Double] = []
    var recordedSamples: [Double] = []
    for _ in 0..<bursts {
      plainSamples.append(measure(iterations: burst) { plain.send(.increment) })
      floorSamples.append(measure(iterations: burst) { floor.send(.increment) })
      recordedSamples.append(measure(iterations: burst) { store.send(.increment) })
      try await recorder.flush()
    }
    try await recorder.close()
    return (medianOf(plainSamples), medianOf(floorSamples), medianOf(recordedSamples))
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
