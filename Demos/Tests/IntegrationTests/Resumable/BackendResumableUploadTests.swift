import Foundation
import XCTest

@testable import HTTPClient

/// The resumable-upload cases against the backend (`Demos/Backend/resumable.py`, interop 8), plus what only the
/// backend has: `Upload-Limit` sizes, interop 6 on request, and an upload kept after an offset conflict.
final class BackendResumableUploadTests: XCTestCase, ResumableUploadCases {
  func startPeer(_ folder: URL, _ options: PeerOptions) throws -> BackendPeer {
    try BackendPeer(folder: folder, options: options)
  }

  func testA50MBUploadInterruptedTwiceCompletesByteIdentical() async throws { try await runInterruptedTwice() }
  func testPauseThenResumeSendsOnlyTheRest() async throws { try await runPauseThenResume() }
  func testARestartedServerGivesATypedErrorOrAFreshUpload() async throws { try await runServerRestarted() }
  func testAnExpiredUploadGivesATypedError() async throws { try await runUploadExpiredIsGone() }
  func testAServerWithoutTheDraftGetsAPlainUpload() async throws { try await runServerWithoutTheDraft() }
  func testCancelDeletesTheUpload() async throws { try await runCancelDeletesTheUpload() }

  func testAnOffsetMismatchIsAskedAgainAndTheUploadCompletes() async throws {
    let (receipt, _) = try await runOffsetMismatchOnTheBackend()
    XCTAssertEqual(receipt.resumptions, 2, "after the drop, and again after the 409")
  }

  func testMaxAppendSizeSplitsTheUploadIntoAppends() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: 10_000_000, in: folder)
    let peer = try BackendPeer(folder: folder, options: PeerOptions(maxAppendSize: 4_000_000))
    defer { peer.stop() }

    // This test counts requests: an append that timed out on a loaded machine (10 s, 1 of 8 runs once) would add a
    // resumption's two.
    var configuration = peer.configuration()
    configuration.requestTimeout = 60
    let receipt = try await ResumableUploader(configuration: configuration)
      .upload(ResumableUploadFile(url: file, filename: "scan.bin"))

    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
    let counters = try await peer.counters(receipt)
    XCTAssertEqual(receipt.resumptions, 0)
    XCTAssertEqual(counters.requests, 3, "4 MB on creation, then appends of 4 MB and 2 MB")
    XCTAssertEqual(receipt.bytesSent, 10_000_000)
  }

  /// The first append after the creation (whose answer confirmed the offset) is processed whole, but its answer
  /// is lost: the server keeps its bytes and drops the connection. The client must not repeat the append at the
  /// offset it knew (the server is past it: 409 on every attempt) but ask for the offset, as after any drop.
  func testAnAppendWhoseAnswerIsLostResumesFromTheServersOffset() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: 10_000_000, in: folder)
    let peer = try BackendPeer(folder: folder, options: PeerOptions(dropAfter: [8_000_000], maxAppendSize: 4_000_000))
    defer { peer.stop() }
    let recorder = EventRecorder()

    let receipt = try await ResumableUploader(configuration: peer.configuration())
      .upload(ResumableUploadFile(url: file, filename: "scan.bin"), events: recorder.record)

    // On a busy machine an append may also time out before the server has its bytes: another resumption, at the
    // offset the server then reports. What must hold is that the lost answer is resumed from where the server is.
    XCTAssertEqual(recorder.resumingOffsets.last, 8_000_000, "resumed at the offset the server reported")
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
    let counters = try await peer.counters(receipt)
    XCTAssertEqual(counters.drops, 1)
    XCTAssertEqual(counters.conflicts, 0, "no append was sent at a stale offset")
    XCTAssertEqual(counters.bytesReceived, 10_000_000, "nothing was sent twice")
  }

  func testAFileLargerThanMaxSizeFailsBeforeSendingAnything() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: 6_000_000, in: folder)
    let peer = try BackendPeer(folder: folder, options: PeerOptions(maxSize: 5_000_000))
    defer { peer.stop() }

    do {
      _ = try await ResumableUploader(configuration: peer.configuration())
        .upload(ResumableUploadFile(url: file, filename: "scan.bin"))
      XCTFail("a file over max-size must be refused")
    } catch let error as ResumableUploadError {
      XCTAssertEqual(error, .tooLarge(size: 6_000_000, maxSize: 5_000_000))
    }
    let stored = try await peer.storedKeys()
    XCTAssertEqual(stored, [], "nothing was stored")
  }

  func testInteropVersion6WhenAsked() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: 10_000_000, in: folder)
    let peer = try BackendPeer(folder: folder, options: PeerOptions(dropAfter: [3_000_000]))
    defer { peer.stop() }
    var configuration = peer.configuration()
    configuration.interopVersions = [6]

    let receipt = try await ResumableUploader(configuration: configuration)
      .upload(ResumableUploadFile(url: file, filename: "scan.bin"))

    XCTAssertEqual(receipt.mode, .resumable(interopVersion: 6))
    XCTAssertEqual(receipt.resumptions, 1)
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
  }
}

/// What only the backend can show, for every class that runs the cases against it.
extension ResumableUploadCases where Peer == BackendPeer {
  /// An upload left alone past its expiry is gone (`404`): a typed error. Its lifetime counts from its last append,
  /// which ends when the instance that received the paused request has written the bytes it holds to S3 (a
  /// moment under load): the wait leaves room for that.
  func runUploadExpiredIsGone() async throws {
    let error = try await runUploadExpired(expiry: 1, wait: .seconds(4), resumptionTimeout: 60)
    guard case .uploadGone = error else { return XCTFail("expected uploadGone, got \(error)") }
  }

  /// The offset-mismatch case: the upload completes byte-identical, and the backend counted the one 409.
  func runOffsetMismatchOnTheBackend() async throws -> (ResumableUploadReceipt, BackendPeer.Counters) {
    let (result, peer, file) = try await runOffsetMismatch()
    defer { peer.stop() }
    let receipt = try result.get()
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
    let counters = try await peer.counters(receipt)
    XCTAssertEqual(counters.conflicts, 1, "the client's stale append got 409")
    return (receipt, counters)
  }
}
