import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why an HTTP request failed, in words a user can read (`description`): the error of every client built on
/// ``HTTPTransport`` (presigned `PUT`s, multipart `POST`s, resumable uploads) and of the files it sends.
///
/// Descriptions never contain a bearer token or a presigned URL's signature: servers are named by host and port.
///
/// ```swift
/// do {
///   try await put.send(fileAt: url, size: size, through: transport)
/// } catch let error as HTTPError {
///   print(error)   // "The storage server refused the upload (HTTP 403): SignatureDoesNotMatch: …"
/// }
/// ```
public enum HTTPError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// A file the request sends could not be read (missing, unreadable, not a regular file, shorter than announced).
  case unreadableFile(path: String, reason: String)
  /// The server could not be reached: no network, host not found, connection refused.
  case cannotConnect(host: String)
  /// The connection broke off before the server answered.
  case connectionLost(host: String)
  /// The server did not answer in time.
  case timedOut(host: String)
  /// A server (the app's API server, a resumable upload's server) answered with an error status and this message.
  case httpStatus(Int, message: String)
  /// The storage server (S3) refused a PUT: its HTTP status and the `<Code>` / `<Message>` of its XML body.
  case storageRejected(status: Int, code: String?, message: String?)
  /// The request cannot be made as asked (e.g. a content type that is not a valid header value).
  case invalidRequest(String)
  /// The server's answer could not be understood.
  case invalidResponse(String)
  /// The client cannot run: configuration missing or invalid, or an unimplemented test dependency.
  case notConfigured(String)
  /// Another networking failure, by its `URLError` code.
  case network(code: Int)
  /// The request was cancelled before it finished.
  case cancelled
  /// A server answered with a redirect that the client does not follow (see ``HTTPTransport``'s redirect
  /// policy): its status, where it came from and where it pointed (host and port only), and why.
  case redirectRefused(status: Int, from: String, to: String, reason: String)
  /// The server that answered did not get the whole file, or says it stored a different size.
  case incompleteUpload(host: String, detail: String)
  /// A retryable request failed `count` times (see ``RetryPolicy``); `last` is the last attempt's failure.
  indirect case attemptsFailed(count: Int, last: HTTPError)

  /// Turns any error thrown while sending a request into an `HTTPError`: itself, cancellation, a `URLError` by its
  /// code; anything else is an ``invalidResponse(_:)`` naming the error's type.
  ///
  /// - Parameter host: The server the failed request went to, for the message.
  public init(_ error: any Error, host: String = "the server") {
    switch error {
    case let error as HTTPError:
      self = error
    case is CancellationError:
      self = .cancelled
    case let error as URLError:
      switch error.code {
      case .cancelled:
        self = .cancelled
      case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed,
        .internationalRoamingOff, .dataNotAllowed, .secureConnectionFailed:
        self = .cannotConnect(host: host)
      case .networkConnectionLost:
        self = .connectionLost(host: host)
      case .timedOut:
        self = .timedOut(host: host)
      case .fileDoesNotExist, .noPermissionsToReadFile:
        self = .unreadableFile(path: error.failingURL?.path ?? "", reason: "the file cannot be read")
      default:
        self = .network(code: error.code.rawValue)
      }
    default:
      self = .invalidResponse("unexpected error \(type(of: error))")
    }
  }

  /// A sentence for the user, naming servers by host and port only.
  public var description: String {
    switch self {
    case let .unreadableFile(path, reason):
      return "Cannot read \(Self.fileName(path)): \(reason)."
    case let .cannotConnect(host):
      return "Cannot connect to \(host). Check the network and that the server is running."
    case let .connectionLost(host):
      return "The connection to \(host) was lost during the upload."
    case let .timedOut(host):
      return "\(host) did not answer in time."
    case let .httpStatus(status, message):
      return message.isEmpty ? "The server answered HTTP \(status)." : "The server answered HTTP \(status): \(message)"
    case let .storageRejected(status, code, message):
      let detail = [code, message].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
      return "The storage server refused the upload (HTTP \(status))" + (detail.isEmpty ? "." : ": \(detail)")
    case let .invalidRequest(detail):
      return "The upload request is invalid: \(detail)."
    case let .invalidResponse(detail):
      return "The server's answer could not be understood (\(detail))."
    case let .notConfigured(detail):
      return "The upload client is not configured: \(detail)"
    case let .network(code):
      return "The upload failed with network error \(code)."
    case .cancelled:
      return "The upload was cancelled."
    case let .redirectRefused(status, from, to, reason):
      return "\(from) redirected the upload to \(to) (HTTP \(status)); not followed: \(reason)."
    case let .incompleteUpload(host, detail):
      return "\(host) did not receive the whole file: \(detail)."
    case let .attemptsFailed(count, last):
      return "Gave up after \(count) attempts. \(last.description)"
    }
  }

  /// The last path component: enough for the user to recognise the file.
  private static func fileName(_ path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.isEmpty ? "the file" : name
  }
}
