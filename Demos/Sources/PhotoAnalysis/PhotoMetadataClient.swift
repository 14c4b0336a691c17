import Foundation
import Unidirectional

/// Analyses a photo file: its metadata and originality score. The dependency ``PhotoAnalysisFeature`` talks to.
///
/// - `liveValue`: ``live``, ``PhotoMetadataReader`` on the file.
/// - `previewValue`: ``preview``, one of three canned reports picked by the file's name, after 200 ms on the
///   injected clock.
/// - `testValue`: ``unimplemented``, which fails the test when called.
///
/// ```swift
/// @Dependency(\.photoMetadata) var photoMetadata
/// let report = try await photoMetadata.analyze(url)
///
/// // In a test:
/// $0.photoMetadata.analyze = { _ in .previewEdited }
/// ```
public struct PhotoMetadataClient: Sendable {
  /// The report of the photo at a file URL; throws ``PhotoAnalysisError`` (or `CancellationError`).
  public var analyze: @Sendable (_ fileURL: URL) async throws -> PhotoAnalysisReport

  public init(analyze: @escaping @Sendable (_ fileURL: URL) async throws -> PhotoAnalysisReport) {
    self.analyze = analyze
  }

  /// Reads the file with ``PhotoMetadataReader`` and scores it.
  public static let live = PhotoMetadataClient { url in
    try Task.checkCancellation()
    return PhotoAnalysisReport(metadata: try PhotoMetadataReader.read(fileAt: url))
  }

  /// Canned reports after 200 ms on the injected clock: a file name containing "edited" gets
  /// ``PhotoAnalysisReport/previewEdited``, "stripped" ``PhotoAnalysisReport/previewStripped``, any other
  /// ``PhotoAnalysisReport/previewOriginal``.
  public static let preview = PhotoMetadataClient { url in
    @Dependency(\.clock) var clock
    try await clock.sleep(for: .milliseconds(200))
    let name = url.lastPathComponent.lowercased()
    if name.contains("edited") { return .previewEdited }
    if name.contains("stripped") { return .previewStripped }
    return .previewOriginal
  }

  /// Reports "PhotoMetadataClient.analyze is unimplemented" as a test failure, then throws.
  public static let unimplemented = PhotoMetadataClient { _ in
    reportIssue("PhotoMetadataClient.analyze is unimplemented: override \\.photoMetadata in this test.")
    throw PhotoAnalysisError.metadataExtractionFailed("PhotoMetadataClient.analyze is unimplemented")
  }
}

extension PhotoAnalysisReport {
  /// A camera original: make, model, lens, capture date and a GPS location; score 100.
  public static let previewOriginal = PhotoAnalysisReport(
    metadata: PhotoMetadata(
      container: .jpeg, hasExif: true, make: "SONY", model: "DSC-RX1R", lensModel: "35mm F2.0", pixelWidth: 6_000,
      pixelHeight: 4_000, captureDate: PhotoDate(year: 2013, month: 4, day: 13, hour: 10, minute: 22, second: 18),
      modificationDate: PhotoDate(year: 2013, month: 4, day: 13, hour: 10, minute: 22, second: 18), orientation: 1,
      latitude: 35.6586, longitude: 139.7454, altitude: GPSAltitude(meters: 40, reference: .aboveSeaLevel)))

  /// A camera photo edited in Photoshop a week later: score 60.
  public static let previewEdited = PhotoAnalysisReport(
    metadata: PhotoMetadata(
      container: .jpeg, hasExif: true, make: "Canon", model: "Canon EOS 5D Mark IV",
      software: "Adobe Photoshop CC 2019 (Windows)", pixelWidth: 2_000, pixelHeight: 1_333,
      captureDate: PhotoDate(year: 2019, month: 6, day: 1, hour: 9, minute: 30),
      modificationDate: PhotoDate(year: 2019, month: 6, day: 8, hour: 20, minute: 5), orientation: 1))

  /// A JPEG without EXIF (stripped by a messenger, or a screenshot): score 30.
  public static let previewStripped = PhotoAnalysisReport(
    metadata: PhotoMetadata(container: .jpeg, pixelWidth: 1_080, pixelHeight: 1_350))
}

private enum PhotoMetadataClientKey: DependencyKey {
  static let liveValue = PhotoMetadataClient.live
  static let previewValue = PhotoMetadataClient.preview
  static let testValue = PhotoMetadataClient.unimplemented
}

extension DependencyValues {
  /// Analyses photos for ``PhotoAnalysisFeature``: the real reader live, canned reports in previews, unimplemented
  /// in tests.
  public var photoMetadata: PhotoMetadataClient {
    get { self[PhotoMetadataClientKey.self] }
    set { self[PhotoMetadataClientKey.self] = newValue }
  }
}
