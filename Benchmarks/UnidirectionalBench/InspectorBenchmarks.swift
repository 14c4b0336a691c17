import Foundation
import Unidirectional
import UnidirectionalInspector

/// The inspector's costs: opening a 1,000,000-line log to its first screen (server start to the first screen's
/// JSON served), against reading the file once; and live mode's cost on `send` with a page connected and with a
/// page that stopped reading, against `send` without the inspector, interleaved in the same run.
enum InspectorBenchmarks {
  /// The counter the generated log is replayed through.
  struct LogCounter: Reducer {
    struct State: Codable, Sendable, Equatable { var count = 0 }
    enum Action: Codable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  /// `--profile send_inspected [N]`: `send` on a store with a live inspector (no page), for callgrind; returns false
  /// for another name.
  static func profile(_ name: String, iterations: Int) -> Bool {
    if name == "trace_open" {
      InspectorTraceBenchmark.profile(effects: iterations)
      return true
    }
    guard name == "send_inspected" else { return false }
    let live = InspectorLive(feature: "BenchFeature")
    // A buffer that holds every action: none is dropped (the cheap path) however far the collector falls behind,
    // as it does under valgrind — so the count is the same every run.
    let instrument = live.instrument(for: BenchFeature.self, bufferLimit: iterations + 1)
    let store = Store(initialState: BenchState(), instruments: [instrument]) { BenchFeature() }
    for start in stride(from: 0, to: iterations, by: 2_000) {
      for _ in start..<min(start + 2_000, iterations) { store.send(.increment) }
      usleep(30_000)
    }
    return true
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    var results: [BenchmarkResult] = []
    if let open = openToFirstScreen(lines: 1_000_000, rounds: 3) { results.append(open) }
    if let trace = InspectorTraceBenchmark.run(rounds: 3) { results.append(trace) }
    results += liveSend()
    return results
  }

  // MARK: - Open to first screen

  private static func openToFirstScreen(lines: Int, rounds: Int) -> BenchmarkResult? {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("unidirectional-bench-\(ProcessInfo.processInfo.processIdentifier).inspect.jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    var text = #"{"format":"unidirectional-action-log","version":1,"feature":"LogCounter","initialState":{"count":0}}"#
    text += "\n"
    text.reserveCapacity(lines * 72)
    for number in 1...lines {
      text += #"{"seq":\#(number),"origin":"sent","time":\#(Double(number) / 1000),"action":{"increment":{}}}"#
      text += "\n"
    }
    do {
      try Data(text.utf8).write(to: url)
    } catch {
      FileHandle.standardError.write(Data("inspector benchmark: cannot write the log: \(error)\n".utf8))
      return nil
    }
    var opens: [Double] = []
    var reads: [Double] = []
    for _ in 0..<rounds {
      reads.append(measureNanoseconds { _ = countLines(url) })
      opens.append(
        measureNanoseconds {
          do {
            let model = try InspectorLogModel(contentsOf: url, reducer: LogCounter())
            let server = try InspectorServer(model: model)
            defer { server.stop() }
            // What the page asks for before it shows anything: itself, its script and style, the header, the
            // first rows and the first step.
            for path in [
              "/", "/inspector.js", "/inspector.css", "/api/info", "/api/steps?from=0&count=200", "/api/step?n=1",
            ] {
              let separator = path.contains("?") ? "&" : "?"
              guard get(port: server.port, path: path + separator + "token=" + server.token) else {
                FileHandle.standardError.write(Data("inspector benchmark: \(path) failed\n".utf8))
                return
              }
            }
          } catch {
            FileHandle.standardError.write(Data("inspector benchmark: \(error)\n".utf8))
          }
        })
    }
    return BenchmarkResult(
      name: "inspector: 1,000,000-line log, start to first screen served", nsPerOp: medianOf(opens),
      baselineName: "read(2) the file, count lines", baselineNsPerOp: medianOf(reads), target: "< 1 s (1e9 ns)")
  }

  static func measureNanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }

  /// Lines in the file, read with read(2) in 1 MiB chunks: the raw cost of looking at every byte once.
  static func countLines(_ url: URL) -> Int {
    let descriptor = open(url.path, O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var count = 0
    while true {
      let read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
      guard read > 0 else { return count }
      for index in 0..<read where buffer[index] == 10 { count += 1 }
    }
  }

  /// A blocking HTTP/1.1 GET on 127.0.0.1 that reads the whole answer; whether it was a 200.
  @discardableResult
  static func get(port: UInt16, path: String, readAnswer: Bool = true) -> Bool {
    guard let descriptor = connectLoopback(port: port) else { return false }
    defer { close(descriptor) }
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
    guard send(descriptor, request) else { return false }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      answer += chunk[0..<count]
    }
    return answer.starts(with: Array("HTTP/1.1 200".utf8))
  }

  static func connectLoopback(port: UInt16) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  static func send(_ descriptor: Int32, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      == bytes.count
  }

  // MARK: - Live send

  /// Bursts of 1,000 sends, each followed (untimed) by a pause of two collect intervals in which the inspector
  /// takes the buffer and the page's stream writes it; interleaved with the same bursts on a store without it.
  private static func liveSend() -> [BenchmarkResult] {
    var results: [BenchmarkResult] = []
    for stalled in [false, true] {
      let plain = Store(initialState: BenchState()) { BenchFeature() }
      let live = InspectorLive(feature: "BenchFeature")
      guard let server = try? InspectorServer(model: live) else { return results }
      defer { server.stop() }
      let inspected = Store(initialState: BenchState(), instruments: [live.instrument(for: BenchFeature.self)]) {
        BenchFeature()
      }
      guard let page = connectLoopback(port: server.port),
        send(page, "GET /api/events?after=0&token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
      else { return results }
      let reading = LockedFlag(true)
      if !stalled {
        // A page that keeps up: reads everything the stream sends.
        Thread {
          var chunk = [UInt8](repeating: 0, count: 64 << 10)
          while reading.value, chunk.withUnsafeMutableBytes({ recv(page, $0.baseAddress, $0.count, 0) }) > 0 {}
        }.start()
      }
      let burst = 1_000
      var plainBursts: [Double] = []
      var inspectedBursts: [Double] = []
      for _ in 0..<201 {
        plainBursts.append(measure(iterations: burst) { plain.send(.increment) })
        inspectedBursts.append(measure(iterations: burst) { inspected.send(.increment) })
        usleep(40_000)
      }
      reading.value = false
      shutdown(page, Int32(SHUT_RDWR))
      close(page)
      let dropped = live.info().dropped
      results.append(
        BenchmarkResult(
          name: "send, live inspector, page \(stalled ? "stalled (never reads)" : "connected and reading") (sender)",
          nsPerOp: medianOf(inspectedBursts), baselineName: "send (same bursts)",
          baselineNsPerOp: medianOf(plainBursts), target: "≤ 1.3× send; \(dropped) dropped"))
    }
    results.append(untakenStepBuffer())
    return results
  }

  /// The same bursts into a `StepBuffer` that nothing takes: the store's copies alone, without a collector reading
  /// the lines the sender writes next (what the live rows cost beyond this is the two cores sharing the buffer).
  private static func untakenStepBuffer() -> BenchmarkResult {
    final class Untaken: StoreInstrument, @unchecked Sendable {
      let stepBuffer: StepBuffer<BenchState, BenchAction>? = StepBuffer(capacity: 202_000)
      func didReduce(_ action: BenchAction, _ reduction: Reduction, state: ReducedState<BenchState>) {
        stepBuffer?.append(action, reduction: reduction, state: state)
      }
    }
    let plain = Store(initialState: BenchState()) { BenchFeature() }
    let buffered = Store(initialState: BenchState(), instruments: [Untaken()]) { BenchFeature() }
    var plainBursts: [Double] = []
    var bufferedBursts: [Double] = []
    for _ in 0..<201 {
      plainBursts.append(measure(iterations: 1_000) { plain.send(.increment) })
      bufferedBursts.append(measure(iterations: 1_000) { buffered.send(.increment) })
      usleep(40_000)
    }
    return BenchmarkResult(
      name: "send into a StepBuffer nothing takes (sender)", nsPerOp: medianOf(bufferedBursts),
      baselineName: "send (same bursts)", baselineNsPerOp: medianOf(plainBursts), target: "reference")
  }
}

/// A flag one thread sets and another reads.
private final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Bool
  init(_ value: Bool) { stored = value }
  var value: Bool {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
