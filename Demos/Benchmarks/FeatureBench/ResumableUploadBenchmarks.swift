import Foundation
import HTTPClient
import Unidirectional

/// `--resumable` (`--resumable-only` skips the other cases): a 200 MB file through ``ResumableUploader`` to the backend, next to a plain `PUT` of the same file
/// by the same client to the same server (`/plain-uploads`, which does not speak the draft) and `curl -T` there;
/// then the same upload with the connection dropped at 50%, counting the bytes the server received and the bytes
/// the client handed to the network.
///
/// Starts `Demos/Backend/run_stack.py --test-hooks` itself (the project's `.venv`), writes the file to a temporary
/// folder and removes both afterwards (and the stored copies from the stack's S3 after every round).
enum ResumableUploadBenchmarks {
  static let fileSize: Int64 = 200_000_000

  static func all(arguments: [String], rounds: Int = 3) async -> [BenchmarkResult] {
    guard arguments.contains("--resumable") || arguments.contains("--resumable-only") else { return [] }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resumable-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appendingPathComponent("payload.bin")
      try writeRandomFile(at: file, size: fileSize)
      let backend = try RunStack.start(arguments: ["--test-hooks"])
      defer { backend.stop() }
      return try await measure(file: file, backend: backend, rounds: rounds)
    } catch {
      FileHandle.standardError.write(Data("resumable upload benchmark skipped: \(error)\n".utf8))
      return []
    }
  }

  private static func measure(file: URL, backend: RunStack, rounds: Int) async throws -> [BenchmarkResult] {
    let upload = ResumableUploadFile(url: file, filename: "payload.bin")
    let resumable = ResumableUploadConfiguration(
      endpoint: backend.api.appendingPathComponent("resumable-uploads"), token: BearerToken(backend.token),
      requestTimeout: 120)
    var plain = resumable
    plain.endpoint = backend.api.appendingPathComponent("plain-uploads")
    plain.method = "PUT"
    plain.interopVersions = []
    var dropped = resumable
    dropped.additionalHeaders["X-Test-Drop-After"] = String(fileSize / 2)

    var resumableTimes: [Double] = []
    var plainTimes: [Double] = []
    var curlTimes: [Double] = []
    var droppedTimes: [Double] = []
    var received: [Double] = []
    var handedOut: [Double] = []
    for _ in 0..<rounds {
      var start = DispatchTime.now().uptimeNanoseconds
      let receipt = try await ResumableUploader(configuration: resumable).upload(upload) { _ in }
      resumableTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start))
      guard receipt.mode == .resumable(interopVersion: 8), receipt.size == fileSize else {
        throw RunStack.Failure("the resumable upload answered \(receipt.mode), \(receipt.size) bytes")
      }

      start = DispatchTime.now().uptimeNanoseconds
      let plainReceipt = try await ResumableUploader(configuration: plain).upload(upload) { _ in }
      plainTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start))
      guard plainReceipt.mode == .plain else { throw RunStack.Failure("the plain upload went \(plainReceipt.mode)") }

      if let time = try? curlPut(file: file, to: plain.endpoint, token: backend.token) { curlTimes.append(time) }

      start = DispatchTime.now().uptimeNanoseconds
      let droppedReceipt = try await ResumableUploader(configuration: dropped).upload(upload) { _ in }
      droppedTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start))
      guard droppedReceipt.resumptions == 1, let fileID = droppedReceipt.fileID else {
        throw RunStack.Failure("the dropped upload resumed \(droppedReceipt.resumptions) times")
      }
      struct Counters: Decodable { let bytesReceived: Int64 }
      let counters = try backend.hook(Counters.self, "test-hooks/resumable-uploads?fileId=\(fileID)")
      received.append(Double(counters.bytesReceived))
      handedOut.append(Double(droppedReceipt.bytesSent))
      try backend.deleteObjects(prefix: "uploads/")
    }
    let size = Double(fileSize)
    var results = [
      BenchmarkResult(
        name: "resumable upload 200 MB (draft interop 8, OPTIONS + creation, uninterrupted)",
        nsPerOp: median(resumableTimes), baselineName: "plain PUT 200 MB, same client and server",
        baselineNsPerOp: median(plainTimes), target: "≤ 1.10×"),
      BenchmarkResult(
        name: "resumable upload 200 MB, connection dropped at 50%: bytes the server received",
        nsPerOp: median(received),
        baselineName: "file size", baselineNsPerOp: size, target: "≤ 1.10×"),
      BenchmarkResult(
        name: "resumable upload 200 MB, connection dropped at 50%: bytes the client handed to the network",
        nsPerOp: median(handedOut), baselineName: "file size", baselineNsPerOp: size, target: "context"),
      BenchmarkResult(
        name: "resumable upload 200 MB, connection dropped at 50% and resumed", nsPerOp: median(droppedTimes),
        baselineName: "resumable upload 200 MB, uninterrupted", baselineNsPerOp: median(resumableTimes),
        target: "context"),
    ]
    if curlTimes.count == rounds {
      results += [
        BenchmarkResult(
          name: "resumable upload 200 MB (draft interop 8, uninterrupted)", nsPerOp: median(resumableTimes),
          baselineName: "curl -T 200 MB, same server", baselineNsPerOp: median(curlTimes), target: "context"),
        BenchmarkResult(
          name: "plain PUT 200 MB, same client (URLSession from file)", nsPerOp: median(plainTimes),
          baselineName: "curl -T 200 MB, same server", baselineNsPerOp: median(curlTimes), target: "context"),
      ]
    }
    return results
  }

  /// Nanoseconds `curl -T` takes to PUT `file` to `url` (curl's own transfer time); the token goes on stdin.
  private static func curlPut(file: URL, to url: URL, token: String) throws -> Double {
    let output = try RunStack.output(
      of: "curl",
      ["-s", "-f", "-o", "/dev/null", "-w", "%{time_total}", "-H", "@-", "-T", file.path, url.absoluteString],
      input: "Authorization: Bearer \(token)\n")
    guard let seconds = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw RunStack.Failure("curl printed \(output.debugDescription)")
    }
    return seconds * 1e9
  }

  /// `size` random bytes from `/dev/urandom`, 1 MiB at a time.
  static func writeRandomFile(at url: URL, size: Int64) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil),
      let random = FileHandle(forReadingAtPath: "/dev/urandom")
    else { throw RunStack.Failure("cannot create \(url.path)") }
    defer { try? random.close() }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var written: Int64 = 0
    while written < size {
      let chunk = try random.read(upToCount: Int(min(size - written, 1 << 20))) ?? Data()
      guard !chunk.isEmpty else { throw RunStack.Failure("/dev/urandom ran dry") }
      try handle.write(contentsOf: chunk)
      written += Int64(chunk.count)
    }
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}
