import Foundation
import HTTPClient
import ImageUpload
import Images
import PhotoAnalysis
import Unidirectional
import UnidirectionalTesting
import XCTest

/// ``ImageUploadFeature`` with its embedded ``PhotoAnalysisFeature``: each picked image gets its score next to the
/// upload, which never waits for it.
final class PhotoAnalysisInImageUploadTests: XCTestCase {
  private let picked = ["sunset.jpg", "edited.jpg"].map { PickedImage(fileURL: URL(fileURLWithPath: "/photos/\($0)")) }
  private var loaded: [LoadedImage] {
    picked.map { LoadedImage(fileURL: $0.fileURL, contentType: "image/jpeg", byteCount: 100) }
  }
  private var items: [UploadItem] { loaded.map(UploadItem.init) }
  private var analysing: PhotoAnalysisFeature.State {
    PhotoAnalysisFeature.State(
      photos: IdentifiedArrayOf(
        picked.enumerated().map { PhotoAnalysisFeature.Photo(id: $0.offset, image: $0.element) }))
  }

  private func store(clock: TestClock, upload: @escaping @Sendable ([UploadItem]) async throws -> [MediaID])
    -> TestStore<ImageUploadFeature.State, ImageUploadFeature.Action>
  {
    let loaded = loaded
    return TestStore(
      initialState: ImageUploadFeature.State(mediaType: .archive, analysis: PhotoAnalysisFeature.State())
    ) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = ImageLoaderClient { _ in loaded }
      $0.imageUploadClient.upload = { items, _, _ in try await upload(items) }
      $0.photoMetadata = .preview  // 200 ms per photo on the clock
    }
  }

  /// Picks the photos: their analysis starts, then they load and their upload starts, without waiting for it.
  private func pickAndStartUpload(_ store: TestStore<ImageUploadFeature.State, ImageUploadFeature.Action>) async {
    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.analysis(.photosPicked(picked))) { $0.analysis = self.analysing }
    await store.receive(.imagesLoaded(.success(loaded)))
    await store.receive(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 200))
    }
  }

  func testEachPickedImageIsScoredWhileTheUploadGoesOn() async {
    let clock = TestClock()
    let store = store(clock: clock) { items in
      try await clock.sleep(for: .seconds(2))  // a slow upload
      return items.map { MediaID("media-\($0.fileURL.lastPathComponent)") }
    }
    let ids: [MediaID] = ["media-sunset.jpg", "media-edited.jpg"]

    await pickAndStartUpload(store)
    // The upload started without waiting; the scores arrive while it runs.
    await clock.advance(by: .milliseconds(200))
    await store.receive(.analysis(.photoAnalysed(id: 0, .success(.previewOriginal)))) {
      $0.analysis?.photos[id: 0]?.status = .analysed(.previewOriginal)
    }
    await clock.advance(by: .milliseconds(200))
    await store.receive(.analysis(.photoAnalysed(id: 1, .success(.previewEdited)))) {
      $0.analysis?.photos[id: 1]?.status = .analysed(.previewEdited)
    }
    XCTAssertTrue(store.state.isLoading, "still uploading")
    XCTAssertEqual(store.state.analysis?.photos.map(\.status.text), ["Originality 100/100", "Originality 60/100"])

    await clock.advance(by: .milliseconds(1_600))
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    XCTAssertEqual(store.state.analysis?.photos.count, 2, "the scores stay after the upload")
    await store.finish()
  }

  func testAFastUploadFinishesBeforeTheScores() async {
    let clock = TestClock()
    let store = store(clock: clock) { items in items.map { MediaID("media-\($0.fileURL.lastPathComponent)") } }
    let ids: [MediaID] = ["media-sunset.jpg", "media-edited.jpg"]

    await pickAndStartUpload(store)
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))
    await clock.advance(by: .milliseconds(400))
    await store.receive(.analysis(.photoAnalysed(id: 0, .success(.previewOriginal)))) {
      $0.analysis?.photos[id: 0]?.status = .analysed(.previewOriginal)
    }
    await store.receive(.analysis(.photoAnalysed(id: 1, .success(.previewEdited)))) {
      $0.analysis?.photos[id: 1]?.status = .analysed(.previewEdited)
    }
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testLeavingCancelsTheUploadAndTheAnalysis() async {
    let clock = TestClock()
    let store = store(clock: clock) { _ in
      try await clock.sleep(for: .seconds(60))
      return []
    }
    await pickAndStartUpload(store)
    await store.send(.onDisappear) { $0.status = .idle }
    await store.receive(.analysis(.onDisappear)) {
      $0.analysis?.photos[id: 0]?.status = .cancelled
      $0.analysis?.photos[id: 1]?.status = .cancelled
    }
    XCTAssertEqual(clock.sleeperCount, 0, "neither the upload nor the analysis is waiting")
    await clock.advance(by: .seconds(120))
    await store.finish()
  }

  func testARefusedPickIsNotAnalysed() async {
    let store = TestStore(
      initialState: ImageUploadFeature.State(maxCount: 1, mediaType: .profile, analysis: PhotoAnalysisFeature.State())
    ) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    await store.send(.itemsPicked(picked)) {
      $0.status = .failure("You can upload at most 1 image at once; you picked 2.")
    }
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testWithoutAnalysisStateNothingIsAnalysed() async {
    // The default: the photo metadata client is never called (it is unimplemented in tests and would fail).
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = ImmediateClock()
      $0.imageLoader = ImageLoaderClient { _ in [] }
    }
    await store.send(.itemsPicked(picked)) {
      $0.pickedImages = self.picked
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.imagesLoaded(.success([]))) { $0.status = .idle }
    XCTAssertNil(store.state.analysis)
    await store.finish()
  }

  func testTheEmbeddedAnalysisActionsRecordAndReplayAsJSON() throws {
    let actions: [ImageUploadFeature.Action] = [
      .analysis(.photosPicked(picked)), .analysis(.photoAnalysed(id: 0, .success(.previewEdited))),
      .analysis(.photoAnalysed(id: 1, .failure(.invalidImage("the file is empty")))), .analysis(.onDisappear),
    ]
    for action in actions {
      let data = try JSONEncoder().encode(action)
      XCTAssertEqual(try JSONDecoder().decode(ImageUploadFeature.Action.self, from: data), action)
    }
    var state = ImageUploadFeature.State(mediaType: .archive, analysis: analysing)
    XCTAssertEqual(try JSONDecoder().decode(ImageUploadFeature.State.self, from: JSONEncoder().encode(state)), state)
    state.analysis = nil
    let withoutAnalysis = try JSONEncoder().encode(state)
    XCTAssertFalse(
      String(decoding: withoutAnalysis, as: UTF8.self).contains("analysis"), "older logs stay as they were")
    XCTAssertEqual(try JSONDecoder().decode(ImageUploadFeature.State.self, from: withoutAnalysis), state)
  }
}
