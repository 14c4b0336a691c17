import CaptureSession
import FeatureTestSupport
import Foundation
import ImageUpload
import ModelReconstruction
import Scan

enum ScanFixtures {
  static let folder = URL(fileURLWithPath: "/scan", isDirectory: true)
  static let shots = [CaptureFixtures.shot(1), CaptureFixtures.shot(2)]
  /// Where the first model goes with an incrementing UUID generator.
  static let firstModelURL = URL(fileURLWithPath: "/scan/model-00000000-0000-0000-0000-000000000000.usdz")
  static let secondModelURL = URL(fileURLWithPath: "/scan/model-00000000-0000-0000-0000-000000000001.usdz")

  /// What the fake reconstruction returns for `request`.
  static func model(for request: ModelReconstructionRequest) -> ReconstructedModel {
    ReconstructedModel(
      fileURL: request.outputURL, byteCount: 4_096, shotCount: request.shots.count,
      entryCount: request.shots.count + 1, sha256: "5ca1ab1e")
  }

  /// The upload item the scan makes of `model`.
  static func item(_ model: ReconstructedModel) -> UploadItem {
    UploadItem(fileURL: model.fileURL, contentType: "model/vnd.usdz+zip", fileExtension: "usdz", byteCount: 4_096)
  }

  /// A scan whose capture completed with `shots`, `createModelTapped` not sent yet.
  static func completedCapture(shots: [CaptureShot] = shots) -> ScanFeature.State {
    var state = ScanFeature.State(workingDirectory: folder)
    state.capture?.session = .completed
    state.capture?.shots = shots
    state.capture?.hasStarted = true
    return state
  }
}
