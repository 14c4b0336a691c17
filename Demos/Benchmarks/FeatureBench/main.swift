import Foundation

// The features' benchmarks: uploads, resumable transfers, the S3-backed backend and photo analysis, each next to its
// raw baseline in one process; prints a table, or JSON lines with --json. The library's own benchmarks (send,
// effects, observation, action logs, the inspector) are `unidirectional-bench` in the root package.
//
//   swift run -c release --package-path Demos feature-bench [--upload] [--resumable] [--s3-backend] [--analyze] [--json]
//   …  --upload-only | --resumable-only | --s3-backend-only   only that group
//   …  analyze [--json]                                         only the photo metadata cases

let arguments = CommandLine.arguments
let json = arguments.contains("--json")

if arguments.dropFirst().first == "analyze" {
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
}

if json {
  for result in results { print(result.jsonLine) }
} else {
  print(BenchmarkResult.table(results))
}
exit(results.isEmpty ? 1 : 0)
