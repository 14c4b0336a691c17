import FeatureTestSupport
import Foundation
import Gallery
import HTTPClient
import ImageUpload
import Images
import Unidirectional
import UnidirectionalTesting
import XCTest

final class GalleryFeatureTests: XCTestCase {
  private let kite = GalleryItem(id: "m-kite", fileURL: URL(fileURLWithPath: "/photos/kite.png"))
  private let cat = GalleryItem(id: "m-cat", fileURL: URL(fileURLWithPath: "/photos/cat.png"))
  private let picked = UploadFixtures.picked
  private var uploadItems: [UploadItem] { picked.map(UploadFixtures.loaded).map(UploadItem.init) }
  private let uploadedIDs: [MediaID] = ["media-sunset", "media-cat", "media-beach"]

  // MARK: The upload sheet

  func testUploadingFromTheSheetAddsTheItemsInPickOrderAndDismissesTheSheet() async {
    let clock = TestClock()
    let store = TestStore(initialState: GalleryFeature.State(items: [kite])) {
      GalleryFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { items, _, _ in items.map(UploadFixtures.mediaID) }
    }
    await store.send(.uploadTapped) {
      $0.destination = .upload(ImageUploadFeature.State(maxCount: 10, mediaType: .archive))
    }
    await store.send(.destination(.presented(.upload(.itemsPicked(picked))))) {
      $0.destination = .upload(
        ImageUploadFeature.State(
          maxCount: 10, mediaType: .archive, pickedImages: self.picked,
          status: .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))))
    }
    await store.receive(.destination(.presented(.upload(.imagesLoaded(.success(picked.map(UploadFixtures.loaded)))))))
    await store.receive(.destination(.presented(.upload(.uploadRequested(uploadItems))))) {
      $0.$destination[case: GalleryFeature.Destination.State.uploadCase]?.status =
        .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.receive(.destination(.presented(.upload(.uploadCompleted(uploadedIDs))))) {
      $0.$destination[case: GalleryFeature.Destination.State.uploadCase]?.status = .success(self.uploadedIDs)
    }
    await store.receive(.destination(.presented(.upload(.delegate(.uploadCompleted(uploadedIDs)))))) {
      $0.destination = nil
      for (id, image) in zip(self.uploadedIDs, self.picked) {
        $0.rows.append(GalleryRowFeature.State(item: GalleryItem(id: id, fileURL: image.fileURL)))
      }
    }
    XCTAssertEqual(store.state.items.map(\.name), ["kite.png", "sunset.jpg", "cat.png", "beach.heic"])
    // The sheet's 3-second status timer went away with the sheet: nothing is left to wait for.
    XCTAssertEqual(clock.sleeperCount, 0)
    await store.finish()
  }

  func testDismissingTheSheetMidUploadCancelsTheUpload() async {
    let clock = TestClock()
    let events = Recorder<String>()
    let store = TestStore(initialState: GalleryFeature.State()) {
      GalleryFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient = UploadFixtures.uploadWaitingForCancellation(on: clock, events: events)
    }
    await store.send(.uploadTapped) {
      $0.destination = .upload(ImageUploadFeature.State(maxCount: 10, mediaType: .archive))
    }
    await store.send(.destination(.presented(.upload(.uploadRequested(uploadItems))))) {
      $0.$destination[case: GalleryFeature.Destination.State.uploadCase]?.status =
        .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    XCTAssertEqual(events.values, ["started"])
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    XCTAssertEqual(events.values, ["started", "cancelled"])
    XCTAssertEqual(clock.sleeperCount, 0)
    await store.finish()
  }

  func testAFailedUploadKeepsTheSheetOpenWithTheReason() async {
    let clock = TestClock()
    let store = TestStore(initialState: GalleryFeature.State()) {
      GalleryFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageUploadClient.upload = { _, _, _ in throw ImageUploadError.http(.notConfigured("no server")) }
    }
    await store.send(.uploadTapped) {
      $0.destination = .upload(ImageUploadFeature.State(maxCount: 10, mediaType: .archive))
    }
    await store.send(.destination(.presented(.upload(.uploadRequested(uploadItems))))) {
      $0.$destination[case: GalleryFeature.Destination.State.uploadCase]?.status =
        .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    let error = ImageUploadError.http(.notConfigured("no server"))
    await store.receive(.destination(.presented(.upload(.uploadFailed(error))))) {
      $0.$destination[case: GalleryFeature.Destination.State.uploadCase]?.status = .failure(error.description)
    }
    await store.receive(.destination(.presented(.upload(.delegate(.uploadFailed(error))))))
    XCTAssertTrue(store.state.rows.isEmpty)
    // Closing the sheet takes its pending status timer with it.
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
  }

  func testAHostDrivesTheSheetThroughAScopedStore() async {
    let store = Store(initialState: GalleryFeature.State()) {
      GalleryFeature()
    } withDependencies: {
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { items, _, _ in items.map(UploadFixtures.mediaID) }
    }
    XCTAssertNil(store.scope(state: \.destination?.upload, action: { .destination(.presented(.upload($0))) }))
    store.send(.uploadTapped)
    guard
      let sheet = store.scope(state: \.destination?.upload, action: { .destination(.presented(.upload($0))) })
    else { return XCTFail("the upload sheet is presented") }
    await sheet.send(.itemsPicked(picked)).finish()
    XCTAssertNil(store.destination, "the sheet dismissed itself once the upload was done")
    XCTAssertEqual(store.items.map(\.id), uploadedIDs)
  }

  // MARK: The detail screen

  func testTappingARowPushesItsDetailWhichLoadsAndClosesItself() async {
    let store = TestStore(initialState: GalleryFeature.State(items: [kite, cat])) {
      GalleryFeature()
    } withDependencies: {
      $0.imageLoader = UploadFixtures.loader
    }
    await store.send(.row(id: cat.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.cat)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.onAppear))))
    let loaded = UploadFixtures.loaded(PickedImage(fileURL: cat.fileURL))
    await store.receive(.path(.element(id: 0, action: .detail(.infoLoaded(.success(loaded)))))) {
      $0.path[id: 0, case: GalleryFeature.Path.State.detailCase]?.info = .loaded(
        contentType: "image/png", byteCount: 100)
    }
    XCTAssertEqual(
      store.state.path[id: 0, case: GalleryFeature.Path.State.detailCase]?.info.text, "image/png, 100 bytes")
    await store.send(.path(.element(id: 0, action: .detail(.closeTapped))))
    await store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  }

  func testPoppingTheDetailWhileItLoadsCancelsTheLoading() async {
    let clock = TestClock()
    let events = Recorder<String>()
    let store = TestStore(initialState: GalleryFeature.State(items: [kite])) {
      GalleryFeature()
    } withDependencies: {
      $0.imageLoader.load = { images in
        do {
          try await clock.sleep(for: .seconds(5))
        } catch {
          events.append(error is CancellationError ? "cancelled" : "failed")
          throw error
        }
        return images.map(UploadFixtures.loaded)
      }
    }
    await store.send(.row(id: kite.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.kite)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.onAppear))))
    await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    XCTAssertEqual(events.values, ["cancelled"])
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  func testAnUnreadableImageShowsWhy() async {
    let store = TestStore(initialState: GalleryFeature.State(items: [kite])) {
      GalleryFeature()
    } withDependencies: {
      $0.imageLoader.load = { images in
        throw ImageUploadError.unreadableFile(path: images[0].fileURL.path, reason: "gone")
      }
    }
    await store.send(.row(id: kite.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.kite)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.onAppear))))
    let error = ImageUploadError.unreadableFile(path: "/photos/kite.png", reason: "gone")
    await store.receive(.path(.element(id: 0, action: .detail(.infoLoaded(.failure(error)))))) {
      $0.path[id: 0, case: GalleryFeature.Path.State.detailCase]?.info = .failed(error.description)
    }
    XCTAssertTrue(store.state.path[id: 0]?.item == kite)
  }

  // MARK: Deleting

  func testConfirmingADeletionRemovesTheItemPopsItsScreenAndTheDialogGoesAway() async {
    let store = TestStore(initialState: GalleryFeature.State(items: [kite, cat])) { GalleryFeature() }
    await store.send(.row(id: kite.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.kite)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.deleteTapped))))
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.deleteRequested(kite)))))) {
      $0.destination = .confirmDelete(GalleryFeature.confirmDeletion(of: self.kite))
    }
    XCTAssertEqual(
      GalleryFeature.confirmDeletion(of: kite).buttons.map(\.label), ["Delete", "Cancel"])
    await store.send(.destination(.presented(.confirmDelete(.confirm(kite.id))))) {
      $0.destination = nil
      $0.rows.remove(id: self.kite.id)
      $0.path.removeAll()
    }
    XCTAssertEqual(store.state.items, [cat])
  }

  func testCancellingTheDialogKeepsEverything() async {
    let store = TestStore(initialState: GalleryFeature.State(items: [kite])) { GalleryFeature() }
    await store.send(.row(id: kite.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.kite)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.deleteTapped))))
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.deleteRequested(kite)))))) {
      $0.destination = .confirmDelete(GalleryFeature.confirmDeletion(of: self.kite))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    XCTAssertEqual(store.state.items, [kite])
    XCTAssertEqual(store.state.path.count, 1)
  }

  func testDeletingAnItemPopsItsScreenAndEveryScreenAboveItWithTheirEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: GalleryFeature.State(items: [kite, cat])) {
      GalleryFeature()
    } withDependencies: {
      $0.imageLoader.load = { images in
        try await clock.sleep(for: .seconds(5))
        return images.map(UploadFixtures.loaded)
      }
    }
    await store.send(.row(id: kite.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.kite)))
    }
    await store.send(.row(id: cat.id, action: .tapped)) {
      $0.path.append(.detail(GalleryDetailFeature.State(item: self.cat)))
    }
    await store.send(.path(.element(id: 1, action: .detail(.onAppear))))
    await store.send(.path(.element(id: 0, action: .detail(.deleteTapped))))
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.deleteRequested(kite)))))) {
      $0.destination = .confirmDelete(GalleryFeature.confirmDeletion(of: self.kite))
    }
    await store.send(.destination(.presented(.confirmDelete(.confirm(kite.id))))) {
      $0.destination = nil
      $0.rows.remove(id: self.kite.id)
      $0.path.removeAll()
    }
    // The cat's screen was above the kite's: popped too, and its loading cancelled.
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  func testARowMarksItsItemAsAFavorite() async {
    let store = TestStore(initialState: GalleryFeature.State(items: [kite])) { GalleryFeature() }
    await store.send(.row(id: kite.id, action: .favoriteTapped)) { $0.rows[id: self.kite.id]?.item.isFavorite = true }
    await store.send(.row(id: kite.id, action: .favoriteTapped)) { $0.rows[id: self.kite.id]?.item.isFavorite = false }
  }

  func testAnActionForARowThatIsGoneIsARuntimeIssue() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: GalleryFeature.State(items: [kite]), reducer: { GalleryFeature() }, reporter: failures.reporter)
    await store.send(.row(id: cat.id, action: .favoriteTapped))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("missing element"), failures.messages[0])
  }
}
