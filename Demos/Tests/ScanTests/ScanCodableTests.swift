import CaptureSession
import FeatureTestSupport
import Foundation
import HTTPClient
import ImageUpload
import Images
import ModelReconstruction
import Scan
import XCTest

/// The scan's state and actions survive JSON (what an action log writes and replays), every case of them.
final class ScanCodableTests: XCTestCase {
  private func roundTrip<Value: Codable & Equatable>(_ value: Value, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    let data = try JSONEncoder().encode(value)
    XCTAssertEqual(try JSONDecoder().decode(Value.self, from: data), value, file: file, line: line)
  }

  func testEveryScanActionRoundTrips() throws {
    let model = ScanFixtures.model(
      for: ModelReconstructionRequest(shots: ScanFixtures.shots, outputURL: ScanFixtures.firstModelURL))
    let progress = ModelReconstructionProgress(completedSteps: 1, totalSteps: 4)
    let actions: [ScanFeature.Action] = [
      .capture(.start),
      .capture(.sessionEvent(.stateChanged(.failed(reason: "No light")))),
      .capture(.sessionEvent(.shotCaptured(CaptureFixtures.shot(1)))),
      .capture(.sessionEventsEnded),
      .capture(.sessionEventsFailed(.notEnoughShots(folder: "/p", available: 1, needed: 2))),
      .capture(.cancelTapped), .capture(.createModelTapped), .capture(.released),
      .capture(.delegate(.createModel(ScanFixtures.shots))),
      .reconstructionProgressed(progress), .reconstructionSucceeded(model),
      .reconstructionFailed(.unreadableShot(path: "/a.png", reason: "gone")), .reconstructionFailed(.cancelled),
      .retryReconstructionTapped, .cancelReconstructionTapped, .uploadTapped, .onDisappear,
      .upload(.itemsPicked([PickedImage(fileURL: URL(fileURLWithPath: "/p/a.jpg"))])),
      .upload(
        .imagesLoaded(
          .success([LoadedImage(fileURL: URL(fileURLWithPath: "/p/a.jpg"), contentType: "image/jpeg", byteCount: 3)]))),
      .upload(.imagesLoaded(.failure(.unsupportedImage(path: "/p/a.txt")))),
      .upload(.uploadRequested([ScanFixtures.item(model)])),
      .upload(.uploadProgressed(UploadProgress(completedBytes: 1, totalBytes: 2))),
      .upload(.uploadCompleted(["m1"])), .upload(.uploadFailed(.http(.httpStatus(413, message: "too large")))),
      .upload(.statusCleared), .upload(.onDisappear), .upload(.delegate(.uploadCompleted(["m1"]))),
      .upload(.delegate(.uploadFailed(.http(.cancelled)))),
    ]
    for action in actions { try roundTrip(action) }
  }

  func testAScanInEveryStageRoundTrips() throws {
    let model = ScanFixtures.model(
      for: ModelReconstructionRequest(shots: ScanFixtures.shots, outputURL: ScanFixtures.firstModelURL))
    var state = ScanFeature.State(workingDirectory: ScanFixtures.folder)
    try roundTrip(state)
    state.capture?.session = .capturing
    state.capture?.shots = ScanFixtures.shots
    state.capture?.refusal = CaptureSessionTransitionError(state: .capturing, event: .stateChanged(.ready))
    try roundTrip(state)
    state.capture = nil
    state.model = .reconstructing(ModelReconstructionProgress(completedSteps: 2, totalSteps: 4))
    try roundTrip(state)
    state.model = .ready(model)
    state.upload.status = .uploading(UploadProgress(completedBytes: 5, totalBytes: 10))
    try roundTrip(state)
    state.upload.status = .success(["m1"])
    state.uploadedModelID = "m1"
    try roundTrip(state)
    state.model = .failed("no")
    state.upload.status = .failure("offline")
    try roundTrip(state)
  }

  func testAFailedImageLoadIsWrittenUnderItsOwnName() throws {
    let json = String(
      decoding: try JSONEncoder().encode(ImageUploadFeature.Action.imagesLoaded(.failure(.http(.cancelled)))),
      as: UTF8.self)
    XCTAssertTrue(json.contains("imagesFailedToLoad"), json)
  }
}
