import Archive
import FeatureTestSupport
import Foundation
import HTTPClient
import ImageUpload
import Unidirectional
import UnidirectionalTesting
import XCTest

final class ArchiveFeatureTests: XCTestCase {
  func testTheArchiveKeepsTheIDsOfEveryUploadAndTheLastFailure() async {
    let clock = TestClock()
    let picked = UploadFixtures.picked
    let items = picked.map(UploadFixtures.loaded).map(UploadItem.init)
    let ids = items.map(UploadFixtures.mediaID)
    let failure = ImageUploadError.http(.cannotConnect(host: "127.0.0.1:9"))
    let attempts = Recorder<MediaType>()
    let store = TestStore(initialState: ArchiveFeature.State(mediaIDs: ["media-old"])) {
      ArchiveFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageLoader = UploadFixtures.loader
      $0.imageUploadClient.upload = { items, mediaType, _ in
        attempts.append(mediaType)
        if attempts.values.count == 1 { throw failure }
        return items.map(UploadFixtures.mediaID)
      }
    }

    await store.send(.upload(.uploadRequested(items))) {
      $0.upload.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.receive(.upload(.uploadFailed(failure))) { $0.upload.status = .failure(failure.description) }
    await store.receive(.upload(.delegate(.uploadFailed(failure)))) { $0.lastFailure = failure.description }

    await store.send(.upload(.itemsPicked(picked))) {
      $0.upload.pickedImages = picked
      $0.upload.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
    }
    await store.receive(.upload(.imagesLoaded(.success(picked.map(UploadFixtures.loaded)))))
    await store.receive(.upload(.uploadRequested(items))) {
      $0.upload.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 300))
    }
    await store.receive(.upload(.uploadCompleted(ids))) { $0.upload.status = .success(ids) }
    await store.receive(.upload(.delegate(.uploadCompleted(ids)))) {
      $0.mediaIDs = ["media-old"] + ids
      $0.lastFailure = nil
    }
    XCTAssertEqual(attempts.values, [.archive, .archive])

    await clock.advance(by: .seconds(3))
    await store.receive(.upload(.statusCleared)) { $0.upload.status = .idle }
    await store.finish()
  }

  func testTheArchiveSetsTheUploadersLimitAndMediaType() {
    let state = ArchiveFeature.State(maxImagesPerUpload: 4)
    XCTAssertEqual(state.upload.maxCount, 4)
    XCTAssertEqual(state.upload.mediaType, .archive)
    XCTAssertEqual(ArchiveFeature.State().upload.maxCount, 10)
  }
}
