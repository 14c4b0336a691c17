import Foundation

/// Where and how ``ResumableUploader`` uploads: the target resource, credentials, interop versions and retries.
///
/// ```swift
/// var configuration = ResumableUploadConfiguration(
///   endpoint: URL(string: "http://127.0.0.1:8000/resumable-uploads")!, token: BearerToken(token))
/// configuration.retryPolicy = RetryPolicy(maxAttempts: 5)
/// ```
public struct ResumableUploadConfiguration: Sendable, CustomStringConvertible {
  /// The resource the upload is for; the creation request (and a plain upload) goes here.
  public var endpoint: URL
  /// Sent as `Authorization: Bearer …` to the endpoint's origin only (scheme, host and port), never elsewhere.
  public var token: BearerToken?
  /// The interop versions to speak, preferred first (6 and 8 are known). The default tries 8 (the current draft)
  /// and falls back to 6 when the server answers `400` naming 6, as Apple's reference server does.
  public var interopVersions: [Int]
  /// The method of the creation request and of a plain upload (`POST` or `PUT`).
  public var method: String
  /// Bounds the automatic resumptions: attempts and time, with backoff on the injected clock. Attempts that moved
  /// the server's offset forward before the connection broke start a fresh budget (a timeout does not).
  public var retryPolicy: RetryPolicy
  /// How long a request may go without any progress before it counts as interrupted (seconds).
  public var requestTimeout: TimeInterval
  /// How long one request may take in total (seconds).
  public var resourceTimeout: TimeInterval
  /// When the server no longer has the upload (expired, restarted), start a fresh one instead of failing with
  /// ``ResumableUploadError/uploadGone(host:)``.
  public var restartWhenGone: Bool
  /// Extra headers for requests to the endpoint's origin (e.g. a test server's fault hook); never sent elsewhere.
  public var additionalHeaders: [String: String]

  /// The known interop versions.
  public static let supportedInteropVersions: Set<Int> = [6, 8]

  /// A configuration for `endpoint`; see the properties for the defaults.
  public init(
    endpoint: URL,
    token: BearerToken? = nil,
    interopVersions: [Int] = [8, 6],
    method: String = "POST",
    retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 5),
    requestTimeout: TimeInterval = 60,
    resourceTimeout: TimeInterval = 3600,
    restartWhenGone: Bool = false,
    additionalHeaders: [String: String] = [:]
  ) {
    self.endpoint = endpoint
    self.token = token
    self.interopVersions = interopVersions
    self.method = method
    self.retryPolicy = retryPolicy
    self.requestTimeout = requestTimeout
    self.resourceTimeout = resourceTimeout
    self.restartWhenGone = restartWhenGone
    self.additionalHeaders = additionalHeaders
  }

  /// The configuration with the token shown as `<redacted>`.
  public var description: String {
    "ResumableUploadConfiguration(endpoint: \(endpoint.absoluteString), token: "
      + "\(token == nil ? "none" : "<redacted>"), interopVersions: \(interopVersions), \(retryPolicy))"
  }
}
