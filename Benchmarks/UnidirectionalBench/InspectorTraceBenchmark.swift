import Foundation
import UnidirectionalInspector

/// Opening a run's trace for the inspector's effect timeline: a `StoreTracer`-shaped trace of 100,000 actions, each
/// starting an effect, read into the timeline (parsed, aligned with the steps, indexed), against reading the file
/// once with read(2).
enum InspectorTraceBenchmark {
  static func run(rounds: Int) -> BenchmarkResult? {
    let effects = 100_000
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("unidirectional-bench-\(ProcessInfo.processInfo.processIdentifier).trace.json")
    defer { try? FileManager.default.removeItem(at: url) }
    guard let size = write(effects: effects, to: url) else { return nil }
    var reads: [Double] = []
    var opens: [Double] = []
    for _ in 0..<rounds {
      reads.append(InspectorBenchmarks.measureNanoseconds { _ = InspectorBenchmarks.countLines(url) })
      opens.append(InspectorBenchmarks.measureNanoseconds { open(url, effects: effects) })
    }
    return BenchmarkResult(
      name: "inspector: 100,000-effect trace (\(size / 1_000_000) MB) read into the timeline",
      nsPerOp: medianOf(opens), baselineName: "read(2) the file, count lines", baselineNsPerOp: medianOf(reads),
      target: "< 1 s (1e9 ns)")
  }

  /// `--profile trace_open N`: writes a trace of N effects, then reads it once (for callgrind: the instructions
  /// of `InspectorTrace.init`, inclusive, per effect).
  static func profile(effects: Int) {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("unidirectional-bench-\(ProcessInfo.processInfo.processIdentifier).trace.json")
    defer { try? FileManager.default.removeItem(at: url) }
    guard write(effects: effects, to: url) != nil else { return }
    open(url, effects: effects)
  }

  private static func open(_ url: URL, effects: Int) {
    do {
      let trace = try InspectorTrace(contentsOf: url)
      guard trace.effectCount == effects else { throw InspectorTraceError.cannotRead(path: "", reason: "count") }
    } catch {
      FileHandle.standardError.write(Data("inspector trace benchmark: \(error)\n".utf8))
    }
  }

  /// Writes a `StoreTracer`-shaped trace: `effects` actions, each starting an effect; returns its size.
  private static func write(effects: Int, to url: URL) -> Int? {
    var text = "[\n" + #"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"Bench store"}}"#
    text.reserveCapacity(effects * 420)
    for step in 1...effects {
      let time = Double(step) * 10
      text += ",\n" + #"{"name":".tick","cat":"action","ph":"X","ts":\#(time),"pid":1,"tid":0,"dur":1.5,"#
      text += #""args":{"sequence":\#(step),"origin":"sent","action":"Bench.Action.tick"}}"#
      text +=
        ",\n" + #"{"name":"thread_name","ph":"M","pid":1,"tid":\#(step),"args":{"name":"effect \#(step) · .tick"}}"#
      text += ",\n" + #"{"name":"effect \#(step) · .tick","cat":"effect","ph":"X","ts":\#(time + 2),"pid":1,"#
      text += #""tid":\#(step),"dur":15,"args":{"startedBy":\#(step)}}"#
    }
    text += "\n]\n"
    do {
      try Data(text.utf8).write(to: url)
      return text.utf8.count
    } catch {
      FileHandle.standardError.write(Data("inspector trace benchmark: cannot write the trace: \(error)\n".utf8))
      return nil
    }
  }
}
