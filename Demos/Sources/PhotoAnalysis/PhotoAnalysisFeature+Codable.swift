import Foundation
import Images

/// ``PhotoAnalysisFeature/Action`` as JSON, so an action log of a parent that embeds the feature can record and
/// replay it. `photoAnalysed(id:, Result)` is written as `photoAnalysed` (the report) or `photoFailed` (the error).
///
/// ```swift
/// let data = try JSONEncoder().encode(PhotoAnalysisFeature.Action.onDisappear)
/// ```
extension PhotoAnalysisFeature.Action: Codable {
  private enum Coded: Codable {
    case photosPicked([PickedImage])
    case photoAnalysed(id: Int, PhotoAnalysisReport)
    case photoFailed(id: Int, PhotoAnalysisError)
    case onDisappear
  }

  public init(from decoder: any Decoder) throws {
    switch try Coded(from: decoder) {
    case let .photosPicked(images): self = .photosPicked(images)
    case let .photoAnalysed(id, report): self = .photoAnalysed(id: id, .success(report))
    case let .photoFailed(id, error): self = .photoAnalysed(id: id, .failure(error))
    case .onDisappear: self = .onDisappear
    }
  }

  public func encode(to encoder: any Encoder) throws {
    let coded: Coded
    switch self {
    case let .photosPicked(images): coded = .photosPicked(images)
    case let .photoAnalysed(id, .success(report)): coded = .photoAnalysed(id: id, report)
    case let .photoAnalysed(id, .failure(error)): coded = .photoFailed(id: id, error)
    case .onDisappear: coded = .onDisappear
    }
    try coded.encode(to: encoder)
  }
}
