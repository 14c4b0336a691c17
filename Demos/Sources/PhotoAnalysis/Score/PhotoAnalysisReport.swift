/// A photo's metadata with its originality score: what the user sees for each analysed photo.
///
/// ```swift
/// let report = PhotoAnalysisReport(metadata: try PhotoMetadataReader.read(fileAt: url))
/// report.score   // 70
/// report.flags   // [edited: GIMP 2.6.11, warning: modified after capture (…), original: camera: CASIO …]
/// ```
public struct PhotoAnalysisReport: Hashable, Sendable, Codable {
  public var metadata: PhotoMetadata
  /// 0…100 (``OriginalityScore``).
  public var score: Int
  public var flags: [PhotoFlag]

  /// The report of `metadata`, scored by ``OriginalityScore``.
  public init(metadata: PhotoMetadata) {
    let originality = OriginalityScore(metadata)
    self.init(metadata: metadata, score: originality.value, flags: originality.flags)
  }

  /// A report with a given score (previews, tests).
  public init(metadata: PhotoMetadata, score: Int, flags: [PhotoFlag]) {
    self.metadata = metadata
    self.score = score
    self.flags = flags
  }
}
