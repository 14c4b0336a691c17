import Foundation
import XCTest

@testable import HTTPClient

/// The resumable-upload cases against Apple's reference server (`NIOResumableUpload`, interop 6: the client asks
/// for 8, gets `400` naming 6, and speaks 6).
final class ReferenceServerResumableUploadTests: XCTestCase, ResumableUploadCases {
  func startPeer(_ folder: URL, _ options: PeerOptions) throws -> ReferencePeer {
    try ReferencePeer(folder: folder, options: options)
  }

  func testA50MBUploadInterruptedTwiceCompletesByteIdentical() async throws { try await runInterruptedTwice() }
  func testPauseThenResumeSendsOnlyTheRest() async throws { try await runPauseThenResume() }
  func testARestartedServerGivesATypedErrorOrAFreshUpload() async throws { try await runServerRestarted() }
  /// Apple's server keeps answering HEAD for an upload it let expire but swallows appends without an answer: the
  /// client times out, asks again, and gives up after the policy's attempts with an error that says so.
  func testAnExpiredUploadGivesATypedError() async throws {
    let error = try await runUploadExpired(expiry: 1, wait: .milliseconds(2_000))
    guard case .http(.attemptsFailed(2, .timedOut)) = error else {
      return XCTFail("expected 2 timed-out attempts, got \(error)")
    }
    XCTAssert(error.description.contains("Gave up after 2 attempts"), error.description)
  }
  func testAServerWithoutTheDraftGetsAPlainUpload() async throws { try await runServerWithoutTheDraft() }
  func testCancelDeletesTheUpload() async throws { try await runCancelDeletesTheUpload() }

  /// Apple's server destroys an upload on a 409: asked again, it is gone, and the client says so (or, when
  /// allowed, starts afresh) instead of guessing an offset.
  func testAnOffsetMismatchIsAskedAgainAndTheLostUploadIsReported() async throws {
    let (result, peer, _) = try await runOffsetMismatch()
    defer { peer.stop() }
    XCTAssertThrowsError(try result.get()) { error in
      guard case .uploadGone = error as? ResumableUploadError else {
        return XCTFail("expected uploadGone, got \(error)")
      }
    }
  }

  func testAnOffsetMismatchWithRestartWhenGoneCompletesAFreshUpload() async throws {
    let (result, peer, file) = try await runOffsetMismatch(restartWhenGone: true)
    defer { peer.stop() }
    let receipt = try result.get()
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
  }
}
