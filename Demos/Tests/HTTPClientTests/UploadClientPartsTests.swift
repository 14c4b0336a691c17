import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

@testable import HTTPClient
import FeatureTestSupport

/// The pieces of the live clients that need no server: XML error bodies, multipart escaping, progress, bounded
/// concurrency.
final class UploadClientPartsTests: XCTestCase {
  func testTheS3ErrorCodeAndMessageAreReadFromTheXMLBody() {
    let body = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match &amp; \
      so on</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>
      """.utf8)
    XCTAssertEqual(S3ErrorXML.field("Code", in: body), "SignatureDoesNotMatch")
    XCTAssertEqual(
      S3ErrorXML.field("Message", in: body), "The request signature we calculated does not match & so on")
    XCTAssertNil(S3ErrorXML.field("Code", in: Data("Forbidden".utf8)))
    XCTAssertNil(S3ErrorXML.field("Code", in: Data("<Error><Code></Code></Error>".utf8)))
    XCTAssertNil(S3ErrorXML.field("Code", in: Data("<Error><Code>Truncated".utf8)))
    XCTAssertNil(S3ErrorXML.field("Code", in: Data([0xFF, 0xFE, 0x00])))
  }

  func testMultipartFilenamesCannotBreakOutOfTheirParameter() {
    XCTAssertEqual(MultipartFormBody.escaped("a\"b\r\nC: d.usdz"), "a%22b%0D%0AC: d.usdz")
    XCTAssertEqual(MultipartFormBody.escaped("../../etc/x"), "../../etc/x")
    XCTAssertEqual(MultipartFormBody.escaped("모델.usdz"), "모델.usdz")
    let form = MultipartFormBody(
      boundary: "B", fieldName: "file", filename: "evil\"\r\nX-Injected: 1", contentType: "model/vnd.usdz+zip")
    XCTAssertEqual(
      form.header,
      "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"evil%22%0D%0AX-Injected: 1\"\r\n"
        + "Content-Type: model/vnd.usdz+zip\r\n\r\n")
  }

  func testTheMultipartBodyFileHoldsTheHeaderTheBytesAndTheClosingBoundary() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("model.usdz")
    let bytes = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    try bytes.write(to: source)
    let form = MultipartFormBody(boundary: "XYZ", fieldName: "file", filename: "m.usdz", contentType: "model/x")
    let destination = folder.appendingPathComponent("body")
    let body = form.body(for: source, size: Int64(bytes.count))
    try body.write(to: destination)
    let written = try Data(contentsOf: destination)
    XCTAssertEqual(Int64(written.count), body.length)
    XCTAssertEqual(written, Data(form.header.utf8) + bytes + Data("\r\n--XYZ--\r\n".utf8))
    XCTAssertEqual(form.requestContentType, "multipart/form-data; boundary=XYZ")

    XCTAssertThrowsError(
      try form.body(for: folder.appendingPathComponent("missing"), size: 10).write(
        to: folder.appendingPathComponent("b2"))
    ) {
      XCTAssertEqual(
        $0 as? HTTPError,
        .unreadableFile(path: folder.appendingPathComponent("missing").path, reason: "permission denied or I/O error"))
    }
  }

  func testProgressIsReportedInWholePercentChangesFollowsARestartAndNeverComesAfterClose() {
    let reports = Recorder<UploadProgress>()
    let reporter = UploadProgressReporter(sizes: [100, 300]) { reports.append($0) }
    reporter.update(0, sentBytes: 2)  // 0.5% → 0%
    reporter.update(0, sentBytes: 3)  // still 0%: not repeated
    reporter.update(1, sentBytes: 40)  // 43 of 400 → 10%
    reporter.update(1, sentBytes: 20)  // transfer 1 restarted (a retry): 23 of 400 → 5%
    reporter.update(0, sentBytes: 5_000)  // clamped to 100 → 120 of 400 → 30%
    reporter.update(7, sentBytes: 1)  // unknown index: ignored
    reporter.complete(1)  // 400 of 400
    reporter.close()
    reporter.update(1, sentBytes: 1_000)
    reporter.complete(0)
    XCTAssertEqual(
      reports.values,
      [
        UploadProgress(completedBytes: 2, totalBytes: 400), UploadProgress(completedBytes: 43, totalBytes: 400),
        UploadProgress(completedBytes: 23, totalBytes: 400), UploadProgress(completedBytes: 120, totalBytes: 400),
        UploadProgress(completedBytes: 400, totalBytes: 400),
      ])
  }

  func testBoundedConcurrencyKeepsOrderAndNeverExceedsTheLimit() async throws {
    let inFlight = LockIsolated((current: 0, maximum: 0))
    let results = try await UploadConcurrency.map(count: 12, limit: 3) { index in
      inFlight.withLock {
        $0.current += 1
        $0.maximum = max($0.maximum, $0.current)
      }
      for _ in 0..<(12 - index) { await Task.yield() }
      inFlight.withLock { $0.current -= 1 }
      return index * 10
    }
    XCTAssertEqual(results, (0..<12).map { $0 * 10 })
    XCTAssertLessThanOrEqual(inFlight.withLock { $0.maximum }, 3)
    XCTAssertEqual(inFlight.withLock { $0.current }, 0)
  }

  func testTheFirstFailureCancelsTheOtherOperations() async {
    let events = Recorder<String>()
    do {
      _ = try await UploadConcurrency.map(count: 3, limit: 4) { index -> Int in
        if index == 1 { throw HTTPError.storageRejected(status: 403, code: "AccessDenied", message: nil) }
        await Self.waitUntilCancelled()
        events.append("cancelled \(index)")
        throw CancellationError()
      }
      XCTFail("expected the failure of operation 1")
    } catch {
      XCTAssertEqual(error as? HTTPError, .storageRejected(status: 403, code: "AccessDenied", message: nil))
    }
    XCTAssertEqual(Set(events.values), ["cancelled 0", "cancelled 2"])
  }

  /// Suspends until the current task is cancelled (no clock, no timeout).
  private static func waitUntilCancelled() async {
    let gate = LockIsolated<(continuation: CheckedContinuation<Void, Never>?, cancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = gate.withLock { state -> Bool in
          if state.cancelled { return true }
          state.continuation = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let continuation = gate.withLock { state -> CheckedContinuation<Void, Never>? in
        state.cancelled = true
        defer { state.continuation = nil }
        return state.continuation
      }
      continuation?.resume()
    }
  }
}
