import Foundation

/// Why a model could not be made, in words the user can read (`description`).
///
/// ```swift
/// do {
///   _ = try await reconstruction.reconstruct(request) { _ in }
/// } catch let error as ModelReconstructionError {
///   print(error)   // "The capture has no shots to build a model from."
/// }
/// ```
public enum ModelReconstructionError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// There are no shots.
  case noShots
  /// A shot cannot be read.
  case unreadableShot(path: String, reason: String)
  /// The model file cannot be written.
  case cannotWrite(path: String, reason: String)
  /// The model would be larger than a plain ZIP archive allows (4 GiB, 65,535 files).
  case tooLarge(String)
  /// A file that should be a model (a USDZ archive) is not one.
  case invalidModelFile(path: String, reason: String)
  /// Reconstruction was cancelled before it finished.
  case cancelled
  /// The client cannot run: an unimplemented test dependency.
  case notConfigured(String)
  /// Another failure, described.
  case failed(String)

  /// Turns any error thrown while reconstructing into a `ModelReconstructionError`.
  public init(_ error: any Error) {
    switch error {
    case let error as ModelReconstructionError: self = error
    case is CancellationError: self = .cancelled
    case let error as CustomStringConvertible: self = .failed(error.description)
    default: self = .failed("unexpected error \(type(of: error))")
    }
  }

  public var description: String {
    switch self {
    case .noShots:
      return "The capture has no shots to build a model from."
    case let .unreadableShot(path, reason):
      return "Cannot read the shot \(Self.name(path)): \(reason)."
    case let .cannotWrite(path, reason):
      return "Cannot write the model \(Self.name(path)): \(reason)."
    case let .tooLarge(detail):
      return "The model is too large: \(detail)."
    case let .invalidModelFile(path, reason):
      return "\(Self.name(path)) is not a valid USDZ model: \(reason)."
    case .cancelled:
      return "Model creation was cancelled."
    case let .notConfigured(detail):
      return "Model reconstruction is not configured: \(detail)"
    case let .failed(detail):
      return "Model reconstruction failed: \(detail)"
    }
  }

  /// The last path component: enough for the user to recognise the file.
  private static func name(_ path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.isEmpty ? path : name
  }
}
