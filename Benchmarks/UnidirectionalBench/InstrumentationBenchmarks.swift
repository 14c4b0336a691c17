import Foundation
import Unidirectional

/// An instrument that does nothing: what installing the hook costs by itself.
final class NoOpInstrument: StoreInstrument, @unchecked Sendable {
  let measuresTime: Bool

  init(measuresTime: Bool) { self.measuresTime = measuresTime }

  func didReduce(_ action: BenchAction, _ reduction: Reduction, state: ReducedState<BenchState>) {}
}

/// What seeing a running store costs on `send`: an installed instrument (no-op, without and with reducer timing),
/// change printing to /dev/null, tracing to a file. Each against plain `send` on the same feature, interleaved in the
/// same run.
enum InstrumentationBenchmarks {
  /// The cases `--profile` knows besides the core's; returns false for an unknown name.
  static func profile(_ name: String, iterations: Int) -> Bool {
    switch name {
    case "send_instrument_noop", "send_instrument_timed":
      let store = Store(
        initialState: BenchState(), instruments: [NoOpInstrument(measuresTime: name == "send_instrument_timed")]
      ) { BenchFeature() }
      for _ in 0..<iterations { store.send(.increment) }
    case "send_traced":
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("unidirectional-profile.trace.json")
      guard let tracer = try? StoreTracer(fileURL: url) else { return true }
      let store = Store(initialState: BenchState(), instruments: [tracer.instrument(for: BenchFeature.self)]) {
        BenchFeature()
      }
      for start in stride(from: 0, to: iterations, by: 1_000) {
        for _ in start..<min(start + 1_000, iterations) { store.send(.increment) }
        try? tracer.flush()
      }
      try? tracer.close()
      try? FileManager.default.removeItem(at: url)
    case "send_print_changes", "send_print_changes_scoped":
      // `_scoped`: an action three cases deep (`.child(.child(.child(.increment)))`) changing the innermost state.
      guard let printer = devNullPrinter() else { return true }
      let scoped = name == "send_print_changes_scoped"
      let store = Store(initialState: BenchState()) {
        if scoped { ScopedRootFeature().printChanges(to: printer) } else { BenchFeature().printChanges(to: printer) }
      }
      for start in stride(from: 0, to: iterations, by: 1_000) {
        for _ in start..<min(start + 1_000, iterations) {
          store.send(scoped ? .child(.child(.child(.increment))) : .increment)
        }
        printer.flush()
      }
    default:
      return false
    }
    return true
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    let iterations = 2_000_000
    let plain = Store(initialState: BenchState()) { BenchFeature() }
    let noOp = Store(initialState: BenchState(), instruments: [NoOpInstrument(measuresTime: false)]) { BenchFeature() }
    let timed = Store(initialState: BenchState(), instruments: [NoOpInstrument(measuresTime: true)]) { BenchFeature() }
    var plainSamples: [Double] = []
    var noOpSamples: [Double] = []
    var timedSamples: [Double] = []
    for _ in 0..<rounds {
      plainSamples.append(measure(iterations: iterations) { plain.send(.increment) })
      noOpSamples.append(measure(iterations: iterations) { noOp.send(.increment) })
      timedSamples.append(measure(iterations: iterations) { timed.send(.increment) })
    }
    let send = medianOf(plainSamples)
    var results = [
      BenchmarkResult(
        name: "send, instrument installed (no-op)", nsPerOp: medianOf(noOpSamples), baselineName: "send (interleaved)",
        baselineNsPerOp: send, target: "≤ 1.3× send"),
      BenchmarkResult(
        name: "send, instrument with reducer timing (no-op)", nsPerOp: medianOf(timedSamples),
        baselineName: "send (interleaved)", baselineNsPerOp: send, target: "reference: 2 clock readings more"),
    ]

    // Printing: bursts of 1,000 sends (well under the printer's 10,000 pending), each followed by an untimed
    // flush while the printer formats and writes to /dev/null; interleaved with the same bursts unprinted.
    if let printer = devNullPrinter() {
      let printed = Store(initialState: BenchState()) { BenchFeature().printChanges(to: printer) }
      let burst = 1_000
      var plainBursts: [Double] = []
      var printedBursts: [Double] = []
      var printerSamples: [Double] = []
      for _ in 0..<201 {
        plainBursts.append(measure(iterations: burst) { plain.send(.increment) })
        printedBursts.append(measure(iterations: burst) { printed.send(.increment) })
        let start = DispatchTime.now().uptimeNanoseconds
        printer.flush()
        printerSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(burst))
      }
      let sendBurst = medianOf(plainBursts)
      results.append(
        BenchmarkResult(
          name: "send, printChanges to /dev/null (sender)", nsPerOp: medianOf(printedBursts),
          baselineName: "send (same bursts)", baselineNsPerOp: sendBurst, target: "reference"))
      let formatting = medianOf(printerSamples)
      results.append(
        BenchmarkResult(
          name: "printChanges: formatting + writing (printer queue, per action)", nsPerOp: formatting,
          baselineName: "send (same bursts)", baselineNsPerOp: sendBurst,
          target: String(format: "≤ 10 µs (10,000 ns); %.0f actions/s", 1e9 / formatting)))
      results += printedScoped(baseline: formatting)
    }
    results += traced(plain: plain)
    return results
  }

  /// The printer's work for an action three cases deep (`.child(.child(.child(.increment)))`, each level a feature
  /// `Scope`d into the next) changing the innermost state: bursts of 200, flushed and timed per action.
  private static func printedScoped(baseline: Double) -> [BenchmarkResult] {
    guard let printer = devNullPrinter() else { return [] }
    let printed = Store(initialState: BenchState()) { ScopedRootFeature().printChanges(to: printer) }
    let burst = 200
    var printerSamples: [Double] = []
    for _ in 0..<101 {
      for _ in 0..<burst { printed.send(.child(.child(.child(.increment)))) }
      let start = DispatchTime.now().uptimeNanoseconds
      printer.flush()
      printerSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(burst))
    }
    let formatting = medianOf(printerSamples)
    return [
      BenchmarkResult(
        name: "printChanges: formatting + writing, an action three cases deep (per action)", nsPerOp: formatting,
        baselineName: "the same for `.increment`", baselineNsPerOp: baseline, target: "reference")
    ]
  }

  /// Tracing: the same bursts on a store traced to a temporary file (flushed, untimed, after each burst), against
  /// its floor in the same bursts: a store whose no-op instrument asks for reducer timing (the two clock readings a
  /// traced action needs).
  private static func traced(plain: Store<BenchState, BenchAction>) -> [BenchmarkResult] {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("unidirectional-bench-\(ProcessInfo.processInfo.processIdentifier).trace.json")
    defer { try? FileManager.default.removeItem(at: url) }
    do {
      let tracer = try StoreTracer(fileURL: url)
      let store = Store(initialState: BenchState(), instruments: [tracer.instrument(for: BenchFeature.self)]) {
        BenchFeature()
      }
      let timed = Store(initialState: BenchState(), instruments: [NoOpInstrument(measuresTime: true)]) {
        BenchFeature()
      }
      let burst = 1_000
      var plainBursts: [Double] = []
      var timedBursts: [Double] = []
      var tracedBursts: [Double] = []
      for _ in 0..<201 {
        plainBursts.append(measure(iterations: burst) { plain.send(.increment) })
        timedBursts.append(measure(iterations: burst) { timed.send(.increment) })
        tracedBursts.append(measure(iterations: burst) { store.send(.increment) })
        try tracer.flush()
      }
      try tracer.close()
      let timing = medianOf(timedBursts)
      return [
        BenchmarkResult(
          name: "send, instrument with reducer timing (no-op, same bursts)", nsPerOp: timing,
          baselineName: "send (same bursts)", baselineNsPerOp: medianOf(plainBursts),
          target: "reference: the tracer's floor"),
        BenchmarkResult(
          name: "send, traced by StoreTracer (sender)", nsPerOp: medianOf(tracedBursts),
          baselineName: "timing instrument (same bursts)", baselineNsPerOp: timing, target: "≤ 1.3× timing instrument"),
      ]
    } catch {
      FileHandle.standardError.write(Data("trace benchmark failed: \(error)\n".utf8))
      return []
    }
  }

  /// A change printer writing to /dev/null.
  static func devNullPrinter() -> ChangePrinter? {
    let descriptor = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      FileHandle.standardError.write(Data("cannot open /dev/null\n".utf8))
      return nil
    }
    return ChangePrinter(fileDescriptor: descriptor)
  }
}
