import Foundation
import Unidirectional
import XCTest

@testable import HTTPClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cases every resumable-upload server must pass; ``BackendResumableUploadTests`` and
/// ``ReferenceServerResumableUploadTests`` run each against their server.
protocol ResumableUploadCases: XCTestCase {
  associatedtype Peer: ResumableUploadPeer
  /// Starts the class's server for one test.
  func startPeer(_ folder: URL, _ options: PeerOptions) throws -> Peer
}

/// 50 MB, the size the issue asks for.
let fiftyMegabytes: Int64 = 50_000_000

extension ResumableUploadCases {
  /// A 50 MB upload whose connection the server drops at 30% and at 70% completes byte-identical, resuming
  /// twice, while the server receives less than 1.1× the file.
  func runInterruptedTwice() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: fiftyMegabytes, in: folder)
    let peer = try startPeer(folder, PeerOptions(dropAfter: [15_000_000, 35_000_000]))
    defer { peer.stop() }
    let recorder = EventRecorder()

    let receipt = try await ResumableUploader(configuration: peer.configuration())
      .upload(ResumableUploadFile(url: file, filename: "scan.bin"), events: recorder.record)

    XCTAssertEqual(receipt.mode, .resumable(interopVersion: peer.interopVersion))
    XCTAssertEqual(receipt.resumptions, 2)
    XCTAssertEqual(receipt.size, fiftyMegabytes)
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
    let received = try await peer.bytesReceived(receipt)
    XCTAssertGreaterThanOrEqual(received, fiftyMegabytes)
    XCTAssertLessThan(Double(received), 1.1 * Double(fiftyMegabytes), "the server received \(received) bytes")
    let offsets = recorder.resumingOffsets
    XCTAssertEqual(offsets.count, 2)
    if offsets.count == 2 {
      XCTAssert((14_500_000...15_000_000).contains(offsets[0]), "resumed at \(offsets[0])")
      XCTAssert((34_500_000...35_000_000).contains(offsets[1]), "resumed at \(offsets[1])")
    }
    recorder.assertProgressIsMonotonicAndEnds(at: fiftyMegabytes)
  }

  /// Cancelling the task pauses; after a while (and whatever `whilePaused` does to the server) the upload continues
  /// from the server's offset with its resource.
  func runPauseThenResume(whilePaused: (Peer) throws -> Void = { _ in }) async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: fiftyMegabytes, in: folder)
    let peer = try startPeer(folder, PeerOptions())
    defer { peer.stop() }
    let uploader = ResumableUploader(configuration: peer.configuration())
    let recorder = EventRecorder()

    let resource = try await pause(uploader, file, EventRecorder())
    try await Task.sleep(for: .milliseconds(300))
    try whilePaused(peer)
    let receipt = try await uploader.upload(
      ResumableUploadFile(url: file, filename: "scan.bin"), resuming: resource, events: recorder.record)

    XCTAssertEqual(receipt.resumptions, 1)
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
    let offset = try XCTUnwrap(recorder.resumingOffsets.first)
    XCTAssertEqual(recorder.resumingOffsets.count, 1)
    XCTAssertGreaterThan(offset, 0, "the server kept what arrived before the pause")
    XCTAssertEqual(recorder.progress.first?.completedBytes, offset, "progress resumes at the server's offset")
    recorder.assertProgressIsMonotonicAndEnds(at: fiftyMegabytes)
    XCTAssertEqual(receipt.bytesSent, fiftyMegabytes - offset, "only the rest was sent")
  }

  /// A restarted server has forgotten the upload: a typed error; with `restartWhenGone`, a fresh upload.
  func runServerRestarted() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: fiftyMegabytes, in: folder)
    let peer = try startPeer(folder, PeerOptions())
    defer { peer.stop() }
    let resource = try await pause(ResumableUploader(configuration: peer.configuration()), file, EventRecorder())
    try peer.restart()

    do {
      _ = try await ResumableUploader(configuration: peer.configuration())
        .upload(ResumableUploadFile(url: file, filename: "scan.bin"), resuming: resource)
      XCTFail("resuming an upload the server forgot must fail")
    } catch let error as ResumableUploadError {
      guard case .uploadGone = error else { return XCTFail("expected uploadGone, got \(error)") }
      XCTAssert(error.description.contains("no longer has this upload"), error.description)
    }

    var configuration = peer.configuration()
    configuration.restartWhenGone = true
    let receipt = try await ResumableUploader(configuration: configuration)
      .upload(ResumableUploadFile(url: file, filename: "scan.bin"), resuming: resource)
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
  }

  /// An upload left alone past the server's expiry: resuming it fails with a typed error (which one depends on
  /// the server; see the callers), after a bounded number of attempts.
  /// `resumptionTimeout`: the request timeout of the resumption, short for a server that swallows an expired
  /// upload's appends without answering (Apple's), the default for one that answers (the backend, which first
  /// discards the upload in S3: more than 2 s on a loaded machine, 3 of 6 runs once).
  func runUploadExpired(
    expiry: Int, wait: Duration, resumptionTimeout: TimeInterval = 2
  ) async throws -> ResumableUploadError {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: fiftyMegabytes, in: folder)
    let peer = try startPeer(folder, PeerOptions(expiry: expiry))
    defer { peer.stop() }
    // The upload is paused with the default timeouts: on a busy machine the server may take longer than the
    // resumption's short timeout to answer an append, and the first upload must be cancelled, not time out.
    let resource = try await pause(ResumableUploader(configuration: peer.configuration()), file, EventRecorder())
    try await Task.sleep(for: wait)
    var configuration = peer.configuration()
    configuration.requestTimeout = resumptionTimeout
    configuration.retryPolicy.maxAttempts = 2
    let uploader = ResumableUploader(configuration: configuration)

    do {
      let receipt = try await uploader.upload(ResumableUploadFile(url: file, filename: "scan.bin"), resuming: resource)
      throw TestFailure("resuming an expired upload must fail, got \(receipt)")
    } catch let error as ResumableUploadError {
      return error
    }
  }

  /// Someone else appends between the client's offset query and its append: the server answers 409 and the
  /// client asks for the offset again instead of guessing. Returns the outcome for the server-specific checks.
  func runOffsetMismatch(restartWhenGone: Bool = false) async throws -> (
    Result<ResumableUploadReceipt, any Error>, Peer, URL
  ) {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: fiftyMegabytes, in: folder)
    let peer = try startPeer(folder, PeerOptions(dropAfter: [15_000_000]))
    var configuration = peer.configuration()
    configuration.restartWhenGone = restartWhenGone
    var uploader = ResumableUploader(configuration: configuration)
    let raced = LockIsolated(false)
    let token = configuration.token
    uploader.willAppend = { resource, offset in
      // Once, after the drop: a second writer appends the next megabyte (the file's own bytes) first.
      guard offset > 0, !raced.value else { return }
      raced.setValue(true)
      try? await SecondWriter.append(file: file, to: resource, offset: offset, length: 1_000_000, token: token)
    }
    let recorder = EventRecorder()
    let result = await Result(catching: {
      try await uploader.upload(ResumableUploadFile(url: file, filename: "scan.bin"), events: recorder.record)
    })
    XCTAssertTrue(raced.value, "the second writer ran")
    XCTAssertGreaterThanOrEqual(recorder.resumingOffsets.count, 1)
    return (result, peer, file)
  }

  /// A server without the draft (or without a version we speak) gets one plain request.
  func runServerWithoutTheDraft() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: 5_000_000, in: folder)
    let peer = try startPeer(folder, PeerOptions())
    defer { peer.stop() }
    let recorder = EventRecorder()

    let receipt = try await ResumableUploader(configuration: peer.configurationWithoutTheDraft())
      .upload(ResumableUploadFile(url: file, filename: "scan.bin"), events: recorder.record)

    XCTAssertEqual(receipt.mode, .plain)
    XCTAssertEqual(recorder.events.filter { $0 == .plainUpload }.count, 1)
    XCTAssertFalse(recorder.events.contains { if case .created = $0 { true } else { false } })
    let stored = try await peer.storedFile(receipt)
    XCTAssertTrue(TestFile.identical(stored, file), "the stored file is byte-identical")
    recorder.assertProgressIsMonotonicAndEnds(at: 5_000_000)
  }

  /// Deleting a paused upload: the server forgets it, a later resumption fails with a typed error.
  func runCancelDeletesTheUpload() async throws {
    let folder = try makeScratchFolder("resumable")
    let file = try TestFile.random(size: fiftyMegabytes, in: folder)
    let peer = try startPeer(folder, PeerOptions())
    defer { peer.stop() }
    let uploader = ResumableUploader(configuration: peer.configuration())
    let resource = try await pause(uploader, file, EventRecorder())

    try await uploader.cancel(resource)

    do {
      _ = try await uploader.upload(ResumableUploadFile(url: file, filename: "scan.bin"), resuming: resource)
      XCTFail("a cancelled upload cannot be resumed")
    } catch ResumableUploadError.uploadGone {
    }
  }

  /// Starts an upload and cancels its task once a tenth has been sent and the server has announced the upload
  /// resource (a server that writes it to storage first may announce it after the first tenth went out); returns
  /// the upload resource.
  func pause(_ uploader: ResumableUploader, _ file: URL, _ recorder: EventRecorder) async throws
    -> ResumableUploadResource
  {
    let (tenth, signal) = AsyncStream<Void>.makeStream()
    let task = Task {
      defer { signal.finish() }  // an upload that ends before it could pause ends the wait too
      return try await uploader.upload(ResumableUploadFile(url: file, filename: "scan.bin")) { event in
        recorder.record(event)
        if case let .progress(progress) = event, progress.percent >= 10, !recorder.createdResources.isEmpty {
          signal.yield()
        }
      }
    }
    for await _ in tenth { break }
    task.cancel()
    let outcome = await task.result
    guard case let .failure(error) = outcome, error is CancellationError else {
      throw TestFailure("the paused upload ended with \(outcome) instead of CancellationError")
    }
    return try XCTUnwrap(recorder.createdResources.last, "the server announced the upload resource")
  }
}

/// An error that fails the test with its message.
struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Records a resumable upload's events.
final class EventRecorder: Sendable {
  private let storage = LockIsolated<[ResumableUploadEvent]>([])

  var record: @Sendable (ResumableUploadEvent) -> Void { { [storage] event in storage.withLock { $0.append(event) } } }
  var events: [ResumableUploadEvent] { storage.value }

  var resumingOffsets: [Int64] {
    events.compactMap { if case let .resuming(offset, _) = $0 { offset } else { nil } }
  }

  var createdResources: [ResumableUploadResource] {
    events.compactMap { if case let .created(resource) = $0 { resource } else { nil } }
  }

  var progress: [UploadProgress] {
    events.compactMap { if case let .progress(progress) = $0 { progress } else { nil } }
  }

  /// Progress never went backwards, came at most about once per percent, and ended at exactly `size`.
  func assertProgressIsMonotonicAndEnds(at size: Int64, file: StaticString = #filePath, line: UInt = #line) {
    let completed = progress.map(\.completedBytes)
    XCTAssertEqual(completed, completed.sorted(), "progress went backwards", file: file, line: line)
    XCTAssertEqual(completed.last, size, file: file, line: line)
    XCTAssertLessThanOrEqual(
      completed.count, 101, "at most one report per percent: \(progress.map(\.percent))", file: file, line: line)
  }
}

/// Test files.
enum TestFile {
  /// A file of `size` random bytes (from `/dev/urandom`, fast even in a debug build).
  static func random(size: Int64, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("upload-\(size).bin")
    guard FileManager.default.createFile(atPath: url.path, contents: nil),
      let random = FileHandle(forReadingAtPath: "/dev/urandom")
    else {
      throw TestFailure("cannot create \(url.path) from /dev/urandom")
    }
    defer { try? random.close() }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var remaining = size
    while remaining > 0 {
      let chunk = try random.read(upToCount: Int(min(remaining, 1 << 20))) ?? Data()
      guard !chunk.isEmpty else { throw TestFailure("/dev/urandom ran dry") }
      try handle.write(contentsOf: chunk)
      remaining -= Int64(chunk.count)
    }
    return url
  }

  /// Whether the files hold the same bytes (Foundation's comparison: fast in a debug build, unlike hashing).
  static func identical(_ a: URL, _ b: URL) -> Bool {
    FileManager.default.contentsEqual(atPath: a.path, andPath: b.path)
  }
}

/// A client other than the uploader appending to the same upload, as a second device or a request the client
/// had given up on would.
enum SecondWriter {
  static func append(file: URL, to resource: ResumableUploadResource, offset: Int64, length: Int64, token: BearerToken?)
    async throws
  {
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(offset))
    let bytes = try handle.read(upToCount: Int(length)) ?? Data()
    var headers = [
      (name: "Upload-Draft-Interop-Version", value: String(resource.interopVersion)),
      ("Content-Type", "application/partial-upload"), ("Upload-Offset", String(offset)), ("Upload-Complete", "?0"),
    ]
    if let token { headers.append(("Authorization", token.authorizationHeader)) }
    let (status, _) = try await LoopbackHTTP.send("PATCH", resource.url, headers: headers, body: bytes)
    XCTAssert((200..<300).contains(status), "the second writer's append answered \(status)")
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
