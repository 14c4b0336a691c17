import Foundation
import HTTPClient
import LocalFiles

/// Where and how the live upload clients reach the app's API server. The caller provides it (a host's `--api` and
/// `--token` options, or the environment); the token is a `BearerToken` and never printed.
///
/// ```swift
/// let configuration = UploadServerConfiguration(
///   apiBaseURL: URL(string: "http://127.0.0.1:8000")!, token: BearerToken(token), maxConcurrentUploads: 4)
/// print(configuration)   // UploadServerConfiguration(api: http://127.0.0.1:8000, token: <redacted>, …)
/// ```
public struct UploadServerConfiguration: Sendable, CustomStringConvertible {
  /// The API server, e.g. `http://127.0.0.1:8000`; endpoints are resolved against it.
  public var apiBaseURL: URL
  /// Sent as `Authorization: Bearer …` to the API server only, never to storage URLs.
  public var token: BearerToken
  /// The most PUTs in flight at once (at least 1).
  public var maxConcurrentUploads: Int
  /// How long a request may go without any progress before it fails (seconds).
  public var requestTimeout: TimeInterval
  /// How long one request may take in total (seconds).
  public var resourceTimeout: TimeInterval
  /// Extra headers for requests to the API server (e.g. a test server's fault injection); never sent to storage.
  public var additionalHeaders: [String: String]
  /// Which HTTP engine carries the requests; `Transport.automatic` by default.
  public var transport: Transport
  /// How idempotent requests (the storage `PUT`s) are retried on 5xx, `SlowDown`, a lost connection or a timeout;
  /// the backoff sleeps on the injected `\.clock`. `RetryPolicy.standard` by default.
  public var retryPolicy: RetryPolicy

  /// A configuration for the API server at `apiBaseURL` with `token`.
  public init(
    apiBaseURL: URL,
    token: BearerToken,
    maxConcurrentUploads: Int = 4,
    requestTimeout: TimeInterval = 60,
    resourceTimeout: TimeInterval = 3600,
    additionalHeaders: [String: String] = [:],
    retryPolicy: RetryPolicy = .standard,
    transport: Transport = .automatic
  ) {
    self.apiBaseURL = apiBaseURL
    self.token = token
    self.maxConcurrentUploads = max(1, maxConcurrentUploads)
    self.requestTimeout = requestTimeout
    self.resourceTimeout = resourceTimeout
    self.additionalHeaders = additionalHeaders
    self.retryPolicy = retryPolicy
    self.transport = transport
  }

  /// Which HTTP engine the live clients use: `HTTPTransport.Engine`.
  public typealias Transport = HTTPTransport.Engine

  /// The environment variable (or config file entry) holding the API server's base URL.
  public static let apiURLVariable = "UPLOAD_API_URL"
  /// The environment variable (or config file entry) holding the bearer token, after ``tokenVariables``'s first.
  public static let tokenVariable = "UPLOAD_API_TOKEN"
  /// Every name the bearer token is looked up under, in order: `UNIDIRECTIONAL_API_TOKEN`, then `UPLOAD_API_TOKEN`.
  public static let tokenVariables = ["UNIDIRECTIONAL_API_TOKEN", tokenVariable]

  /// Reads `UPLOAD_API_URL` and the token (``tokenVariables``) from `environment`, then from `configFiles`, in the
  /// order every secret is resolved (`SecretSources`); throws ``ImageUploadError/http(_:)`` with
  /// `HTTPError.notConfigured(_:)` when either is missing, a config file is unusable, or the URL is not http(s).
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment,
    configFiles: [URL] = SecretSources.defaultConfigFiles
  ) throws -> UploadServerConfiguration {
    let sources = SecretSources(environment: environment, configFiles: configFiles)
    let rawURL: String?
    let token: String?
    do {
      rawURL = try sources.value(for: [apiURLVariable])?.value
      token = try sources.value(for: tokenVariables)?.value
    } catch {
      throw ImageUploadError.http(.notConfigured(error.description))
    }
    guard let rawURL else {
      throw ImageUploadError.http(.notConfigured("set \(apiURLVariable) and \(tokenVariable), or pass a configuration"))
    }
    guard let url = URL(string: rawURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      url.host != nil
    else {
      throw ImageUploadError.http(.notConfigured("\(apiURLVariable) must be an http(s) URL"))
    }
    guard let token else {
      throw ImageUploadError.http(
        .notConfigured("set \(tokenVariables.joined(separator: " or ")) to the API server's bearer token"))
    }
    return UploadServerConfiguration(apiBaseURL: url, token: BearerToken(token))
  }

  /// The configuration with the token shown as `<redacted>`.
  public var description: String {
    "UploadServerConfiguration(api: \(apiBaseURL.absoluteString), token: <redacted>, "
      + "maxConcurrentUploads: \(maxConcurrentUploads), requestTimeout: \(requestTimeout)s, \(retryPolicy))"
  }

  /// The URL of the endpoint at `path` under the API server.
  func endpoint(_ path: String) -> URL {
    apiBaseURL.appendingPathComponent(path)
  }
}
