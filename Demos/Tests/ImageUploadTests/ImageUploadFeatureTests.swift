import FeatureTestSupport
import Foundation
import HTTPClient
import ImageUpload
import Unidirectional
import UnidirectionalTesting
import XCTest

final class ImageUploadFeatureTests: XCTestCase {
  private let picked = UploadFixtures.picked
  private var loaded: [LoadedImage] { picked.map(UploadFixtures.loaded) }
  private var items: [UploadItem] { loaded.map(UploadItem.init) }
  private var ids: [MediaID] { ["media-sunset", "media-cat", "media-beach"] }

  func testHappyPathUploadsInPickOrderAndTellsTheParent() async {
    let clock = TestClock()
    let calls = Recorder<([UploadItem], MediaType)>()
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { items, mediaType, _ in
        calls.append((items, mediaType))
        return items.map(UploadFixtures.mediaID)
      }
    }

    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    XCTAssertTrue(store.state.isLoading)
    XCTAssertEqual(store.state.statusText, "Uploading to server...")
    await store.receive(.imagesLoaded(.success(loaded)))
    await store.receive(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    XCTAssertEqual(store.state.statusText, "Uploading to server... 0%")
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(self.ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))
    XCTAssertFalse(store.state.isLoading)
    XCTAssertEqual(store.state.statusText, "✓ Upload complete!")

    XCTAssertEqual(calls.values.map(\.0), [items])
    XCTAssertEqual(calls.values.map(\.1), [.archive])
    XCTAssertEqual(items.map(\.fileExtension), ["png", "png", "png"])

    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    XCTAssertEqual(store.state.statusText, "")
    await store.finish()
  }

  func testFailureShowsTheReasonTellsTheParentAndClears() async {
    let clock = TestClock()
    let error = ImageUploadError.http(
      .storageRejected(status: 403, code: "AccessDenied", message: "Request has expired"))
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .profile)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { _, _, _ in throw error }
    }

    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success(loaded)))
    await store.receive(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.receive(.uploadFailed(error)) { $0.status = .failure(error.description) }
    await store.receive(.delegate(.uploadFailed(error)))
    XCTAssertFalse(store.state.isLoading)
    XCTAssertEqual(
      store.state.statusText,
      "✗ Upload failed: The storage server refused the upload (HTTP 403): AccessDenied: Request has expired")

    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testStatusClearsAtExactlyThreeSecondsNotBefore() async {
    let clock = TestClock()
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageUploadClient.upload = { items, _, _ in items.map(UploadFixtures.mediaID) }
    }

    await store.send(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(self.ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))

    await clock.advance(by: .milliseconds(2_999))
    XCTAssertEqual(clock.sleeperCount, 1, "the clear timer is still pending at 2.999 s")
    // A late progress report changes nothing; sending it also proves nothing was received before it.
    await store.send(.uploadProgressed(UploadProgress(completedBytes: 300, totalBytes: 300)))

    await clock.advance(by: .milliseconds(1))
    await store.receive(.statusCleared) { $0.status = .idle }
    XCTAssertEqual(clock.now.offset, .seconds(3))
    await store.finish()
  }

  func testANewUploadCancelsThePendingClear() async {
    let clock = TestClock()
    let calls = Recorder<Int>()
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { items, _, _ in
        calls.append(items.count)
        if calls.values.count == 2 { try await clock.sleep(for: .seconds(5)) }
        return items.map(UploadFixtures.mediaID)
      }
    }
    let first = Array(items.prefix(1))
    await store.send(.uploadRequested(first)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 100))
    }
    await store.receive(.uploadCompleted([ids[0]])) { $0.status = .success([self.ids[0]]) }
    await store.receive(.delegate(.uploadCompleted([ids[0]])))

    // 2 s later (1 s before the clear), the user picks again: the upload takes 5 s on the clock.
    await clock.advance(by: .seconds(2))
    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success(loaded)))
    await store.receive(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }

    // At 3 s the first clear would have fired; it was cancelled, so the upload is still shown.
    await clock.advance(by: .seconds(1))
    XCTAssertEqual(clock.sleeperCount, 1, "only the upload sleeps; the first clear timer is gone")
    XCTAssertTrue(store.state.isLoading)

    await clock.advance(by: .seconds(4))
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(self.ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    XCTAssertEqual(calls.values, [1, 3])
    await store.finish()
  }

  func testPickingMoreThanTheMaximumIsRefusedAndNothingIsUploaded() async {
    let clock = TestClock()
    // No loader or upload client override: calling either would fail this test.
    let store = TestStore(initialState: ImageUploadFeature.State(maxCount: 2, mediaType: .profile)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
    }

    let message = "You can upload at most 2 images at once; you picked 3."
    await store.send(.itemsPicked(picked)) { $0.status = .failure(message) }
    XCTAssertEqual(store.state.statusText, "✗ Upload failed: " + message)
    XCTAssertEqual(store.state.pickedImages, [])
    XCTAssertFalse(store.state.isLoading)

    await store.send(.uploadRequested(items))

    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testALoaderThatFindsNothingEndsIdleWithoutUploading() async {
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.imageLoader.load = { _ in [] }
      // No upload client override: an upload would fail this test.
    }
    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success([]))) { $0.status = .idle }
    await store.finish()
  }

  func testAnEmptyPickDoesNothing() async {
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) { ImageUploadFeature() }
    await store.send(.itemsPicked([]))
    await store.send(.uploadRequested([]))
    await store.finish()
  }

  func testLeavingCancelsTheInFlightUpload() async {
    let clock = TestClock()
    let events = Recorder<String>()
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient = UploadFixtures.uploadWaitingForCancellation(on: clock, events: events)
    }

    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success(loaded)))
    await store.receive(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    XCTAssertEqual(events.values, ["started"])

    await store.send(.onDisappear) { $0.status = .idle }
    XCTAssertEqual(events.values, ["started", "cancelled"])
    XCTAssertEqual(clock.sleeperCount, 0)
    await store.finish()
  }

  func testAParentDismissingTheUploaderCancelsItsUpload() async {
    let clock = TestClock()
    let events = Recorder<String>()
    let store = TestStore(initialState: DismissingParent.State(upload: .init(mediaType: .profile))) {
      DismissingParent()
    } withDependencies: {
      $0.clock = clock
      $0.imageUploadClient = UploadFixtures.uploadWaitingForCancellation(on: clock, events: events)
    }
    await store.send(.upload(.uploadRequested(items))) {
      $0.upload?.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.send(.close) { $0.upload = nil }
    XCTAssertEqual(events.values, ["started", "cancelled"])
    await store.finish()
  }

  func testLeavingDuringLoadingCancelsBeforeAnyUpload() async {
    let clock = TestClock()
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader.load = { images in
        try await clock.sleep(for: .seconds(1))
        return images.map(UploadFixtures.loaded)
      }
      // No upload client override: an upload after leaving would fail this test.
    }
    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.send(.onDisappear) { $0.status = .idle }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  func testProgressUpdatesAreShown() async {
    let clock = TestClock()
    let quarter = UploadProgress(completedBytes: 75, totalBytes: 300)
    let done = UploadProgress(completedBytes: 300, totalBytes: 300)
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageUploadClient.upload = { items, _, progress in
        progress(quarter)
        try await clock.sleep(for: .seconds(1))
        progress(done)
        return items.map(UploadFixtures.mediaID)
      }
    }

    await store.send(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.receive(.uploadProgressed(quarter)) { $0.status = .uploading(quarter) }
    XCTAssertEqual(store.state.statusText, "Uploading to server... 25%")
    XCTAssertEqual(store.state.status, .uploading(quarter))

    await clock.advance(by: .seconds(1))
    await store.receive(.uploadProgressed(done)) { $0.status = .uploading(done) }
    XCTAssertEqual(store.state.statusText, "Uploading to server... 100%")
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(self.ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testAnUnreadableFileFailsWithATypedErrorAndUploadsNothing() async {
    let clock = TestClock()
    let error = ImageUploadError.unreadableFile(path: "/photos/cat.png", reason: "the file does not exist")
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader.load = { _ in throw error }
      // No upload client override: nothing may be uploaded.
    }

    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.failure(error))) { $0.status = .failure(error.description) }
    await store.receive(.delegate(.uploadFailed(error)))
    XCTAssertEqual(store.state.statusText, "✗ Upload failed: Cannot read cat.png: the file does not exist.")
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testAPickWhileUploadingReplacesTheUpload() async {
    let clock = TestClock()
    let events = Recorder<String>()
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { items, _, _ in
        events.append("start \(items.count)")
        do {
          try await clock.sleep(for: .seconds(10))
        } catch {
          events.append("cancelled \(items.count)")
          throw error
        }
        return items.map(UploadFixtures.mediaID)
      }
    }
    let second = Array(picked.suffix(1))
    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success(loaded)))
    await store.receive(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.send(.itemsPicked(second)) {
      $0.pickedImages = second
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success(second.map(UploadFixtures.loaded))))
    await store.receive(.uploadRequested(second.map(UploadFixtures.loaded).map(UploadItem.init))) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 100))
    }
    await clock.advance(by: .seconds(10))
    await store.receive(.uploadCompleted([ids[2]])) { $0.status = .success([self.ids[2]]) }
    await store.receive(.delegate(.uploadCompleted([ids[2]])))
    XCTAssertEqual(events.values, ["start 3", "cancelled 3", "start 1"])
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }
}

/// A parent that shows the uploader optionally and closes it (sets it to nil).
private struct DismissingParent: Reducer {
  struct State: Equatable {
    var upload: ImageUploadFeature.State?
  }
  enum Action: Equatable {
    case upload(ImageUploadFeature.Action)
    case close
    static let uploadCase = CasePath(Action.upload) { if case let .upload(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .close = action { state.upload = nil }
      return .none
    }
    .ifLet(\.upload, action: Action.uploadCase) { ImageUploadFeature() }
  }
}
