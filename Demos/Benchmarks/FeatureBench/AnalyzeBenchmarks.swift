import Foundation
import PhotoAnalysis

/// `analyze` (or `--analyze` with the other cases): ``PhotoMetadataReader`` plus the originality score on 1,000 real
/// JPEGs (copies of the piexif test photos, 1–360 KB, already in the page cache), per file, next to a raw baseline
/// that only opens each file and reads its first 64 KB; `exiftool -json` on the same files as context when it is
/// installed (Debian `libimage-exiftool-perl`); and the peak resident memory while analysing those files against
/// analysing 50 copies padded to 50 MB each (sparse files), which must not differ.
enum AnalyzeBenchmarks {
  static let fileCount = 1_000
  static let largeFileCount = 50
  static let largeFileSize: UInt64 = 50_000_000
  static let baselineBytes = 64 * 1_024

  static func all(arguments: [String], rounds: Int = 7) -> [BenchmarkResult] {
    guard arguments.dropFirst().first == "analyze" || arguments.contains("--analyze") else { return [] }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let photos = try makeCopies(in: folder.appendingPathComponent("small"), count: fileCount, padTo: nil)
      let large = try makeCopies(
        in: folder.appendingPathComponent("large"), count: largeFileCount, padTo: largeFileSize)
      return try measure(photos: photos, large: large, rounds: rounds)
    } catch {
      FileHandle.standardError.write(Data("analyze benchmark skipped: \(error)\n".utf8))
      return []
    }
  }

  private static func measure(photos: [URL], large: [URL], rounds: Int) throws -> [BenchmarkResult] {
    // Warm the page cache and check every copy reads.
    for url in photos { _ = try Data(contentsOf: url) }
    var checksum = 0
    for url in photos { checksum &+= try analyze(url) }

    var buffer = [UInt8](repeating: 0, count: baselineBytes)
    var baseline: [Double] = []
    var reader: [Double] = []
    for _ in 0..<rounds {
      var start = DispatchTime.now().uptimeNanoseconds
      for url in photos { checksum &+= readHead(url, into: &buffer) }
      baseline.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(photos.count))

      start = DispatchTime.now().uptimeNanoseconds
      for url in photos { checksum &+= try analyze(url) }
      reader.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(photos.count))
    }
    guard checksum != 0 else { throw Failure("nothing was read") }

    // Peak memory: the same work on 1–360 KB files and on 50 MB files.
    _ = resetPeakMemory()
    for url in photos { checksum &+= try analyze(url) }
    let smallPeak = memory("VmHWM") ?? 0
    _ = resetPeakMemory()
    for _ in 0..<(photos.count / large.count) {
      for url in large { checksum &+= try analyze(url) }
    }
    let largePeak = memory("VmHWM") ?? 0

    var results = [
      BenchmarkResult(
        name: "analyze 1 JPEG (metadata + score), 1,000 real photos", nsPerOp: median(reader),
        baselineName: "open + read first 64 KB", baselineNsPerOp: median(baseline), target: "≤ 3×"),
      BenchmarkResult(
        name: "analyze: peak RSS in bytes, \(largeFileCount) files of 50 MB", nsPerOp: Double(largePeak),
        baselineName: "same, 1,000 files of 1–360 KB", baselineNsPerOp: Double(smallPeak),
        target: "≤ 1.05× (size-independent)"),
    ]
    if let exiftool = try exiftoolPerFile(photos, rounds: 3) {
      results.append(
        BenchmarkResult(
          name: "exiftool -json, same 1,000 photos (one process)", nsPerOp: exiftool,
          baselineName: "open + read first 64 KB", baselineNsPerOp: median(baseline), target: "context"))
    }
    return results
  }

  /// Reads `url`'s metadata and scores it; returns something that depends on both (so nothing is optimised away).
  private static func analyze(_ url: URL) throws -> Int {
    let report = PhotoAnalysisReport(metadata: try PhotoMetadataReader.read(fileAt: url))
    return report.score &+ (report.metadata.pixelWidth ?? 0)
  }

  /// What any reader must do at least: open the file, read its first 64 KB, close it.
  private static func readHead(_ url: URL, into buffer: inout [UInt8]) -> Int {
    let descriptor = open(url.path, O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    return buffer.withUnsafeMutableBytes { Int(read(descriptor, $0.baseAddress, $0.count)) }
  }

  /// Nanoseconds per file of `exiftool -json` over `photos` in one process (median of `rounds`), or nil without
  /// exiftool.
  private static func exiftoolPerFile(_ photos: [URL], rounds: Int) throws -> Double? {
    let candidates = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"]
    guard let exiftool = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
      FileHandle.standardError.write(
        Data("analyze benchmark: exiftool is not installed (apt install libimage-exiftool-perl); no context row\n".utf8)
      )
      return nil
    }
    var times: [Double] = []
    for _ in 0..<rounds {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: exiftool)
      process.arguments = ["-json"] + photos.map(\.path)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let start = DispatchTime.now().uptimeNanoseconds
      try process.run()
      process.waitUntilExit()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(photos.count))
      guard process.terminationStatus == 0 else { throw Failure("exiftool exited with \(process.terminationStatus)") }
    }
    return median(times)
  }

  /// `count` copies of the real test photos (round robin), each padded with a hole to `padTo` bytes when given.
  private static func makeCopies(in folder: URL, count: Int, padTo size: UInt64?) throws -> [URL] {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/PhotoAnalysis/piexif")
    let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
    // The camera photos and edits that have EXIF and a frame: what a user picks.
    let sources = try names.filter { $0.hasSuffix(".jpg") && !$0.hasPrefix("notjpeg") }.map {
      try Data(contentsOf: fixtures.appendingPathComponent($0))
    }
    guard !sources.isEmpty else { throw Failure("no photos in \(fixtures.path)") }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return try (0..<count).map { index in
      let url = folder.appendingPathComponent(String(format: "%04d.jpg", index))
      try sources[index % sources.count].write(to: url)
      if let size {
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
      }
      return url
    }
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
