import Foundation
import Unidirectional

/// Makes a 3D model file from the shots of a completed capture: the dependency the scan flow reconstructs with.
///
/// Progress is reported through the callback while `reconstruct` runs, never after it returns or throws. Errors
/// are ``ModelReconstructionError``s. On Linux both the live and the preview value are the simulator
/// (``ModelReconstructionClient/simulator(stepDuration:)``), which writes a real USDZ package of the shots.
///
/// ```swift
/// // In a test:
/// $0.modelReconstruction.reconstruct = { request, progress in
///   progress(ModelReconstructionProgress(completedSteps: 1, totalSteps: 1))
///   return ReconstructedModel(fileURL: request.outputURL, byteCount: 10, shotCount: 2, entryCount: 3, sha256: "ab")
/// }
/// ```
public struct ModelReconstructionClient: Sendable {
  /// Receives progress while a reconstruction runs.
  public typealias ProgressHandler = @Sendable (ModelReconstructionProgress) -> Void

  /// Builds the model `request` describes, reporting progress.
  public var reconstruct:
    @Sendable (_ request: ModelReconstructionRequest, _ progress: @escaping ProgressHandler) async throws ->
      ReconstructedModel

  /// A client that reconstructs with `reconstruct`.
  public init(
    reconstruct:
      @escaping @Sendable (
        _ request: ModelReconstructionRequest, _ progress: @escaping ProgressHandler
      ) async throws -> ReconstructedModel
  ) {
    self.reconstruct = reconstruct
  }

  /// Fails the test that calls it: tests must say what reconstruction does.
  public static let unimplemented = ModelReconstructionClient { _, _ in
    reportIssue("ModelReconstructionClient.reconstruct is unimplemented: override \\.modelReconstruction in this test.")
    throw ModelReconstructionError.notConfigured("ModelReconstructionClient.reconstruct is unimplemented in tests")
  }
}

private enum ModelReconstructionClientKey: DependencyKey {
  static let liveValue = ModelReconstructionClient.simulator()
  static let previewValue = ModelReconstructionClient.simulator(stepDuration: .milliseconds(60))
  static let testValue = ModelReconstructionClient.unimplemented
}

extension DependencyValues {
  /// Builds models from shots: the simulator live (as fast as the disk allows) and in previews (with 60 ms of
  /// simulated work per step on the injected clock); unimplemented in tests until overridden.
  public var modelReconstruction: ModelReconstructionClient {
    get { self[ModelReconstructionClientKey.self] }
    set { self[ModelReconstructionClientKey.self] = newValue }
  }
}
