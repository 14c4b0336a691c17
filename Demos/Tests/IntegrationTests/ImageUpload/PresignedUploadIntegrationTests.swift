import Features
import Foundation
import Unidirectional
import XCTest

/// The live presigned flow against the real backend and moto S3 on 127.0.0.1 (started by the test class).
final class PresignedUploadIntegrationTests: BackendStackTestCase {
  /// Three images of different formats and sizes: the items, and the SHA-256 of each file.
  private func threeImages() throws -> [(item: UploadItem, sha256: String)] {
    let specs: [(String, [UInt8], Int, String)] = [
      ("sunset.jpg", UploadIntegrationSupport.jpegHeader, 700_001, "image/jpeg"),
      ("cat.png", UploadIntegrationSupport.pngHeader, 2_500_000, "image/png"),
      ("tiny.gif", UploadIntegrationSupport.gifHeader, 1_234, "image/gif"),
    ]
    return try specs.enumerated().map { index, spec in
      let url = folder.appendingPathComponent(spec.0)
      let digest = try UploadIntegrationSupport.writeFile(
        at: url, header: spec.1, size: spec.2, seed: UInt64(index + 1))
      return (UploadItem(fileURL: url, contentType: spec.3, byteCount: Int64(spec.2)), digest.hex)
    }
  }

  func testThreeImagesArriveByteForByteWithTheirContentTypes() async throws {
    let stack = try Self.backend.stack()
    let images = try threeImages()
    let uuids = RecordingUUIDs()
    let progress = ProgressLog<UploadProgress>()
    let uploader = PresignedUploader(configuration: UploadIntegrationSupport.configuration(stack))

    let ids = try await uploader.upload(images.map(\.item), mediaType: .archive, uuid: uuids.generator) {
      progress.append($0)
    }

    XCTAssertEqual(ids.count, 3)
    XCTAssertEqual(Set(ids).count, 3, "every item gets its own media id")
    XCTAssertEqual(uuids.values.count, 3)
    for ((item, sha256), uuid) in zip(images, uuids.values) {
      let key = "archive/\(uuid.uuidString.lowercased()).\(item.fileExtension)"
      let stored = try await stack.object(key: key)
      XCTAssertEqual(stored.sha256, sha256, key)
      XCTAssertEqual(Int64(stored.size), item.byteCount, key)
      XCTAssertEqual(stored.contentType, item.contentType, key)
    }
    let reports = progress.values
    XCTAssertEqual(reports.last, UploadProgress(completedBytes: 3_201_235, totalBytes: 3_201_235))
    XCTAssertEqual(reports.map(\.completedBytes), reports.map(\.completedBytes).sorted(), "progress never goes back")
    XCTAssertLessThanOrEqual(reports.count, 101, "one report per percent at most")

    // Without a progress handler (no task delegate) the bytes arrive the same.
    let again = RecordingUUIDs()
    let more = try await uploader.upload([images[1].item], mediaType: .profile, uuid: again.generator)
    XCTAssertEqual(more.count, 1)
    let stored = try await stack.object(key: "profile/\(try XCTUnwrap(again.values.first).uuidString.lowercased()).png")
    XCTAssertEqual(stored.sha256, images[1].sha256)
  }

  func testTheFeatureUploadsPickedFilesAndTheParentKeepsTheIDsInPickOrder() async throws {
    let stack = try Self.backend.stack()
    let images = try threeImages()
    let uuids = RecordingUUIDs()
    let store = Store(initialState: ArchiveFeature.State()) {
      ArchiveFeature()
    } withDependencies: {
      $0.imageLoader = .live
      $0.imageUploadClient = .presigned(UploadIntegrationSupport.configuration(stack))
      $0.uuid = uuids.generator
      $0.clock = TestClock()  // the 3-second clear is not part of this test
    }

    let states = store.states
    store.send(.upload(.itemsPicked(images.map { PickedImage(fileURL: $0.item.fileURL) })))
    // What this test asserts is the parent's list of ids, so that is what it waits for (or a failure, to stop
    // early) — not the child's status, which is reduced one action before the parent hears of it. The bound is
    // longer than the client's 30 s request timeout: a stalled request ends as a failure with its reason.
    let settled = await UploadIntegrationSupport.firstState(of: states, timeout: .seconds(60)) {
      !$0.mediaIDs.isEmpty || $0.lastFailure != nil
    }
    let state = try XCTUnwrap(
      settled,
      "neither ids nor a failure reached the parent within 60 s: \(store.state)")

    XCTAssertNil(state.lastFailure)
    guard case let .success(ids) = state.upload.status else {
      return XCTFail("expected success, got \(state.upload.status)")
    }
    XCTAssertEqual(ids.count, 3)
    XCTAssertEqual(state.mediaIDs, ids)
    XCTAssertEqual(state.upload.statusText, "✓ Upload complete!")
    XCTAssertEqual(uuids.values.count, 3)
    for ((item, sha256), uuid) in zip(images, uuids.values) {
      let stored = try await stack.object(key: "archive/\(uuid.uuidString.lowercased()).\(item.fileExtension)")
      XCTAssertEqual(stored.sha256, sha256)
      XCTAssertEqual(stored.contentType, item.contentType, "the loader found the type from the bytes")
    }
  }

  func testABadTokenIsRefusedWithA401TypedError() async throws {
    let stack = try Self.backend.stack()
    let images = try threeImages()
    let wrongToken = "definitely-not-the-token"
    let uploader = PresignedUploader(configuration: UploadIntegrationSupport.configuration(stack, token: wrongToken))
    do {
      _ = try await uploader.upload(images.map(\.item), mediaType: .profile, uuid: .random)
      XCTFail("expected 401")
    } catch {
      XCTAssertEqual(error as? ImageUploadError, .http(.httpStatus(401, message: "invalid or missing bearer token")))
      XCTAssertFalse("\(error)".contains(wrongToken))
      XCTAssertFalse("\(error)".contains(stack.token))
    }
  }

  func testACountMismatchFailsBeforeAnyPUT() async throws {
    let stack = try Self.backend.stack()
    let images = try threeImages()
    let uuids = RecordingUUIDs()
    // With these faults any PUT to items 0 or 1 would be recorded by the test hooks.
    let configuration = UploadIntegrationSupport.configuration(
      stack, headers: ["X-Test-Fault": "count-mismatch,put-hang:0,put-fail:1"])
    let eventsBefore = try await stack.events()

    do {
      _ = try await PresignedUploader(configuration: configuration)
        .upload(images.map(\.item), mediaType: .archive, uuid: uuids.generator)
      XCTFail("expected a count mismatch")
    } catch {
      XCTAssertEqual(error as? ImageUploadError, .presignCountMismatch(requested: 3, received: 2))
    }

    let eventsAfter = try await stack.events()
    XCTAssertEqual(eventsAfter, eventsBefore, "no PUT reached the hooks")
    let lastKey = "archive/\(uuids.values[2].uuidString.lowercased()).gif"
    do {
      _ = try await stack.object(key: lastKey)
      XCTFail("\(lastKey) must not exist")
    } catch {
      XCTAssertTrue("\(error)".contains("answered 404"), "\(error)")
    }
  }

  func testOneFailingPUTCancelsTheOthersAndCarriesTheS3Code() async throws {
    let stack = try Self.backend.stack()
    let images = try threeImages()
    // Item 0 (700 KB) hangs after reading its body; item 1 (2.5 MB) is refused with AccessDenied, but only once
    // item 0's PUT has reached its hook (the backend holds a refusal back for the hanging PUTs of its batch): on a
    // starved machine the refusal could otherwise come first, the uploader rightly cancel item 0 before it was
    // sent, and no hanging PUT ever exist to end.
    let configuration = UploadIntegrationSupport.configuration(
      stack, headers: ["X-Test-Fault": "put-hang:0,put-fail:1:AccessDenied"],
      requestTimeout: UploadIntegrationSupport.outlastingTheHang)
    let before = try await stack.events().count

    do {
      _ = try await PresignedUploader(configuration: configuration)
        .upload(images.map(\.item), mediaType: .archive, uuid: .random)
      XCTFail("expected the storage refusal")
    } catch {
      XCTAssertEqual(
        error as? ImageUploadError,
        .http(.storageRejected(status: 403, code: "AccessDenied", message: "Request has expired")))
    }

    // The hang handler notices the disconnect within ~50 ms; a client that waited for it would have got its answer
    // only after the hook's cap, with `disconnectedEarly` false.
    var events: [BackendStack.Event] = []
    let settled = try await UploadIntegrationSupport.waitUntil(timeout: 30) {
      events = Array(try await stack.events().dropFirst(before))
      return events.contains { $0.kind == "hang" && $0.completed }
    }
    XCTAssertTrue(settled, "the hanging PUT did not end: \(events)")
    let hang = try XCTUnwrap(events.first { $0.kind == "hang" })
    XCTAssertTrue(hang.disconnectedEarly, "the hanging PUT was cancelled, not waited for")
    XCTAssertLessThanOrEqual(hang.bytesReceived, 700_001, "cancelled while or after sending its body")
    let refused = try XCTUnwrap(events.first { $0.kind == "s3-error" })
    XCTAssertEqual(refused.code, "AccessDenied")
    XCTAssertEqual(refused.bytesReceived, 2_500_000)
    for event in [hang, refused] {
      XCTAssertEqual(event.method, "PUT")
      XCTAssertFalse(event.hasAuthorization, "storage PUTs carry no Authorization header")
    }
    XCTAssertEqual(hang.contentType, "image/jpeg")
    XCTAssertEqual(refused.contentType, "image/png")
  }

  func testASignatureMismatchIsReportedWithItsS3Code() async throws {
    let stack = try Self.backend.stack()
    let image = try threeImages()[2]
    let configuration = UploadIntegrationSupport.configuration(stack, headers: ["X-Test-Fault": "put-fail:0"])
    do {
      _ = try await PresignedUploader(configuration: configuration).upload(
        [image.item], mediaType: .profile, uuid: .random)
      XCTFail("expected SignatureDoesNotMatch")
    } catch let error as ImageUploadError {
      guard case let .http(.storageRejected(status, code, message)) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(status, 403)
      XCTAssertEqual(code, "SignatureDoesNotMatch")
      XCTAssertTrue(message?.hasPrefix("The request signature we calculated does not match") ?? false)
      XCTAssertFalse(error.description.contains("X-Amz-Signature"), "no presigned URL in the message")
    }
  }

  func testAServerThatIsDownGivesCannotConnect() async throws {
    let port = try BackendStack.unusedLoopbackPort()
    let images = try threeImages()
    let configuration = UploadServerConfiguration(
      apiBaseURL: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)")), token: BearerToken("t"), requestTimeout: 10)
    do {
      _ = try await PresignedUploader(configuration: configuration).upload(
        images.map(\.item), mediaType: .archive, uuid: .random)
      XCTFail("expected cannotConnect")
    } catch {
      XCTAssertEqual(error as? ImageUploadError, .http(.cannotConnect(host: "127.0.0.1:\(port)")))
    }
  }

  func testAnUnreadableFileFailsBeforeAnyRequest() async throws {
    let stack = try Self.backend.stack()
    let missing = folder.appendingPathComponent("gone.jpg")
    let item = UploadItem(fileURL: missing, contentType: "image/jpeg", byteCount: 10)
    let before = try await stack.events()
    do {
      _ = try await PresignedUploader(
        configuration: UploadIntegrationSupport.configuration(stack, headers: ["X-Test-Fault": "put-hang:0"])
      ).upload([item], mediaType: .archive, uuid: .random)
      XCTFail("expected unreadableFile")
    } catch {
      XCTAssertEqual(
        error as? ImageUploadError, .http(.unreadableFile(path: missing.path, reason: "the file does not exist")))
    }
    let after = try await stack.events()
    XCTAssertEqual(after, before)
  }

  func testCancellingTheUploadStopsThePUTs() async throws {
    let stack = try Self.backend.stack()
    let image = try threeImages()[0]
    let configuration = UploadIntegrationSupport.configuration(
      stack, headers: ["X-Test-Fault": "put-hang:0"], requestTimeout: UploadIntegrationSupport.outlastingTheHang)
    let before = try await stack.events().count
    let task = Task {
      try await PresignedUploader(configuration: configuration).upload([image.item], mediaType: .archive, uuid: .random)
    }
    // Cancel once the server has the whole body and is holding the answer back.
    let reached = try await UploadIntegrationSupport.waitUntil(timeout: 30) {
      try await stack.events().dropFirst(before).contains { $0.kind == "hang" && $0.bytesReceived == 700_001 }
    }
    XCTAssertTrue(reached)
    task.cancel()
    do {
      _ = try await task.value
      XCTFail("expected cancellation")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    let disconnected = try await UploadIntegrationSupport.waitUntil(timeout: 30) {
      try await stack.events().dropFirst(before).contains { $0.kind == "hang" && $0.completed && $0.disconnectedEarly }
    }
    XCTAssertTrue(disconnected)
  }
}
