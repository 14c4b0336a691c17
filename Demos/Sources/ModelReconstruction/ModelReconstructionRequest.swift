import CaptureSession
import Foundation

/// What to reconstruct: the shots of a completed capture, and where the model file goes.
///
/// ```swift
/// let request = ModelReconstructionRequest(
///   shots: shots, outputURL: folder.appendingPathComponent("model-1.usdz"))
/// ```
public struct ModelReconstructionRequest: Hashable, Sendable, Codable {
  /// The shots, in capture order.
  public var shots: [CaptureShot]
  /// The model file to write (replaced if it exists; its folder is created).
  public var outputURL: URL

  /// A request to build a model of `shots` at `outputURL`.
  public init(shots: [CaptureShot], outputURL: URL) {
    self.shots = shots
    self.outputURL = outputURL
  }
}
