import Features
import Foundation
import Unidirectional
import XCTest

/// A cancel that reaches the server while the interrupted append still holds the upload (the backend answers 503
/// "another request is still appending; try again" until it notices the append's connection is gone). A DELETE is
/// idempotent, so the uploader tries again under its retry policy instead of failing the cancel; a refusal that
/// says the request itself is wrong (4xx) is not retried.
final class ResumableCancelRetryTests: XCTestCase {
  private static let busy =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 60\r\n"
    + "Connection: close\r\n\r\n{\"message\": \"another request is still appending; try again\"}"
  private static let deleted = "HTTP/1.1 204 No Content\r\nUpload-Draft-Interop-Version: 6\r\nConnection: close\r\n\r\n"
  private static let forbidden =
    "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

  private func cancel(answering answers: [String]) async throws -> (Result<Void, any Error>, deletes: Int) {
    let requests = LockIsolated(0)
    let server = try LoopbackStubServer { head in
      let count = requests.withLock { count in
        count += 1
        return count
      }
      guard head.hasPrefix("DELETE ") else { return Self.forbidden }
      return answers[min(count, answers.count) - 1]
    }
    addTeardownBlock { server.stop() }
    let base = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)"))
    let configuration = ResumableUploadConfiguration(
      endpoint: base.appendingPathComponent("uploads"), interopVersions: [6],
      retryPolicy: RetryPolicy(maxAttempts: 3), requestTimeout: 10)
    // The backoff sleeps on an immediate clock: the test waits for no real second.
    let uploader = ResumableUploader(configuration: configuration, clock: ImmediateClock())
    let resource = ResumableUploadResource(
      url: base.appendingPathComponent("uploads/1"), interopVersion: 6, fileSize: 1_000)
    let result: Result<Void, any Error>
    do {
      try await uploader.cancel(resource)
      result = .success(())
    } catch {
      result = .failure(error)
    }
    return (result, requests.value)
  }

  func testACancelAnsweredBusyIsRetriedUntilTheUploadIsDeleted() async throws {
    let (result, deletes) = try await cancel(answering: [Self.busy, Self.busy, Self.deleted])
    XCTAssertNoThrow(try result.get(), "the third DELETE deleted the upload")
    XCTAssertEqual(deletes, 3)
  }

  func testACancelStillBusyAfterEveryAttemptSaysHowOftenItTried() async throws {
    let (result, deletes) = try await cancel(answering: [Self.busy])
    XCTAssertThrowsError(try result.get()) { error in
      guard case .http(.attemptsFailed(count: 3, last: .httpStatus(503, _))) = error as? ResumableUploadError
      else { return XCTFail("expected 3 attempts ending in 503, got \(error)") }
    }
    XCTAssertEqual(deletes, 3)
  }

  func testACancelRefusedWith4xxIsNotRetried() async throws {
    let (result, deletes) = try await cancel(answering: [Self.forbidden])
    XCTAssertThrowsError(try result.get()) { error in
      guard case .http(.httpStatus(403, _)) = error as? ResumableUploadError
      else { return XCTFail("expected a 403, got \(error)") }
    }
    XCTAssertEqual(deletes, 1)
  }
}
