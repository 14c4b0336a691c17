import Foundation
import Unidirectional

// Runs every case next to its raw baseline in one process; prints a table, or JSON lines with --json.
// Each figure is the median of several rounds.

let arguments = CommandLine.arguments
let json = arguments.contains("--json")
let rounds = 7

if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
  // Loops one case for a profiler: `perf record -g unidirectional-bench --profile send`.
  // An optional count after the name: a short loop for `valgrind --tool=callgrind` instruction counts.
  let count = index + 2 < arguments.count ? Int(arguments[index + 2]) : nil
  CoreBenchmarks.profile(arguments[index + 1], iterations: count ?? 50_000_000)
  exit(0)
}

if arguments.dropFirst().first == "inspector" {
  // Only the inspector's cases: `unidirectional-bench inspector [--json]`.
  let results = await InspectorBenchmarks.all(rounds: rounds)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

if arguments.dropFirst().first == "casepaths" {
  // Only case paths, hand-written and derived: `unidirectional-bench casepaths [--json]`.
  let results = await CasePathBenchmarks.all(rounds: rounds)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

if arguments.dropFirst().first == "sharing" {
  // Only shared state, identified arrays and per-field observation: `unidirectional-bench sharing [--json]`.
  let results = await SharingBenchmarks.all(rounds: rounds) + ObservationBenchmarks.all(rounds: rounds)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

if arguments.dropFirst().first == "observing" {
  // Only what seeing a running store costs: instruments, printChanges, the tracer, recording, each next to its
  // floor: `unidirectional-bench observing [--json]`.
  let results = await InstrumentationBenchmarks.all(rounds: rounds) + RecordingSendBenchmarks.all(rounds: rounds)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

if arguments.dropFirst().first == "effects" {
  // What a long-living store keeps per finished effect, shape by shape: `unidirectional-bench effects [--json]
  // [--count N]` (default 1,000,000 effects per shape).
  let count = arguments.firstIndex(of: "--count").flatMap { index in
    index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
  }
  let results = await EffectMemoryBenchmark.all(count: count ?? 1_000_000)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

if arguments.dropFirst().first == "stores" {
  // Only the many-stores cases: `unidirectional-bench stores [--json] [--count N]` (default: 100k and 1M stores).
  let counts = arguments.firstIndex(of: "--count").flatMap { index in
    index + 1 < arguments.count ? Int(arguments[index + 1]).map { [$0] } : nil
  }
  let results = await ManyStoresBenchmarks.all(counts: counts ?? [100_000, 1_000_000]) + ThreadScalingBenchmark.all()
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

// The features' benchmarks (uploads, resumable transfers, the S3 backend, photo analysis) are `feature-bench` in the
// Demos package: `swift run -c release --package-path Demos feature-bench --upload`.
var results: [BenchmarkResult] = []
results += await CoreBenchmarks.all(rounds: rounds)
results += await CasePathBenchmarks.all(rounds: rounds)
results += await SharingBenchmarks.all(rounds: rounds)
results += await ObservationBenchmarks.all(rounds: rounds)
results += await InstrumentationBenchmarks.all(rounds: rounds)
results += await ActionLogBenchmarks.all(rounds: rounds)
results += await InspectorBenchmarks.all(rounds: rounds)

if json {
  for result in results { print(result.jsonLine) }
} else {
  print(BenchmarkResult.table(results))
}
