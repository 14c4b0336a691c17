import Foundation
import Unidirectional

// Runs every case next to its raw baseline in one process; prints a table, or JSON lines with --json.
// Each figure is the median of several rounds.

let arguments = CommandLine.arguments
let json = arguments.contains("--json")
let rounds = 7

if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
  // Loops one case for a profiler: `perf record -g unidirectional-bench --profile send`; `--iterations N` (default
  // 50,000,000) for slower tools: `valgrind --tool=callgrind unidirectional-bench --profile send --iterations 1000000`.
  var iterations = 50_000_000
  if let countIndex = arguments.firstIndex(of: "--iterations"), countIndex + 1 < arguments.count {
    guard let count = Int(arguments[countIndex + 1]), count > 0 else {
      FileHandle.standardError.write(Data("--iterations must be a positive whole number\n".utf8))
      exit(2)
    }
    iterations = count
  }
  CoreBenchmarks.profile(arguments[index + 1], iterations: iterations)
  exit(0)
}

var results: [BenchmarkResult] = []
results += await UploadBenchmarks.all(arguments: arguments)  // --upload: 200 MB presigned PUT vs boto3, first (clean RSS)
results += await CoreBenchmarks.all(rounds: rounds)
results += await InstrumentationBenchmarks.all(rounds: rounds)
results += await ActionLogBenchmarks.all(rounds: rounds)

if json {
  for result in results { print(result.jsonLine) }
} else {
  print(BenchmarkResult.table(results))
}
