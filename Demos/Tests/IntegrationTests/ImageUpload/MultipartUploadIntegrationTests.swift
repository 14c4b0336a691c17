import Features
import Foundation
import Unidirectional
import XCTest

/// The live multipart flow (`POST /upload-model`) against the real backend on 127.0.0.1.
final class MultipartUploadIntegrationTests: BackendStackTestCase {
  private var staging: URL { folder.appendingPathComponent("staging") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
  }

  private func uploader(_ stack: BackendStack, token: String? = nil) -> MultipartUploader {
    MultipartUploader(
      configuration: UploadIntegrationSupport.configuration(stack, token: token), temporaryDirectory: staging)
  }

  private func stagingIsEmpty() throws -> Bool {
    try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty
  }

  /// Uploads a fresh `size`-byte model and returns the receipt, the local SHA-256, and how far the peak resident
  /// memory rose above the resident memory before the upload.
  private func uploadModel(
    size: Int, stack: BackendStack
  ) async throws -> (receipt: MultipartUploadReceipt, sha256: String, peakGrowth: Int) {
    let file = folder.appendingPathComponent("model-\(size).usdz")
    let digest = try UploadIntegrationSupport.writeFile(at: file, header: Array("PK".utf8), size: size, seed: 7)
    let uploader = uploader(stack)
    XCTAssertTrue(UploadIntegrationSupport.resetPeakMemory(), "cannot reset VmHWM")
    let before = try XCTUnwrap(UploadIntegrationSupport.memory("VmRSS"))
    let progress = ProgressLog<Int64>()
    let receipt = try await uploader.upload(
      fileAt: file, filename: "scan.usdz", contentType: "model/vnd.usdz+zip"
    ) { sent, total in
      progress.append(total - sent)
    }
    let peak = try XCTUnwrap(UploadIntegrationSupport.memory("VmHWM"))
    try FileManager.default.removeItem(at: file)
    XCTAssertEqual(progress.values.last, 0, "progress reaches the whole body")
    XCTAssertLessThanOrEqual(progress.values.count, 102, "at most about one report per percent")
    return (receipt, digest.hex, peak - before)
  }

  func testA50MBModelArrivesByteForByteWithoutMemoryGrowingWithItsSize() async throws {
    let stack = try Self.backend.stack()
    let small = try await uploadModel(size: 5 << 20, stack: stack)
    let large = try await uploadModel(size: 50 << 20, stack: stack)

    for (result, size) in [(small, 5 << 20), (large, 50 << 20)] {
      XCTAssertEqual(result.receipt.size, Int64(size))
      XCTAssertEqual(result.receipt.sha256, result.sha256, "the server stored exactly our bytes")
      XCTAssertEqual(result.receipt.message, "File uploaded successfully")
      let stored = try await stack.object(key: "uploads/\(result.receipt.fileID).usdz")
      XCTAssertEqual(stored.size, size, "the stored file is complete")
      XCTAssertEqual(stored.sha256, result.sha256, "the stored file is our file")
    }
    XCTAssertTrue(try stagingIsEmpty(), "the staged body is removed")

    print(
      "multipart peak RSS growth: 5 MB file \(small.peakGrowth >> 10) KiB, 50 MB file \(large.peakGrowth >> 10) KiB")
    // An in-memory body would raise the peak by at least the file's size (50 MB), URLSession's copy of it too.
    let megabyte = 1 << 20
    XCTAssertLessThan(
      large.peakGrowth, 16 * megabyte, "peak grew by \(large.peakGrowth / megabyte) MB for a 50 MB file")
    XCTAssertLessThan(
      large.peakGrowth - small.peakGrowth, 12 * megabyte,
      "peak growth 5 MB: \(small.peakGrowth / megabyte) MB, 50 MB: \(large.peakGrowth / megabyte) MB")
  }

  func testPathTraversalFilenamesAreRefusedAndNothingIsWrittenOutsideTheUploadFolder() async throws {
    let stack = try Self.backend.stack()
    let file = folder.appendingPathComponent("model.usdz")
    try UploadIntegrationSupport.writeFile(at: file, header: Array("PK".utf8), size: 10_000, seed: 3)
    let unique = "traversal-\(UUID().uuidString)"
    // The backend's instances run in Demos/Backend: "../x" would land in Demos.
    let parent = BackendStack.repositoryRoot.appendingPathComponent("Demos")
    let before = try await stack.objectKeys(prefix: "uploads/")
    let etcXExisted = FileManager.default.fileExists(atPath: "/etc/x")

    let cases: [(filename: String, escapesTo: URL?, message: String)] = [
      ("../../etc/x", URL(fileURLWithPath: "/etc/x"), "must not contain path separators"),
      ("../\(unique)", parent.appendingPathComponent(unique), "must not contain path separators"),
      ("/tmp/\(unique)", URL(fileURLWithPath: "/tmp/\(unique)"), "must not contain path separators"),
      ("..\\\(unique)", nil, "must not contain path separators"),
      ("..", nil, "must not contain '..'"),
    ]
    for (filename, escapesTo, reason) in cases {
      do {
        _ = try await uploader(stack).upload(fileAt: file, filename: filename, contentType: "model/vnd.usdz+zip")
        XCTFail("\(filename) was accepted")
      } catch let error as ImageUploadError {
        guard case let .http(.httpStatus(status, message)) = error else { return XCTFail("\(filename): \(error)") }
        XCTAssertEqual(status, 400, filename)
        XCTAssertTrue(message.hasPrefix("invalid filename"), message)
        XCTAssertTrue(message.hasSuffix(reason), message)
      }
      if let escapesTo, escapesTo.path != "/etc/x" || !etcXExisted {
        XCTAssertFalse(FileManager.default.fileExists(atPath: escapesTo.path), escapesTo.path)
      }
    }
    let after = try await stack.objectKeys(prefix: "uploads/")
    XCTAssertEqual(after, before, "nothing was stored")
    XCTAssertTrue(try stagingIsEmpty(), "the staged body is removed after a failure too")
  }

  func testQuotesAndLineBreaksInAFilenameCannotInjectHeaders() async throws {
    let stack = try Self.backend.stack()
    let file = folder.appendingPathComponent("model.usdz")
    let digest = try UploadIntegrationSupport.writeFile(at: file, size: 4_096, seed: 5)
    let receipt = try await uploader(stack).upload(
      fileAt: file, filename: "my \"model\"\r\nX-Injected: 1\r\n.usdz", contentType: "model/vnd.usdz+zip")
    XCTAssertEqual(receipt.sha256, digest.hex)
    XCTAssertEqual(receipt.size, 4_096)
    let stored = try await stack.object(key: "uploads/\(receipt.fileID).usdz")
    XCTAssertEqual(stored.sha256, digest.hex)
  }

  func testABadTokenIsRefusedWithA401TypedError() async throws {
    let stack = try Self.backend.stack()
    let file = folder.appendingPathComponent("model.usdz")
    try UploadIntegrationSupport.writeFile(at: file, size: 1_000, seed: 9)
    do {
      _ = try await uploader(stack, token: "wrong").upload(fileAt: file, filename: "m.usdz", contentType: "model/x")
      XCTFail("expected 401")
    } catch {
      XCTAssertEqual(error as? ImageUploadError, .http(.httpStatus(401, message: "invalid or missing bearer token")))
    }
    XCTAssertTrue(try stagingIsEmpty())
  }

  func testAServerThatIsDownGivesCannotConnect() async throws {
    let port = try BackendStack.unusedLoopbackPort()
    let file = folder.appendingPathComponent("model.usdz")
    try UploadIntegrationSupport.writeFile(at: file, size: 1_000, seed: 11)
    let uploader = MultipartUploader(
      configuration: UploadServerConfiguration(
        apiBaseURL: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)")), token: BearerToken("t"),
        requestTimeout: 10),
      temporaryDirectory: staging)
    do {
      _ = try await uploader.upload(fileAt: file, filename: "m.usdz", contentType: "model/x")
      XCTFail("expected cannotConnect")
    } catch {
      XCTAssertEqual(error as? ImageUploadError, .http(.cannotConnect(host: "127.0.0.1:\(port)")))
    }
    XCTAssertTrue(try stagingIsEmpty())
  }

  func testTheMultipartClientGivesTheServersFileIDsAsMediaIDsInOrder() async throws {
    let stack = try Self.backend.stack()
    var items: [UploadItem] = []
    var digests: [String] = []
    for (index, size) in [300_000, 12, 90_000].enumerated() {
      let url = folder.appendingPathComponent("photo\(index).png")
      digests.append(
        try UploadIntegrationSupport.writeFile(
          at: url, header: UploadIntegrationSupport.pngHeader, size: size, seed: UInt64(20 + index)
        ).hex)
      items.append(UploadItem(fileURL: url, contentType: "image/png", byteCount: Int64(size)))
    }
    let client = ImageUploadClient.multipart(UploadIntegrationSupport.configuration(stack, maxConcurrentUploads: 2))
    let progress = ProgressLog<UploadProgress>()
    let ids = try await withDependencies {
      $0.uuid = .random
    } operation: {
      try await client.upload(items, .archive) { progress.append($0) }
    }
    XCTAssertEqual(ids.count, 3)
    for (id, digest) in zip(ids, digests) {
      let stored = try await stack.object(key: "uploads/\(id.rawValue).png")
      XCTAssertEqual(stored.sha256, digest, "media id \(id) is the file of the same item")
    }
    XCTAssertEqual(progress.values.last, UploadProgress(completedBytes: 390_012, totalBytes: 390_012))
  }
}
