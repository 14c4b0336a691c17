import Foundation
import HTTPClient
import ImageUpload
import Unidirectional

/// `--upload`: a 200 MB presigned PUT through ``PresignedUploader`` to moto, next to boto3's `put_object` of the
/// same file to the same moto in the same run, plus the peak resident memory of this process during the upload;
/// the cost of progress (the same PUT with and without a consumer); and a 100 MB multipart upload through
/// ``MultipartUploader`` to the FastAPI backend next to `curl -F` of the same file to the same server, with its peak
/// memory and the number of progress reports.
///
/// Starts `Demos/Backend/run_stack.py` itself (needs `pip install -r Demos/Backend/requirements.txt`), creates the
/// file in a temporary folder and removes both afterwards.
enum UploadBenchmarks {
  static let fileSize = 200 * 1_000_000

  static func all(arguments: [String], rounds: Int = 5) async -> [BenchmarkResult] {
    guard arguments.contains("--upload") || arguments.contains("--upload-only") else { return [] }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upload-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appendingPathComponent("payload.jpg")
      try writeFile(at: file, size: fileSize)
      let stack = try RunStack.start(arguments: [])
      defer { stack.stop() }
      var results = try await measure(file: file, stack: stack, rounds: rounds)
      let model = folder.appendingPathComponent("model.usdz")
      try writeFile(at: model, size: modelSize)
      results += try await measureMultipart(file: model, stack: stack, rounds: rounds + 2)
      return results
    } catch {
      FileHandle.standardError.write(Data("upload benchmark skipped: \(error)\n".utf8))
      return []
    }
  }

  private static func measure(file: URL, stack: RunStack, rounds: Int) async throws -> [BenchmarkResult] {
    let uploader = PresignedUploader(
      configuration: UploadServerConfiguration(
        apiBaseURL: stack.api, token: BearerToken(stack.token), requestTimeout: 120))
    let item = UploadItem(fileURL: file, contentType: "image/jpeg", byteCount: Int64(fileSize))
    // The same key every round, so moto replaces the object instead of piling up 200 MB copies.
    let uuid = UUIDGenerator.constant(UUID(sequenceNumber: 200))
    let progressReports = LockIsolated(0)
    var withProgress: [Double] = []
    var withoutProgress: [Double] = []
    var boto3: [Double] = []
    var curl: [Double] = []
    var peak = 0
    let residentBefore = memory("VmRSS") ?? 0
    for round in 0..<rounds {
      // With progress (what ImageUploadFeature does) and without, in alternating order so neither always runs on
      // the warmer server.
      for withHandler in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        _ = resetPeakMemory()
        let start = DispatchTime.now().uptimeNanoseconds
        if withHandler {
          _ = try await uploader.upload([item], mediaType: .archive, uuid: uuid) { _ in
            progressReports.withLock { $0 += 1 }
          }
          withProgress.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        } else {
          _ = try await uploader.upload([item], mediaType: .archive, uuid: uuid)
          withoutProgress.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        peak = max(peak, memory("VmHWM") ?? 0)
      }

      boto3.append(try botoPutObject(file: file, stack: stack))
      if let time = try? curlPut(file: file, stack: stack) { curl.append(time) }
    }
    guard progressReports.value >= rounds else { throw RunStack.Failure("no progress was reported") }
    let baseline = median(boto3)
    var results = [
      BenchmarkResult(
        name: "progress cost: presigned PUT 200 MB with progress", nsPerOp: median(withProgress),
        baselineName: "the same PUT without progress", baselineNsPerOp: median(withoutProgress), target: "≤ 1.05×"),
      BenchmarkResult(
        name: "presigned PUT 200 MB, with progress", nsPerOp: median(withProgress),
        baselineName: "boto3 put_object 200 MB", baselineNsPerOp: baseline, target: "≤ 1.25×"),
      BenchmarkResult(
        name: "presigned PUT 200 MB, no progress", nsPerOp: median(withoutProgress),
        baselineName: "boto3 put_object 200 MB", baselineNsPerOp: baseline, target: "≤ 1.25×"),
      BenchmarkResult(
        name: "presigned PUT 200 MB: peak RSS in bytes (\(residentBefore >> 20) MB before)", nsPerOp: Double(peak),
        baselineName: "64 MB budget", baselineNsPerOp: Double(64 << 20), target: "≤ 1.00×"),
    ]
    if curl.count == rounds {
      results.append(
        BenchmarkResult(
          name: "curl -T 200 MB, same moto (what moto allows)", nsPerOp: median(curl),
          baselineName: "boto3 put_object 200 MB", baselineNsPerOp: baseline, target: "context"))
    }
    return results
  }

  static let modelSize = 100 * 1_000_000

  /// `MultipartUploader` (the socket engine, with and without progress; URLSession for reference) against `curl -F`,
  /// alternating, 100 MB to the same FastAPI `/upload-model`; each stored file is removed at once.
  private static func measureMultipart(file: URL, stack: RunStack, rounds: Int) async throws -> [BenchmarkResult] {
    func uploader(_ transport: UploadServerConfiguration.Transport) -> MultipartUploader {
      MultipartUploader(
        configuration: UploadServerConfiguration(
          apiBaseURL: stack.api, token: BearerToken(stack.token), requestTimeout: 120, transport: transport))
    }
    let sockets = uploader(.automatic)
    let urlSession = uploader(.urlSession)
    let reports = LockIsolated(0)
    var withProgress: [Double] = []
    var withoutProgress: [Double] = []
    var viaURLSession: [Double] = []
    var curl: [Double] = []
    var cpu: [Double] = []
    var cpuURLSession: [Double] = []
    var cpuCurl: [Double] = []
    var growth = 0
    var reportsPerUpload = 0

    // Peak memory of a 10 MB upload: the baseline a 100 MB upload's peak must stay level with.
    let small = file.deletingLastPathComponent().appendingPathComponent("small.usdz")
    try writeFile(at: small, size: modelSize / 10)
    defer { try? FileManager.default.removeItem(at: small) }
    _ = resetPeakMemory()
    var resident = memory("VmRSS") ?? 0
    try stack.remove(
      try await sockets.upload(fileAt: small, filename: "bench.usdz", contentType: "model/vnd.usdz+zip") { _, _ in })
    let smallGrowth = (memory("VmHWM") ?? 0) - resident

    for round in 0..<rounds {
      _ = resetPeakMemory()
      resident = memory("VmRSS") ?? 0
      reports.setValue(0)
      var start = DispatchTime.now().uptimeNanoseconds
      var receipt = try await sockets.upload(fileAt: file, filename: "bench.usdz", contentType: "model/vnd.usdz+zip") {
        _, _ in reports.withLock { $0 += 1 }
      }
      withProgress.append(Double(DispatchTime.now().uptimeNanoseconds - start))
      growth = max(growth, (memory("VmHWM") ?? 0) - resident)
      reportsPerUpload = max(reportsPerUpload, reports.value)
      try stack.remove(receipt)

      var cpuStart = cpuTime(children: false)
      start = DispatchTime.now().uptimeNanoseconds
      receipt = try await sockets.upload(fileAt: file, filename: "bench.usdz", contentType: "model/vnd.usdz+zip")
      withoutProgress.append(Double(DispatchTime.now().uptimeNanoseconds - start))
      cpu.append(cpuTime(children: false) - cpuStart)
      try stack.remove(receipt)

      cpuStart = cpuTime(children: true)
      curl.append(try curlForm(file: file, stack: stack))
      cpuCurl.append(cpuTime(children: true) - cpuStart)
      if round < 3 {
        cpuStart = cpuTime(children: false)
        start = DispatchTime.now().uptimeNanoseconds
        receipt = try await urlSession.upload(fileAt: file, filename: "bench.usdz", contentType: "model/vnd.usdz+zip")
        viaURLSession.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        cpuURLSession.append(cpuTime(children: false) - cpuStart)
        try stack.remove(receipt)
      }
    }
    let baseline = median(curl)
    return [
      BenchmarkResult(
        name: "multipart POST 100 MB, with progress", nsPerOp: median(withProgress),
        baselineName: "curl -F 100 MB, same FastAPI", baselineNsPerOp: baseline, target: "≤ 2×"),
      BenchmarkResult(
        name: "multipart POST 100 MB, no progress", nsPerOp: median(withoutProgress),
        baselineName: "curl -F 100 MB, same FastAPI", baselineNsPerOp: baseline, target: "≤ 2×"),
      BenchmarkResult(
        name: "multipart POST 100 MB through URLSession (what https uses)", nsPerOp: median(viaURLSession),
        baselineName: "curl -F 100 MB, same FastAPI", baselineNsPerOp: baseline, target: "context"),
      BenchmarkResult(
        name: "multipart POST 100 MB: CPU time (user + system) of this process", nsPerOp: median(cpu),
        baselineName: "curl -F's CPU time", baselineNsPerOp: median(cpuCurl), target: "context"),
      BenchmarkResult(
        name: "multipart POST 100 MB through URLSession: CPU time", nsPerOp: median(cpuURLSession),
        baselineName: "curl -F's CPU time", baselineNsPerOp: median(cpuCurl), target: "context"),
      BenchmarkResult(
        name: "multipart POST 100 MB: progress reports per upload", nsPerOp: Double(reportsPerUpload),
        baselineName: "one per percent", baselineNsPerOp: 101, target: "≤ 1.00×"),
      BenchmarkResult(
        name: "multipart POST 100 MB: peak RSS growth in bytes", nsPerOp: Double(growth),
        baselineName: "the same for 10 MB + 1 MiB", baselineNsPerOp: Double(smallGrowth + (1 << 20)),
        target: "≤ 1.00× (flat)"),
    ]
  }

  /// User plus system CPU time, in nanoseconds, of this process or of its waited-for children.
  private static func cpuTime(children: Bool) -> Double {
    var usage = rusage()
    _ = getrusage(Int32((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
    func nanoseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e9 + Double(time.tv_usec) * 1e3 }
    return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
  }

  /// Nanoseconds `curl -F` takes to post `file` to the stack's `/upload-model` (curl's own transfer time).
  private static func curlForm(file: URL, stack: RunStack) throws -> Double {
    let output = try RunStack.run(
      "/usr/bin/env",
      [
        "curl", "-s", "-f", "-o", "/dev/stderr", "-w", "%{time_total}", "-H", "@-",
        "-F", "file=@\(file.path);filename=bench.usdz;type=model/vnd.usdz+zip",
        stack.api.absoluteString + "/upload-model",
      ], input: "Authorization: Bearer \(stack.token)\n", captureErrors: true)
    guard let seconds = Double(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)),
      let answer = try? JSONDecoder().decode(MultipartAnswer.self, from: Data(output.standardError.utf8))
    else {
      throw RunStack.Failure("curl -F printed \(output.standardOutput.debugDescription)")
    }
    try stack.remove(fileID: answer.fileId)
    return seconds * 1e9
  }

  private struct MultipartAnswer: Decodable { let fileId: String }

  /// Nanoseconds boto3's `put_object` of `file` to the stack's moto takes (timed inside Python, without its start).
  private static func botoPutObject(file: URL, stack: RunStack) throws -> Double {
    let script = """
      import sys, time, boto3
      from botocore.config import Config
      s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
          aws_access_key_id="testing", aws_secret_access_key="testing",
          config=Config(signature_version="s3v4", s3={"addressing_style": "path"},
              request_checksum_calculation="when_required", response_checksum_validation="when_required"))
      with open(sys.argv[3], "rb") as body:
          start = time.perf_counter_ns()
          s3.put_object(Bucket=sys.argv[2], Key="bench/boto3.jpg", Body=body, ContentType="image/jpeg")
          print(time.perf_counter_ns() - start)
      """
    let output = try RunStack.run(RunStack.python, ["-c", script, stack.s3.absoluteString, stack.bucket, file.path])
      .standardOutput
    guard let nanoseconds = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw RunStack.Failure("boto3 printed \(output.debugDescription)")
    }
    return nanoseconds
  }

  /// Nanoseconds `curl -T` takes to PUT `file` to a fresh presigned URL (curl's own transfer time).
  private static func curlPut(file: URL, stack: RunStack) throws -> Double {
    // Ask the backend for a URL the same way the client does, without uploading.
    let presign = """
      import json, sys, urllib.request
      request = urllib.request.Request(sys.argv[1] + "/presigned-urls", method="POST",
          data=json.dumps({"items": [{"filename": "curl.jpg", "contentType": "image/jpeg",
              "mediaType": "archive"}]}).encode(),
          headers={"Content-Type": "application/json", "Authorization": "Bearer " + sys.stdin.read().strip()})
      print(json.load(urllib.request.urlopen(request, timeout=10))["items"][0]["uploadURL"])
      """
    let url = try RunStack.run(
      RunStack.python, ["-c", presign, stack.api.absoluteString], input: stack.token
    ).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    let seconds = try RunStack.output(
      of: "curl",
      [
        "-s", "-f", "-o", "/dev/null", "-w", "%{time_total}", "-X", "PUT", "-H", "Content-Type: image/jpeg", "-T",
        file.path, url,
      ])
    guard let value = Double(seconds.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw RunStack.Failure("curl printed \(seconds.debugDescription)")
    }
    return value * 1e9
  }

  /// Writes `size` pseudo-random bytes (a JPEG signature first), 1 MiB at a time.
  private static func writeFile(at url: URL, size: Int) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw RunStack.Failure("cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var state: UInt64 = 0x1234_5678
    var chunk = [UInt64](repeating: 0, count: (1 << 20) / 8)
    var written = 0
    while written < size {
      for index in chunk.indices {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        chunk[index] = state
      }
      var data = chunk.withUnsafeBytes { Data($0.prefix(min($0.count, size - written))) }
      if written == 0 { data.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0]) }
      try handle.write(contentsOf: data)
      written += data.count
    }
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}

extension RunStack {
  /// Removes the file a multipart upload stored (so 100 MB files do not pile up between rounds).
  fileprivate func remove(_ receipt: MultipartUploadReceipt) throws {
    try remove(fileID: receipt.fileID)
  }

  /// Removes the stored file `uploads/<fileID>.usdz`.
  fileprivate func remove(fileID: String) throws {
    try deleteObject(key: "uploads/\(fileID).usdz")
  }
}
