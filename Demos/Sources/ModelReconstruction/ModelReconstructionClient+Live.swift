import CaptureSession
import Foundation
import Unidirectional

extension ModelReconstructionClient {
  /// Writes a real USDZ package of the shots: ``USDASceneLayer`` first, then every shot as
  /// `textures/shot-001.<ext>`, … — one progress step for the scene, one per shot and one to finish the file.
  ///
  /// With a `stepDuration`, each step first waits that long on the injected clock (simulated processing time).
  /// Cancellation stops between steps, removes the unfinished file and throws `CancellationError`.
  ///
  /// ```swift
  /// $0.modelReconstruction = .simulator(stepDuration: .milliseconds(60))
  /// ```
  public static func simulator(stepDuration: Duration = .zero) -> ModelReconstructionClient {
    ModelReconstructionClient { request, progress in
      @Dependency(\.clock) var clock
      guard !request.shots.isEmpty else { throw ModelReconstructionError.noShots }
      let names = request.shots.enumerated().map { Self.entryName(number: $0.offset + 1, of: $0.element) }
      let totalSteps = request.shots.count + 2
      func work() async throws {
        try Task.checkCancellation()
        if stepDuration > .zero { try await clock.sleep(for: stepDuration) }
      }

      let writer = try USDZWriter(url: request.outputURL)
      do {
        try await work()
        try writer.add(name: USDASceneLayer.fileName, data: Data(USDASceneLayer(shotPaths: names).text.utf8))
        progress(ModelReconstructionProgress(completedSteps: 1, totalSteps: totalSteps))
        for (index, shot) in request.shots.enumerated() {
          try await work()
          try writer.add(name: names[index], contentsOf: shot.fileURL)
          progress(ModelReconstructionProgress(completedSteps: index + 2, totalSteps: totalSteps))
        }
        try await work()
        let size = try writer.finish()
        let digest: SHA256.Digest
        do {
          digest = try SHA256.hash(fileAt: request.outputURL)
        } catch {
          throw ModelReconstructionError.cannotWrite(path: request.outputURL.path, reason: "it cannot be read back")
        }
        progress(ModelReconstructionProgress(completedSteps: totalSteps, totalSteps: totalSteps))
        return ReconstructedModel(
          fileURL: request.outputURL, byteCount: size, shotCount: request.shots.count,
          entryCount: writer.entries.count, sha256: digest.hex)
      } catch is CancellationError {
        writer.abandon()
        throw CancellationError()
      } catch {
        writer.abandon()
        throw ModelReconstructionError(error)
      }
    }
  }

  /// `textures/shot-001.png`: the shot's position in the request (from 1) and its file's extension (kept only if
  /// short and ASCII alphanumeric, else `img`).
  static func entryName(number: Int, of shot: CaptureShot) -> String {
    let fileExtension = shot.fileURL.pathExtension.lowercased()
    let isSafe =
      (1...5).contains(fileExtension.count) && fileExtension.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    let safe = isSafe ? fileExtension : "img"
    let number = String(number)
    return "textures/shot-" + String(repeating: "0", count: max(0, 3 - number.count)) + number + "." + safe
  }
}
