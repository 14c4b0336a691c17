import Foundation

/// One benchmark case: its cost, the raw baseline it is compared with, and the target ratio or bound.
///
/// The same row as `unidirectional-bench` prints (the library's benchmarks, in the root package): the two packages
/// share no code but the library, so the feature benchmarks keep their own copy of the table's format.
struct BenchmarkResult {
  let name: String
  let nsPerOp: Double
  let baselineName: String
  let baselineNsPerOp: Double
  let target: String

  var ratio: Double { nsPerOp / baselineNsPerOp }

  var jsonLine: String {
    let object: [String: Any] = [
      "name": name, "ns_per_op": (nsPerOp * 10).rounded() / 10,
      "baseline_ns_per_op": (baselineNsPerOp * 10).rounded() / 10, "baseline": baselineName,
      "ratio": (ratio * 100).rounded() / 100, "target": target,
    ]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  static func table(_ results: [BenchmarkResult]) -> String {
    var lines = [
      "| case | ns/op | baseline | baseline ns/op | ratio | target |",
      "|---|---:|---|---:|---:|---|",
    ]
    for result in results {
      lines.append(
        "| \(result.name) | \(format(result.nsPerOp)) | \(result.baselineName) | \(format(result.baselineNsPerOp)) | "
          + "\(String(format: "%.2f×", result.ratio)) | \(result.target) |")
    }
    return lines.joined(separator: "\n")
  }

  private static func format(_ value: Double) -> String {
    value >= 100_000 ? String(format: "%.0f", value) : String(format: "%.1f", value)
  }
}

/// The median of samples already taken.
func medianOf(_ samples: [Double]) -> Double {
  let sorted = samples.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}
