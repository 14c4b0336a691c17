/// Why an image generation failed, as a typed value with a message a person can act on.
///
/// Messages never contain the API key: a server message that echoes it is redacted before it gets here.
///
/// ```swift
/// do { images = try await client.generate(request) } catch let error as ImageGenerationError {
///   print(error)   // "Rate limited by the service: try again in 30 seconds."
/// }
/// ```
public enum ImageGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The request breaks the service's documented limits; nothing was sent.
  case invalidRequest(String)
  /// No API key was configured for `backend`; `sources` are the places that were checked.
  case missingAPIKey(backend: String, sources: [String])
  /// The configuration (a config file, a base URL) is unusable; the message never quotes a secret.
  case invalidConfiguration(String)
  /// HTTP 400: the service refused the request, with its own message.
  case rejected(message: String)
  /// HTTP 401 or 403: the service refused the API key, with its own message when it gave one.
  case unauthorized(status: Int, message: String?)
  /// HTTP 429: too many requests; `retryAfterSeconds` is from the `Retry-After` header when it was sent.
  case rateLimited(retryAfterSeconds: Int?)
  /// HTTP 5xx: the service failed.
  case serverError(status: Int, message: String?)
  /// Any other status the service's documentation does not describe.
  case unexpectedStatus(Int, message: String?)
  /// The service did not answer within the configured timeout.
  case timedOut
  /// The connection could not be made or broke off.
  case connectionFailed(String)
  /// The response was not the JSON the service documents.
  case malformedResponse(String)
  /// An image in the response was not valid base64, or not a PNG, JPEG or WebP.
  case invalidImage(String)
  /// An image given as a URL could not be downloaded.
  case imageDownloadFailed(String)
  /// An error from elsewhere (e.g. a custom client), described.
  case other(String)

  /// `error` as an `ImageGenerationError`, wrapping any other error's description in ``other(_:)``.
  public init(_ error: any Error) {
    if let error = error as? ImageGenerationError {
      self = error
    } else {
      self = .other(String(describing: error))
    }
  }

  /// What went wrong, in a sentence a person can act on.
  public var description: String {
    switch self {
    case let .invalidRequest(message):
      return message
    case let .missingAPIKey(backend, sources):
      return "No API key for \(backend): set \(sources.joined(separator: " or "))."
    case let .invalidConfiguration(message):
      return "Invalid configuration: \(message)"
    case let .rejected(message):
      return "The service rejected the request: \(message)"
    case let .unauthorized(status, message):
      return "The service refused the API key (HTTP \(status)\(message.map { ": \($0)" } ?? "")). "
        + "Check the key in the environment or the config file."
    case let .rateLimited(retryAfterSeconds?):
      return
        "Rate limited by the service: try again in \(retryAfterSeconds) second\(retryAfterSeconds == 1 ? "" : "s")."
    case .rateLimited(nil):
      return "Rate limited by the service: try again later."
    case let .serverError(status, message):
      return "The service failed (HTTP \(status))" + (message.map { ": \($0)" } ?? ".")
    case let .unexpectedStatus(status, message):
      return "The service answered with unexpected HTTP status \(status)" + (message.map { ": \($0)" } ?? ".")
    case .timedOut:
      return "The service did not answer in time."
    case let .connectionFailed(reason):
      return "Could not reach the service: \(reason)"
    case let .malformedResponse(reason):
      return "The service's response could not be read: \(reason)"
    case let .invalidImage(reason):
      return "The service sent an unusable image: \(reason)"
    case let .imageDownloadFailed(reason):
      return "Could not download a generated image: \(reason)"
    case let .other(description):
      return description
    }
  }
}
