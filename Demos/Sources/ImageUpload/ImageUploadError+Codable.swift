import HTTPClient

extension ImageUploadError {
  /// The error's cases as they are encoded (Swift's synthesized form): what ``init(from:)`` reads first.
  private enum Coded: Decodable {
    case tooManyItems(count: Int, maximum: Int)
    case unreadableFile(path: String, reason: String)
    case unsupportedImage(path: String)
    case presignCountMismatch(requested: Int, received: Int)
    case rejected(message: String)
    case http(HTTPError)
  }

  /// Decodes the error as it is encoded, one object keyed by the case (`{"tooManyItems": {"count": 12, "maximum":
  /// 10}}`, `{"http": {"_0": {"timedOut": {"host": "api:8000"}}}}`), or as action logs recorded it before the HTTP
  /// layer had an error of its own: an HTTP failure unwrapped (`{"timedOut": {"host": "api:8000"}}`), read as
  /// ``http(_:)``.
  ///
  /// ```swift
  /// let error = try JSONDecoder().decode(ImageUploadError.self, from: Data(#"{"cancelled":{}}"#.utf8))
  /// // .http(.cancelled)
  /// ```
  public init(from decoder: any Decoder) throws {
    let coded: Coded
    do {
      coded = try Coded(from: decoder)
    } catch {
      // Not the current form: an earlier log's HTTP failure, or else the current form's error.
      guard let earlier = try? HTTPError(from: decoder) else { throw error }
      coded = .http(earlier)
    }
    switch coded {
    case let .tooManyItems(count, maximum): self = .tooManyItems(count: count, maximum: maximum)
    case let .unreadableFile(path, reason): self = .unreadableFile(path: path, reason: reason)
    case let .unsupportedImage(path): self = .unsupportedImage(path: path)
    case let .presignCountMismatch(requested, received):
      self = .presignCountMismatch(requested: requested, received: received)
    case let .rejected(message): self = .rejected(message: message)
    case let .http(error): self = .http(error)
    }
  }
}
