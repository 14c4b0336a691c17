// swift-format-ignore-file
// Written by `demo replay scan-demo.jsonl --emit-test ScanDemoSessionTests.swift` from a recording of the demo's
// default run (`demo --record scan-demo.jsonl`). Regenerate it rather than edit it: see ScanDemoRun.swift.

import CaptureSession
import Foundation
import HTTPClient
import ImageUpload
import ModelReconstruction
import Scan
import Testing
import Unidirectional
import UnidirectionalTesting

@Test func scanDemoSession() async throws {
  try await scanDemoSessionSteps(reducer: ScanFeature())
}

/// The recorded steps, run against `reducer`: the reducer that recorded them in the test above, a changed one
/// in other tests (which then fail at the first step that differs).
func scanDemoSessionSteps(
  reducer: some Reducer<ScanFeature.State, ScanFeature.Action>, reporter: TestReporter = .automatic
) async throws {
  let folder = try ScanDemoRun.makeFolder()
  defer { ScanDemoRun.remove(folder) }
  let clock = TestClock()
  let initialState = try recordedInitialState(
    of: reducer,
    json: #"""
      {
        "capture": {
          "configuration": {
            "imagesDirectory": "file://\#(folder.path)/images/"
          },
          "hasStarted": false,
          "isReleased": false,
          "session": {
            "initializing": {}
          },
          "shots": []
        },
        "model": {
          "notStarted": {}
        },
        "shots": [],
        "upload": {
          "maxCount": 1,
          "mediaType": "model",
          "pickedImages": [],
          "status": {
            "idle": {}
          }
        },
        "workingDirectory": "file://\#(folder.path)/"
      }
      """#)
  let store = TestStore(
    initialState: initialState, reducer: { reducer },
    withDependencies: {
      $0.clock = clock
      $0.uuid = .sequence([
        UUID(uuidString: "7B538421-C198-4917-B210-470BE3BA8D3C")!,
        UUID(uuidString: "6F155421-7B33-4723-8B94-F2729CFEEE93")!,
      ])
      ScanDemoRun.prepare(&$0)
    }, reporter: reporter)
  store.timeout = .seconds(30)

  await clock.advance(by: .milliseconds(10))
  await store.send(.capture(.start)) { $0.capture?.hasStarted = true }
  await clock.advance(by: .milliseconds(202))
  await store.receive(.capture(.sessionEvent(.stateChanged(.ready)))) { $0.capture?.session = .ready }
  await clock.advance(by: .milliseconds(200))
  await store.receive(.capture(.sessionEvent(.stateChanged(.detecting)))) { $0.capture?.session = .detecting }
  await clock.advance(by: .milliseconds(200))
  await store.receive(.capture(.sessionEvent(.stateChanged(.capturing)))) { $0.capture?.session = .capturing }
  await clock.advance(by: .milliseconds(106))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 1, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-001.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 1, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-001.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(108))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 2, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-002.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 2, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-002.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(116))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 3, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-003.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 3, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-003.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(111))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 4, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-004.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 4, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-004.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(102))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 5, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-005.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 5, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-005.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(103))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 6, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-006.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 6, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-006.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(113))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 7, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-007.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 7, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-007.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(104))
  await store.receive(.capture(.sessionEvent(.shotCaptured(CaptureShot(number: 8, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-008.png"), byteCount: 20_876))))) {
    $0.capture?.shots.append(CaptureShot(number: 8, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-008.png"), byteCount: 20_876))
  }
  await clock.advance(by: .milliseconds(200))
  await store.receive(.capture(.sessionEvent(.stateChanged(.finishing)))) { $0.capture?.session = .finishing }
  await clock.advance(by: .milliseconds(201))
  await store.receive(.capture(.sessionEvent(.stateChanged(.completed)))) { $0.capture?.session = .completed }
  await store.send(.capture(.createModelTapped))
  await store.receive(.capture(.delegate(.createModel([
    CaptureShot(number: 1, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-001.png"), byteCount: 20_876),
    CaptureShot(number: 2, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-002.png"), byteCount: 20_876),
    CaptureShot(number: 3, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-003.png"), byteCount: 20_876),
    CaptureShot(number: 4, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-004.png"), byteCount: 20_876),
    CaptureShot(number: 5, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-005.png"), byteCount: 20_876),
    CaptureShot(number: 6, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-006.png"), byteCount: 20_876),
    CaptureShot(number: 7, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-007.png"), byteCount: 20_876),
    CaptureShot(number: 8, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-008.png"), byteCount: 20_876),
  ])))) {
    $0.capture = nil
    $0.shots = [
      CaptureShot(number: 1, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-001.png"), byteCount: 20_876),
      CaptureShot(number: 2, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-002.png"), byteCount: 20_876),
      CaptureShot(number: 3, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-003.png"), byteCount: 20_876),
      CaptureShot(number: 4, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-004.png"), byteCount: 20_876),
      CaptureShot(number: 5, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-005.png"), byteCount: 20_876),
      CaptureShot(number: 6, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-006.png"), byteCount: 20_876),
      CaptureShot(number: 7, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-007.png"), byteCount: 20_876),
      CaptureShot(number: 8, fileURL: URL(fileURLWithPath: "\(folder.path)/images/shot-008.png"), byteCount: 20_876),
    ]
    $0.model = .reconstructing(.starting)
  }
  await clock.advance(by: .milliseconds(62))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 1, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 1, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(61))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 2, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 2, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(68))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 3, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 3, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(61))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 4, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 4, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(61))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 5, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 5, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(61))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 6, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 6, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(61))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 7, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 7, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(61))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 8, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 8, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(60))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 9, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 9, totalSteps: 10))
  }
  await clock.advance(by: .milliseconds(90))
  await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 10, totalSteps: 10))) {
    $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 10, totalSteps: 10))
  }
  await store.receive(.reconstructionSucceeded(ReconstructedModel(fileURL: URL(fileURLWithPath: "\(folder.path)/model-7b538421-c198-4917-b210-470be3ba8d3c.usdz"), byteCount: 169_586, contentType: "model/vnd.usdz+zip", shotCount: 8, entryCount: 9, sha256: "7355144f40b10cef12d9658d4c4eb9aad6afce44573c838fa31e306ec99a42fc"))) {
    $0.model = .ready(ReconstructedModel(fileURL: URL(fileURLWithPath: "\(folder.path)/model-7b538421-c198-4917-b210-470be3ba8d3c.usdz"), byteCount: 169_586, contentType: "model/vnd.usdz+zip", shotCount: 8, entryCount: 9, sha256: "7355144f40b10cef12d9658d4c4eb9aad6afce44573c838fa31e306ec99a42fc"))
  }
  await clock.advance(by: .milliseconds(1))
  await store.send(.uploadTapped)
  await store.receive(.upload(.uploadRequested([UploadItem(fileURL: URL(fileURLWithPath: "\(folder.path)/model-7b538421-c198-4917-b210-470be3ba8d3c.usdz"), contentType: "model/vnd.usdz+zip", fileExtension: "usdz", byteCount: 169_586)]))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(101))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 16_959, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 16_959, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(100))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 33_918, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 33_918, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(101))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 50_876, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 50_876, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(100))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 67_835, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 67_835, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(101))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 84_793, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 84_793, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(101))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 101_752, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 101_752, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(100))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 118_711, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 118_711, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(100))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 135_669, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 135_669, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(101))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 152_628, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 152_628, totalBytes: 169_586))
  }
  await clock.advance(by: .milliseconds(100))
  await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 169_586, totalBytes: 169_586)))) {
    $0.upload.status = .uploading(UploadProgress(completedBytes: 169_586, totalBytes: 169_586))
  }
  await store.receive(.upload(.uploadCompleted(["preview-6f155421-7b33-4723-8b94-f2729cfeee93"]))) {
    $0.upload.status = .success(["preview-6f155421-7b33-4723-8b94-f2729cfeee93"])
  }
  await clock.advance(by: .milliseconds(1))
  await store.receive(.upload(.delegate(.uploadCompleted(["preview-6f155421-7b33-4723-8b94-f2729cfeee93"])))) {
    $0.uploadedModelID = "preview-6f155421-7b33-4723-8b94-f2729cfeee93"
  }
  await store.send(.onDisappear)
  await store.receive(.upload(.onDisappear))
  await store.finish()
}

/// The state the recording started from, decoded as `reducer`'s.
private func recordedInitialState<R: Reducer>(of reducer: R, json: String) throws -> R.State
where R.State: Decodable {
  try fromJSON(json)
}

/// A value written as its recorded JSON: its type's initializers are not known to the writer.
private func fromJSON<T: Decodable>(_ json: String) throws -> T {
  try JSONDecoder().decode(T.self, from: Data(json.utf8))
}
