/// The limits a server announces for resumable uploads in `Upload-Limit` (an RFC 9651 dictionary).
///
/// ```swift
/// let limits = UploadLimits(fieldValue: "max-size=1073741824, max-append-size=8388608, max-age=3600")
/// limits?.maxAppendSize   // 8388608
/// ```
public struct UploadLimits: Hashable, Sendable, Codable {
  /// The largest upload the server accepts, in bytes.
  public var maxSize: Int64?
  /// The smallest upload the server offers resumption for.
  public var minSize: Int64?
  /// The largest body of one creation or append request.
  public var maxAppendSize: Int64?
  /// The smallest body of one append request (except the last).
  public var minAppendSize: Int64?
  /// Seconds the upload resource is kept from the response (`max-age`; `expires` in interop version 6).
  public var maxAge: Int64?

  /// Limits with the given values (nil = no limit announced).
  public init(
    maxSize: Int64? = nil, minSize: Int64? = nil, maxAppendSize: Int64? = nil, minAppendSize: Int64? = nil,
    maxAge: Int64? = nil
  ) {
    self.maxSize = maxSize
    self.minSize = minSize
    self.maxAppendSize = maxAppendSize
    self.minAppendSize = minAppendSize
    self.maxAge = maxAge
  }

  /// Parses an `Upload-Limit` value; nil when it is not a dictionary or a known key has a value that is not a
  /// non-negative integer (the draft says to ignore the whole field then). Unknown keys are ignored.
  public init?(fieldValue: String) {
    guard let members = StructuredField.dictionary(fieldValue) else { return nil }
    self.init()
    for (key, value) in members {
      let keyPath: WritableKeyPath<UploadLimits, Int64?>
      switch key {
      case "max-size": keyPath = \.maxSize
      case "min-size": keyPath = \.minSize
      case "max-append-size": keyPath = \.maxAppendSize
      case "min-append-size": keyPath = \.minAppendSize
      case "max-age", "expires": keyPath = \.maxAge
      default: continue
      }
      guard let number = StructuredField.integer(value) else { return nil }
      self[keyPath: keyPath] = number
    }
  }
}
