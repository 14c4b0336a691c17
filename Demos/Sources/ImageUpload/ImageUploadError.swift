import Foundation
import HTTPClient

/// Why an image upload failed, in words a user can read (`description`): the picked images themselves, what the API
/// server answered about them, or the HTTP layer's failure (``http(_:)``, an `HTTPError`).
///
/// Descriptions never contain a bearer token or a presigned URL's signature: servers are named by host and port.
/// Encoded by case, as Swift synthesizes it; logs from before ``http(_:)`` still decode (see `init(from:)`).
///
/// ```swift
/// do {
///   _ = try await client.upload(items, .archive) { _ in }
/// } catch let error as ImageUploadError {
///   print(error)   // "The storage server refused the upload (HTTP 403): SignatureDoesNotMatch: …"
/// }
/// ```
public enum ImageUploadError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// More images were picked than the feature allows.
  case tooManyItems(count: Int, maximum: Int)
  /// A picked file could not be read (missing, unreadable, a directory, empty).
  case unreadableFile(path: String, reason: String)
  /// A picked file is not an image format the uploader knows.
  case unsupportedImage(path: String)
  /// The server returned a different number of presigned URLs than items were sent; nothing was uploaded.
  case presignCountMismatch(requested: Int, received: Int)
  /// The server said the upload did not succeed (`success: false`), with its message.
  case rejected(message: String)
  /// A request failed in the HTTP layer: the network, an HTTP status, a refused redirect, a storage refusal, the
  /// retries used up, a file that could not be sent, cancellation.
  case http(HTTPError)

  /// Turns any error thrown while loading or uploading into an `ImageUploadError`: itself, or the HTTP layer's
  /// wording of it (``http(_:)``, see `HTTPError.init(_:host:)`).
  ///
  /// - Parameter host: The server the failed request went to, for the message.
  public init(_ error: any Error, host: String = "the server") {
    self = error as? ImageUploadError ?? .http(HTTPError(error, host: host))
  }

  /// Runs `operation`, throwing its `HTTPError`s as ``http(_:)`` and any other error (cancellation, an
  /// `ImageUploadError`) as it is: the uploaders' public calls throw `ImageUploadError`s only.
  static func wrappingHTTPErrors<Value>(_ operation: () async throws -> Value) async throws -> Value {
    do {
      return try await operation()
    } catch let error as HTTPError {
      throw ImageUploadError.http(error)
    }
  }

  /// A sentence for the user, naming servers by host and port only.
  public var description: String {
    switch self {
    case let .tooManyItems(count, maximum):
      return "You can upload at most \(maximum) image\(maximum == 1 ? "" : "s") at once; you picked \(count)."
    case let .unreadableFile(path, reason):
      return "Cannot read \(Self.fileName(path)): \(reason)."
    case let .unsupportedImage(path):
      return "\(Self.fileName(path)) is not a supported image (JPEG, PNG, GIF, WebP, HEIC, AVIF, TIFF, BMP)."
    case let .presignCountMismatch(requested, received):
      return "The server returned \(received) upload URL\(received == 1 ? "" : "s") for \(requested) "
        + "image\(requested == 1 ? "" : "s"); nothing was uploaded."
    case let .rejected(message):
      return message.isEmpty ? "The server rejected the upload." : "The server rejected the upload: \(message)"
    case let .http(error):
      return error.description
    }
  }

  /// The last path component: enough for the user to recognise the file.
  private static func fileName(_ path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.isEmpty ? "the file" : name
  }
}
