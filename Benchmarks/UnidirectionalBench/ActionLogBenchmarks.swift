import Foundation
import Unidirectional
import UnidirectionalActionLog

/// The state the action log benchmarks record and replay.
struct LogBenchState: Codable, Equatable, Sendable {
  var count = 0
  var total = 0
  var label: String?
}

enum LogBenchAction: Codable, Equatable, Sendable {
  case increment
  case add(Int)
  case setLabel(String)
}

struct LogBenchFeature: Reducer {
  func reduce(into state: inout LogBenchState, action: LogBenchAction) -> Effect<LogBenchAction> {
    switch action {
    case .increment: state.count &+= 1
    case let .add(amount): state.total &+= amount
    case let .setLabel(label): state.label = label
    }
    return .none
  }
}

/// A log line decoded on its own: the baseline replay is compared with.
private struct DecodedLogLine: Decodable {
  var seq: UInt64
  var origin: ActionOrigin
  var time: Double
  var action: LogBenchAction
  var fingerprint: String?
}

/// Recording overhead on `send`, the writer's sustained throughput, and replay throughput against decoding
/// the same lines alone.
enum ActionLogBenchmarks {
  /// `--profile` cases: the send path's (``RecordingSendBenchmarks``). Returns false for an unknown name.
  static func profile(_ name: String, iterations: Int) -> Bool {
    RecordingSendBenchmarks.profile(name, iterations: iterations)
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    await inTemporaryFolder(named: "action-log") { try await run(rounds: rounds, folder: $0) }
  }

  private static func run(rounds: Int, folder: URL) async throws -> [BenchmarkResult] {
    let sendRows = try await RecordingSendBenchmarks.all(rounds: rounds, folder: folder)
    let send = sendRows.first?.baselineNsPerOp ?? 0

    // Writer throughput: every line encoded, fingerprinted and written; `close()` included.
    let sustainedCount = 200_000
    let sustained = try await throwingMedian(rounds: min(rounds, 3)) {
      let url = folder.appendingPathComponent("sustained.jsonl")
      return try await recordLog(to: url, lines: sustainedCount) / Double(sustainedCount)
    }

    // Replay: a 1M-line log (recorded by the recorder), replayed from the file with every fingerprint verified,
    // against decoding the same lines, already in memory, with the same JSONDecoder into the same line shape.
    // Interleaved rounds, medians.
    let lineCount = 1_000_000
    let logURL = folder.appendingPathComponent("replay.jsonl")
    _ = try await recordLog(to: logURL, lines: lineCount)
    var peakGrowth = 0
    var replays: [Double] = []
    var decodes: [Double] = []
    var fileSize = 0
    for _ in 0..<min(rounds, 3) {
      let (nanoseconds, growth) = try replayLog(logURL, expectedSteps: lineCount)
      peakGrowth = max(peakGrowth, growth)
      replays.append(nanoseconds / Double(lineCount))
      let (bytes, lines) = try loadLines(logURL)
      fileSize = bytes.count
      decodes.append(try decodeLines(bytes, lines) / Double(lineCount))
    }
    let replay = replays.sorted()[replays.count / 2]
    let decode = decodes.sorted()[decodes.count / 2]

    let note = """
      action log: writer \(linesPerSecond(sustained)) lines/s; replay \(linesPerSecond(replay)) lines/s vs decode \
      alone \(linesPerSecond(decode)) lines/s over \(lineCount) lines (\(fileSize / 1_000_000) MB); replay \
      resident memory growth \(peakGrowth / 1024) KiB

      """
    FileHandle.standardError.write(Data(note.utf8))

    return sendRows + [
      BenchmarkResult(
        name: "record_sustained (writer, per line)", nsPerOp: sustained, baselineName: "send (same feature)",
        baselineNsPerOp: send, target: "reference: \(linesPerSecond(sustained)) lines/s"),
      BenchmarkResult(
        name: "replay_1m (per line, verified)", nsPerOp: replay, baselineName: "decode alone (per line)",
        baselineNsPerOp: decode, target: "≤ 1.2× decode; \(linesPerSecond(replay)) lines/s"),
    ]
  }

  /// Records `lines` actions through a recording store and closes the recorder: total ns.
  private static func recordLog(to url: URL, lines: Int) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let recorder = try ActionRecorder(fileURL: url, feature: "LogBench")
    let store = Store(initialState: LogBenchState(), recordingTo: recorder) {
      LogBenchFeature()
    } withDependencies: {
      $0.clock = ContinuousClock()
    }
    let labels = (0..<10).map { "item \($0)" }
    for index in 0..<lines {
      switch index % 3 {
      case 0: store.send(.increment)
      case 1: store.send(.add(index % 100))
      default: store.send(.setLabel(labels[index % 10]))
      }
    }
    try await recorder.close()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }

  /// Replays the log, verifying every fingerprint: total ns and the largest growth of resident memory seen.
  private static func replayLog(_ url: URL, expectedSteps: Int) throws -> (Double, Int) {
    let baseline = residentBytes()
    var growth = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let replay = try ActionLogReplay(contentsOf: url, reducer: LogBenchFeature())
    var steps = 0
    while let step = try replay.next() {
      steps += 1
      if step.matchesRecording != true { throw BenchmarkFailure("step \(step.number) diverged") }
      if steps % 100_000 == 0 { growth = max(growth, residentBytes() - baseline) }
    }
    let end = DispatchTime.now().uptimeNanoseconds
    guard steps == expectedSteps else { throw BenchmarkFailure("replayed \(steps) of \(expectedSteps) steps") }
    return (Double(end - start), growth)
  }

  /// The log's bytes and the ranges of its action lines (the header skipped).
  private static func loadLines(_ url: URL) throws -> (Data, [Range<Int>]) {
    let bytes = try Data(contentsOf: url)
    var lines: [Range<Int>] = []
    lines.reserveCapacity(1_000_001)
    bytes.withUnsafeBytes { buffer in
      var start = 0
      for index in 0..<buffer.count where buffer[index] == 0x0A {
        lines.append(start..<index)
        start = index + 1
      }
    }
    return (bytes, Array(lines.dropFirst()))
  }

  /// Decodes every line with one JSONDecoder: total ns.
  private static func decodeLines(_ bytes: Data, _ lines: [Range<Int>]) throws -> Double {
    let decoder = JSONDecoder()
    var checksum = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for range in lines {
      let line = try decoder.decode(DecodedLogLine.self, from: bytes.subdata(in: range))
      checksum &+= Int(line.seq)
    }
    let end = DispatchTime.now().uptimeNanoseconds
    blackHole(checksum)
    return Double(end - start)
  }

  private static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  private static func linesPerSecond(_ nanosecondsPerLine: Double) -> String {
    String(format: "%.0f", 1e9 / nanosecondsPerLine)
  }

  /// The median of `rounds` runs of a throwing measurement.
  private static func throwingMedian(rounds: Int, _ body: () async throws -> Double) async throws -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds { samples.append(try await body()) }
    samples.sort()
    return samples[samples.count / 2]
  }
}

private struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The rows `body` measures with files in a temporary folder of their own (removed afterwards); none, and a line on
/// standard error, if it throws.
func inTemporaryFolder(
  named name: String, _ body: (URL) async throws -> [BenchmarkResult]
) async -> [BenchmarkResult] {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("unidirectional-bench-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  do {
    return try await body(folder)
  } catch {
    FileHandle.standardError.write(Data("\(name) benchmarks failed: \(error)\n".utf8))
    return []
  }
}
