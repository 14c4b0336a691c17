import FeatureTestSupport
import Foundation
import Images
import PhotoAnalysis
import Unidirectional
import UnidirectionalTesting
import XCTest

final class PhotoAnalysisFeatureTests: XCTestCase {
  private let picked = ["beach.jpg", "edited.jpg", "notes.txt"].map {
    PickedImage(fileURL: URL(fileURLWithPath: "/photos/\($0)"))
  }
  private let notAnImage = PhotoAnalysisError.invalidImage("no JPEG, PNG or TIFF signature (starts with 68 65)")

  /// A fake reader: the beach is an original, the edited photo edited, the text file not an image.
  private var client: PhotoMetadataClient {
    let notAnImage = notAnImage
    return PhotoMetadataClient { url in
      switch url.lastPathComponent {
      case "beach.jpg": return .previewOriginal
      case "edited.jpg": return .previewEdited
      default: throw notAnImage
      }
    }
  }

  private func analysing(_ images: [PickedImage]) -> IdentifiedArrayOf<PhotoAnalysisFeature.Photo> {
    IdentifiedArrayOf(images.enumerated().map { PhotoAnalysisFeature.Photo(id: $0.offset, image: $0.element) })
  }

  func testEachPhotoGetsItsReportOrItsErrorInPickOrder() async {
    let calls = Recorder<String>()
    let client = client
    let store = TestStore(initialState: PhotoAnalysisFeature.State()) {
      PhotoAnalysisFeature()
    } withDependencies: {
      $0.photoMetadata.analyze = { url in
        calls.append(url.lastPathComponent)
        return try await client.analyze(url)
      }
    }

    await store.send(.photosPicked(picked)) { $0.photos = self.analysing(self.picked) }
    XCTAssertTrue(store.state.isAnalysing)
    XCTAssertEqual(store.state.photos.map(\.status.text), ["Analysing…", "Analysing…", "Analysing…"])
    await store.receive(.photoAnalysed(id: 0, .success(.previewOriginal))) {
      $0.photos[id: 0]?.status = .analysed(.previewOriginal)
    }
    await store.receive(.photoAnalysed(id: 1, .success(.previewEdited))) {
      $0.photos[id: 1]?.status = .analysed(.previewEdited)
    }
    await store.receive(.photoAnalysed(id: 2, .failure(notAnImage))) {
      $0.photos[id: 2]?.status = .failed(self.notAnImage)
    }
    XCTAssertFalse(store.state.isAnalysing)
    XCTAssertEqual(
      store.state.photos.map(\.status.text),
      [
        "Originality 100/100", "Originality 60/100",
        "✗ Not an image: no JPEG, PNG or TIFF signature (starts with 68 65)",
      ])
    XCTAssertEqual(calls.values, ["beach.jpg", "edited.jpg", "notes.txt"], "one read per photo, in order")
    await store.finish()
  }

  func testAnEmptyPickChangesNothing() async {
    let store = TestStore(initialState: PhotoAnalysisFeature.State()) { PhotoAnalysisFeature() }
    await store.send(.photosPicked([]))
    await store.finish()
  }

  func testANewPickCancelsTheAnalysisInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: PhotoAnalysisFeature.State()) {
      PhotoAnalysisFeature()
    } withDependencies: {
      $0.clock = clock
      $0.photoMetadata = .preview  // 200 ms each on the clock
    }
    let first = Array(picked.prefix(2))
    let second = [PickedImage(fileURL: URL(fileURLWithPath: "/photos/stripped.jpg"))]

    await store.send(.photosPicked(first)) { $0.photos = self.analysing(first) }
    await clock.advance(by: .milliseconds(200))
    await store.receive(.photoAnalysed(id: 0, .success(.previewOriginal))) {
      $0.photos[id: 0]?.status = .analysed(.previewOriginal)
    }
    await clock.advance(by: .milliseconds(100))
    await store.send(.photosPicked(second)) { $0.photos = self.analysing(second) }
    // The first pick's second photo would have been done at 400 ms; only the new one is.
    await clock.advance(by: .milliseconds(200))
    await store.receive(.photoAnalysed(id: 0, .success(.previewStripped))) {
      $0.photos[id: 0]?.status = .analysed(.previewStripped)
    }
    XCTAssertEqual(store.state.photos[id: 0]?.status.text, "Originality 30/100")
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  func testLeavingCancelsAndMarksThePhotosNotYetAnalysed() async {
    let clock = TestClock()
    let store = TestStore(initialState: PhotoAnalysisFeature.State()) {
      PhotoAnalysisFeature()
    } withDependencies: {
      $0.clock = clock
      $0.photoMetadata = .preview
    }
    await store.send(.photosPicked(picked)) { $0.photos = self.analysing(self.picked) }
    await clock.advance(by: .milliseconds(200))
    await store.receive(.photoAnalysed(id: 0, .success(.previewOriginal))) {
      $0.photos[id: 0]?.status = .analysed(.previewOriginal)
    }
    await store.send(.onDisappear) {
      $0.photos[id: 1]?.status = .cancelled
      $0.photos[id: 2]?.status = .cancelled
    }
    XCTAssertEqual(clock.sleeperCount, 0, "the analysis is no longer waiting")
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  func testAResultForAPhotoNoLongerAnalysingChangesNothing() async {
    let image = picked[0]
    let store = TestStore(
      initialState: PhotoAnalysisFeature.State(photos: [
        PhotoAnalysisFeature.Photo(id: 0, image: image, status: .cancelled)
      ])
    ) { PhotoAnalysisFeature() }
    await store.send(.photoAnalysed(id: 0, .success(.previewEdited)))
    await store.send(.photoAnalysed(id: 7, .success(.previewEdited)))
    await store.finish()
  }

  func testAnUnexpectedErrorIsShownAsAMetadataFailure() async {
    struct DiskOnFire: Error {}
    let store = TestStore(initialState: PhotoAnalysisFeature.State()) {
      PhotoAnalysisFeature()
    } withDependencies: {
      $0.photoMetadata.analyze = { _ in throw DiskOnFire() }
    }
    let image = [picked[0]]
    await store.send(.photosPicked(image)) { $0.photos = self.analysing(image) }
    await store.receive(.photoAnalysed(id: 0, .failure(.metadataExtractionFailed("DiskOnFire()")))) {
      $0.photos[id: 0]?.status = .failed(.metadataExtractionFailed("DiskOnFire()"))
    }
    await store.finish()
  }

  func testTheLiveClientReadsRealPhotos() async throws {
    let images = ["r_sony.jpg", "02.jpg", "notjpeg.jpg"].map { PickedImage(fileURL: PhotoFixtures.piexif($0)) }
    let store = TestStore(initialState: PhotoAnalysisFeature.State()) {
      PhotoAnalysisFeature()
    } withDependencies: {
      $0.photoMetadata = .live
    }
    store.timeout = .seconds(10)
    let sony = PhotoAnalysisReport(metadata: try PhotoMetadataReader.read(fileAt: images[0].fileURL))
    let gimp = PhotoAnalysisReport(metadata: try PhotoMetadataReader.read(fileAt: images[1].fileURL))
    await store.send(.photosPicked(images)) { $0.photos = self.analysing(images) }
    await store.receive(.photoAnalysed(id: 0, .success(sony))) { $0.photos[id: 0]?.status = .analysed(sony) }
    await store.receive(.photoAnalysed(id: 1, .success(gimp))) { $0.photos[id: 1]?.status = .analysed(gimp) }
    await store.receive(.photoAnalysed(id: 2, .failure(.invalidImage("the file is empty")))) {
      $0.photos[id: 2]?.status = .failed(.invalidImage("the file is empty"))
    }
    XCTAssertEqual(sony.score, 100)
    XCTAssertEqual(gimp.score, 60)
    XCTAssertEqual(gimp.flags.first, PhotoFlag(.edited, "GIMP 2.6.11"))
    await store.finish()
  }

  func testActionsRoundTripThroughJSON() throws {
    let actions: [PhotoAnalysisFeature.Action] = [
      .photosPicked(picked), .photoAnalysed(id: 1, .success(.previewOriginal)),
      .photoAnalysed(id: 2, .failure(notAnImage)), .onDisappear,
    ]
    for action in actions {
      let data = try JSONEncoder().encode(action)
      XCTAssertEqual(try JSONDecoder().decode(PhotoAnalysisFeature.Action.self, from: data), action)
    }
    let state = PhotoAnalysisFeature.State(photos: analysing(picked))
    XCTAssertEqual(try JSONDecoder().decode(PhotoAnalysisFeature.State.self, from: JSONEncoder().encode(state)), state)
  }
}
