import Foundation
import XCTest

@testable import Features

/// The resumable-upload cases against three backend instances behind run_stack.py's round-robin proxy, all on one
/// S3 (moto): each new connection reaches the next instance, so an upload resumed after a drop or a pause
/// continues on another instance than the one that started it, and a restart of every instance loses nothing.
final class MultiInstanceResumableUploadTests: XCTestCase, ResumableUploadCases {
  func startPeer(_ folder: URL, _ options: PeerOptions) throws -> BackendPeer {
    try BackendPeer(folder: folder, options: options, instances: 3)
  }

  func testA50MBUploadInterruptedTwiceCompletesByteIdentical() async throws { try await runInterruptedTwice() }
  func testPauseThenResumeSendsOnlyTheRest() async throws { try await runPauseThenResume() }
  func testAnExpiredUploadGivesATypedError() async throws { try await runUploadExpiredIsGone() }
  func testAServerWithoutTheDraftGetsAPlainUpload() async throws { try await runServerWithoutTheDraft() }
  func testCancelDeletesTheUpload() async throws { try await runCancelDeletesTheUpload() }

  /// Paused at a tenth, every instance restarted (S3 stays): the upload resumes from the offset S3 holds, on
  /// instances that never saw it, and completes byte-identical with only the rest sent.
  func testARestartOfEveryInstanceKeepsThePausedUpload() async throws {
    try await runPauseThenResume { peer in try peer.restartInstances() }
  }

  func testAnOffsetMismatchIsAskedAgainAndTheUploadCompletesAcrossInstances() async throws {
    let (_, counters) = try await runOffsetMismatchOnTheBackend()
    XCTAssertGreaterThanOrEqual(counters.instances.count, 2, "appends reached several instances: \(counters.instances)")
  }
}
