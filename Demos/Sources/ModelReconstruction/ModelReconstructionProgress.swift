/// How far a reconstruction has got, in steps (one per shot, plus writing the scene and finishing the file).
///
/// ```swift
/// let progress = ModelReconstructionProgress(completedSteps: 3, totalSteps: 10)
/// progress.percent   // 30
/// ```
public struct ModelReconstructionProgress: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Steps done.
  public var completedSteps: Int
  /// Steps in all.
  public var totalSteps: Int

  /// Nothing done yet, before the number of steps is known.
  public static let starting = ModelReconstructionProgress(completedSteps: 0, totalSteps: 0)

  /// `completedSteps` of `totalSteps` done.
  public init(completedSteps: Int, totalSteps: Int) {
    self.completedSteps = completedSteps
    self.totalSteps = totalSteps
  }

  /// The share done, from 0 to 1 (0 while the number of steps is not known yet).
  public var fractionCompleted: Double {
    guard totalSteps > 0 else { return 0 }
    return min(1, max(0, Double(completedSteps) / Double(totalSteps)))
  }

  /// The share done in whole percent, rounded down, from 0 to 100.
  public var percent: Int { Int(fractionCompleted * 100) }

  /// `3/10 steps (30%)`.
  public var description: String { "\(completedSteps)/\(totalSteps) steps (\(percent)%)" }
}
