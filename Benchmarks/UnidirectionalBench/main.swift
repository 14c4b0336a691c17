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

if arguments.dropFirst().first == "sharing" {
  // Only shared state, identified arrays and per-field observation: `unidirectional-bench sharing [--json]`.
  let results = await SharingBenchmarks.all(rounds: rounds) + ObservationBenchmarks.all(rounds: rounds)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

if arguments.dropFirst().first == "analyze" {
  // Only the photo metadata cases: `unidirectional-bench analyze [--json]`.
  let results = AnalyzeBenchmarks.all(arguments: arguments)
  print(json ? results.map(\.jsonLine).joined(separator: "\n") : BenchmarkResult.table(results))
  exit(results.isEmpty ? 1 : 0)
}

var results: [BenchmarkResult] = []
// --upload (or --upload-only, which skips the rest): 200 MB presigned PUT vs boto3, 100 MB multipart vs curl -F;
// first, for a clean RSS. --resumable (or --resumable-only): 200 MB resumable upload vs plain PUT, bytes re-sent.
// --s3-backend (or --s3-backend-only): 200 MB resumable upload to the S3-backed backend vs a presigned PUT to the
// same S3 and vs the local-disk backend it replaced; the instance's peak RSS.
results += await UploadBenchmarks.all(arguments: arguments)
results += await ResumableUploadBenchmarks.all(arguments: arguments)
results += await S3BackendBenchmarks.all(arguments: arguments)
let only = ["--upload-only", "--resumable-only", "--s3-backend-only"]
if !only.contains(where: arguments.contains) {
  results += AnalyzeBenchmarks.all(arguments: arguments)  // --analyze: photo metadata of 1,000 JPEGs vs reading 64 KB
  results += await CoreBenchmarks.all(rounds: rounds)
  results += await SharingBenchmarks.all(rounds: rounds)
  results += await ObservationBenchmarks.all(rounds: rounds)
  results += await InstrumentationBenchmarks.all(rounds: rounds)
  results += await ActionLogBenchmarks.all(rounds: rounds)
  results += await InspectorBenchmarks.all(rounds: rounds)
}

if json {
  for result in results { print(result.jsonLine) }
} else {
  print(BenchmarkResult.table(results))
}
