import HTTPClient
import ImageUpload
import Foundation
import Unidirectional

/// `--s3-backend` (or `--s3-backend-only`): what keeping every byte in S3 costs. A 200 MB resumable upload through
/// ``ResumableUploader`` to the S3-backed backend (one instance; and three behind run_stack.py's round-robin proxy),
/// next to the same upload to the local-disk backend it replaced (`Demos/Backend` at ``localDiskRevision``, taken
/// from git into a temporary folder and run from there) and to a presigned PUT of the same file through
/// ``PresignedUploader`` to the same moto S3. Plus the instance's peak RSS growth during the upload (its
/// `/test-hooks/memory`, the largest of the rounds after the first), next to two parts (what it may hold).
///
/// `swift run -c release --package-path Demos feature-bench --s3-backend-only`
enum S3BackendBenchmarks {
  static let fileSize: Int64 = 200_000_000
  /// The last commit whose backend stored uploads on its own disk (override: UNIDIRECTIONAL_LOCAL_DISK_REVISION).
  static let localDiskRevision =
    ProcessInfo.processInfo.environment["UNIDIRECTIONAL_LOCAL_DISK_REVISION"]
    ?? "6c931445fd4afed1d2fdd7f40bf839400b5516e6"

  static func all(arguments: [String], rounds: Int = 5) async -> [BenchmarkResult] {
    guard arguments.contains("--s3-backend") || arguments.contains("--s3-backend-only") else { return [] }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appendingPathComponent("payload.bin")
      try ResumableUploadBenchmarks.writeRandomFile(at: file, size: fileSize)
      let localDisk = try startLocalDiskBackend(in: folder)
      defer { localDisk.stop() }
      let s3 = try RunStack.start(arguments: ["--test-hooks"])
      defer { s3.stop() }
      let proxied = try RunStack.start(arguments: ["--test-hooks", "--instances", "3"])
      defer { proxied.stop() }
      return try await measure(file: file, s3: s3, proxied: proxied, localDisk: localDisk, rounds: rounds)
    } catch {
      FileHandle.standardError.write(Data("S3 backend benchmark skipped: \(error)\n".utf8))
      return []
    }
  }

  /// The backend at ``localDiskRevision``, extracted from git and started with its uploads in `folder`.
  private static func startLocalDiskBackend(in folder: URL) throws -> RunStack {
    let copy = folder.appendingPathComponent("local-disk-backend")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    _ = try RunStack.output(
      of: "sh",
      [
        "-c", "git -C \"$1\" archive \"$2\" Demos/Backend | tar -x -C \"$3\"", "sh", RunStack.root.path,
        localDiskRevision, copy.path,
      ])
    return try RunStack.start(
      script: copy.appendingPathComponent("Demos/Backend/run_stack.py"),
      arguments: ["--upload-dir", folder.appendingPathComponent("local-uploads").path])
  }

  private struct Memory: Decodable {
    let rss: Int
    let peak: Int
    let partSize: Int
  }

  private static func measure(file: URL, s3: RunStack, proxied: RunStack, localDisk: RunStack, rounds: Int)
    async throws -> [BenchmarkResult]
  {
    let upload = ResumableUploadFile(url: file, filename: "payload.bin")
    func resumable(_ stack: RunStack) async throws -> Double {
      let configuration = ResumableUploadConfiguration(
        endpoint: stack.api.appendingPathComponent("resumable-uploads"), token: BearerToken(stack.token),
        requestTimeout: 120)
      let start = DispatchTime.now().uptimeNanoseconds
      let receipt = try await ResumableUploader(configuration: configuration).upload(upload) { _ in }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
      guard receipt.mode == .resumable(interopVersion: 8), receipt.size == fileSize, receipt.resumptions == 0 else {
        throw RunStack.Failure("the resumable upload answered \(receipt.mode), \(receipt.size) bytes")
      }
      return elapsed
    }
    let presigned = PresignedUploader(
      configuration: UploadServerConfiguration(apiBaseURL: s3.api, token: BearerToken(s3.token), requestTimeout: 120))
    let item = UploadItem(fileURL: file, contentType: "application/octet-stream", byteCount: fileSize)
    // The same key every round: moto replaces the object instead of keeping 200 MB copies.
    let uuid = UUIDGenerator.constant(UUID(sequenceNumber: 201))

    var viaS3: [Double] = []
    var viaProxy: [Double] = []
    var viaLocalDisk: [Double] = []
    var viaPresigned: [Double] = []
    var growth: [Double] = []
    var partSize = 0
    for round in 0..<rounds {
      // Each round in another order, so that no case always runs on the warmest (or most loaded) machine.
      let order = [0, 1, 2, 3].shifted(by: round)
      for step in order {
        switch step {
        case 0:
          _ = try s3.hook(Memory.self, "test-hooks/memory/reset-peak", method: "POST")
          let before = try s3.hook(Memory.self, "test-hooks/memory")
          viaS3.append(try await resumable(s3))
          let after = try s3.hook(Memory.self, "test-hooks/memory")
          // From the second round on: an instance that has served before (the first upload also builds the
          // instance's connection pool and threads).
          if round > 0 { growth.append(Double(after.peak - before.rss)) }
          partSize = after.partSize
          try s3.deleteObjects(prefix: "uploads/")
        case 1:
          viaProxy.append(try await resumable(proxied))
          try proxied.deleteObjects(prefix: "uploads/")
        case 2:
          viaLocalDisk.append(try await resumable(localDisk))
          try removeLocalUploads(in: file.deletingLastPathComponent())
        default:
          let start = DispatchTime.now().uptimeNanoseconds
          _ = try await presigned.upload([item], mediaType: .archive, uuid: uuid)
          viaPresigned.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
      }
    }
    let s3Median = medianOf(viaS3)
    return [
      BenchmarkResult(
        name: "resumable upload 200 MB, S3-backed backend (1 instance)", nsPerOp: s3Median,
        baselineName: "presigned PUT 200 MB to the same moto", baselineNsPerOp: medianOf(viaPresigned),
        target: "≤ 1.30×"),
      BenchmarkResult(
        name: "resumable upload 200 MB, S3-backed backend (1 instance)", nsPerOp: s3Median,
        baselineName: "the same to the local-disk backend (\(localDiskRevision.prefix(7)))",
        baselineNsPerOp: medianOf(viaLocalDisk), target: "context"),
      BenchmarkResult(
        name: "resumable upload 200 MB, 3 instances behind the round-robin proxy", nsPerOp: medianOf(viaProxy),
        baselineName: "1 instance, no proxy", baselineNsPerOp: s3Median, target: "context"),
      BenchmarkResult(
        name: "resumable upload 200 MB: the instance's peak RSS growth in bytes", nsPerOp: growth.max() ?? .nan,
        baselineName: "two parts (\(partSize >> 20) MiB each)", baselineNsPerOp: Double(2 * partSize),
        target: "≤ 1.25× (two part buffers, plus the server's own)"),
    ]
  }

  private static func removeLocalUploads(in folder: URL) throws {
    let uploads = folder.appendingPathComponent("local-uploads")
    for name in try FileManager.default.contentsOfDirectory(atPath: uploads.path) where name.hasSuffix(".bin") {
      try FileManager.default.removeItem(at: uploads.appendingPathComponent(name))
    }
  }
}

extension Array {
  /// The array rotated left by `count` (modulo its length).
  fileprivate func shifted(by count: Int) -> [Element] {
    guard !isEmpty else { return self }
    let k = count % self.count
    return Array(self[k...] + self[..<k])
  }
}
