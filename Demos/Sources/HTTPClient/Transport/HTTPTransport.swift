import Foundation

/// The one way this library talks HTTP: every client (image uploads, the resumable uploader, image generation and
/// its downloads) sends its requests through an `HTTPTransport` configured for it.
///
/// - **Engines**: plain `http://` peers on Linux go through `SocketHTTPEngine` (bodies written straight from
///   memory and files, no staging; see its notes for why) unless the client asks for ``Engine/urlSession``;
///   `https`, hosts behind an `http_proxy` and Apple platforms always go through `URLSessionHTTPEngine`.
/// - **Connections**: pooled per transport, or a fresh connection for every request (``Connections``).
/// - **Redirects** are never followed by URLSession; ``send(_:redirects:progress:informational:)`` follows or refuses
///   each one by the request's ``RedirectPolicy``, re-sending the whole body.
/// - **Progress** is coalesced here, for every engine (``Progress/perPercent(_:)``), or passed on as the engine
///   counts it (``Progress/everyWrite(_:)``).
/// - Every request carries `User-Agent: Unidirectional/<version>` (``UserAgent``).
/// - Failures name servers by host and port only and are worded by the client's `failure` (``HTTPError``s by
///   default); text from a server goes through the configuration's ``SecretRedactor`` before it is kept anywhere.
///
/// ```swift
/// let transport = HTTPTransport(HTTPTransport.Configuration(redactor: token.redactor))
/// let response = try await transport.send(request, redirects: .sameOrigin, progress: .perPercent { sent in … })
/// ```
public final class HTTPTransport: Sendable {
  /// Which HTTP engine carries the requests.
  ///
  /// ```swift
  /// var configuration = UploadServerConfiguration(apiBaseURL: api, token: token)
  /// configuration.transport = .urlSession   // never the socket engine
  /// ```
  public enum Engine: Hashable, Sendable {
    /// Plain `http://` peers on Linux through the library's own HTTP/1.1 engine (several times faster than
    /// FoundationNetworking for large bodies); `https`, proxied hosts and Apple platforms through URLSession.
    case automatic
    /// Every request through URLSession.
    case urlSession
  }

  /// How URLSession's connections are shared between requests (the socket engine opens one per request always).
  ///
  /// ```swift
  /// HTTPTransport.Configuration(connections: .pooled(maxPerHost: 4))   // parallel uploads to one API server
  /// HTTPTransport.Configuration(connections: .freshPerRequest)         // a resumable upload's requests
  /// ```
  public enum Connections: Hashable, Sendable {
    /// One session for the transport, at most `maxPerHost` connections to a host at once, reused — by requests
    /// without a body: one with a body always opens its own connection (a dead reused connection cannot be
    /// retried with the body from its start through FoundationNetworking; see `URLSessionHTTPEngine`).
    case pooled(maxPerHost: Int)
    /// A session of its own for every request: libcurl replays a request by itself when a *reused* connection dies
    /// under it (a resumable append would go out again with a stale offset), and Apple's resumable-upload server
    /// never answers a request that follows a completed upload on the same connection.
    case freshPerRequest
  }

  /// How a request's body progress is reported: bytes of the body sent so far, restarting at 0 when a redirect
  /// re-sends it.
  ///
  /// ```swift
  /// _ = try await transport.send(request, redirects: .anyOrigin, progress: .perPercent { sent in print(sent) })
  /// ```
  public enum Progress: Sendable {
    /// At most one report per percent of the body and one at its end, and one at 0 when a request starts: a
    /// consumer's cost does not grow with how often the engine writes.
    case perPercent(@Sendable (Int64) -> Void)
    /// Every count the engine reports (URLSession: about every 48 KB), for a client that keeps its own account.
    case everyWrite(@Sendable (Int64) -> Void)
  }

  /// Timeouts, engine, connections, staging and secrets of one client's transport.
  ///
  /// ```swift
  /// var configuration = HTTPTransport.Configuration(requestTimeout: 30, connections: .freshPerRequest)
  /// configuration.engine = .urlSession
  /// ```
  public struct Configuration: Sendable {
    /// How long a request may go without any progress before it fails (seconds).
    public var requestTimeout: TimeInterval
    /// How long one request may take in total (seconds).
    public var resourceTimeout: TimeInterval
    /// Which engine carries plain `http://` requests.
    public var engine: Engine
    /// How URLSession's connections are shared.
    public var connections: Connections
    /// Where URLSession request bodies made of several parts are staged.
    public var stagingDirectory: URL
    /// Removes the client's secrets from whatever a server says.
    public var redactor: SecretRedactor

    /// A configuration; see the properties.
    public init(
      requestTimeout: TimeInterval = 60,
      resourceTimeout: TimeInterval = 3600,
      engine: Engine = .automatic,
      connections: Connections = .pooled(maxPerHost: 4),
      stagingDirectory: URL = FileManager.default.temporaryDirectory,
      redactor: SecretRedactor = .none
    ) {
      self.requestTimeout = requestTimeout
      self.resourceTimeout = resourceTimeout
      self.engine = engine
      self.connections = connections
      self.stagingDirectory = stagingDirectory
      self.redactor = redactor
    }
  }

  /// Removes the client's secrets from server text.
  public let redactor: SecretRedactor
  private let urlSession: URLSessionHTTPEngine
  #if canImport(Glibc)
    private let sockets: SocketHTTPEngine?
  #endif
  private let failure: @Sendable (_ error: any Error, _ host: String) -> any Error

  /// A transport for `configuration`.
  ///
  /// - Parameters:
  ///   - configuration: The engine, timeouts, user agent and secret redactor to use.
  ///   - failure: Words an engine's failure (a `URLError`, a lost connection) for the client, given the
  ///     server's host and port; ``HTTPError/init(_:host:)`` by default. Cancellation is never passed to it.
  public init(
    _ configuration: Configuration,
    failure: @escaping @Sendable (_ error: any Error, _ host: String) -> any Error = { HTTPError($0, host: $1) }
  ) {
    self.redactor = configuration.redactor
    self.failure = failure
    self.urlSession = URLSessionHTTPEngine(
      requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.resourceTimeout,
      connections: configuration.connections, stagingDirectory: configuration.stagingDirectory)
    #if canImport(Glibc)
      self.sockets =
        configuration.engine == .automatic
        ? SocketHTTPEngine(idleTimeout: configuration.requestTimeout, totalTimeout: configuration.resourceTimeout)
        : nil
    #endif
  }

  /// Sends `request` and returns the final response, following the redirects `redirects` allows.
  ///
  /// - Parameters:
  ///   - request: The method, URL, headers and body to send.
  ///   - redirects: Which redirects to follow (see ``RedirectPolicy``).
  ///   - progress: Body bytes sent by the request in flight; they restart at 0 when a redirect re-sends the body.
  ///   - informational: Each 1xx response as it arrives (a `104` naming a resumable upload).
  /// - Throws: `failure`'s errors, ``HTTPError/redirectRefused(status:from:to:reason:)`` for a redirect the
  ///   policy refuses, or `CancellationError`.
  public func send(
    _ request: HTTPRequest,
    redirects: RedirectPolicy,
    progress: Progress? = nil,
    informational: (@Sendable (HTTPResponse.Informational) -> Void)? = nil
  ) async throws -> HTTPResponse {
    var original = request
    original.setHeader("User-Agent", UserAgent.value)
    var current = original
    var followed = 0
    while true {
      let onSent: (@Sendable (Int64) -> Void)?
      switch progress {
      case let .perPercent(report):
        let throttle = ProgressThrottle(total: current.body.length, report: report)
        throttle.sent(0)
        onSent = { throttle.sent($0) }
      case let .everyWrite(report):
        onSent = report
      case nil:
        onSent = nil
      }
      let response = try await send(current, progress: onSent, informational: informational)
      let next: HTTPRequest?
      do {
        next = try redirects.follow(
          status: response.status, location: response.header("Location"), after: current, original: original,
          redirects: followed)
      } catch let HTTPError.redirectRefused(status, from, to, reason) {
        throw HTTPError.redirectRefused(
          status: status, from: redactor.serverText(from), to: redactor.serverText(to), reason: reason)
      }
      guard let next else { return response }
      current = next
      followed += 1
    }
  }

  /// One request through the engine for its URL, no redirect followed.
  private func send(
    _ request: HTTPRequest,
    progress: (@Sendable (Int64) -> Void)?,
    informational: (@Sendable (HTTPResponse.Informational) -> Void)?
  ) async throws -> HTTPResponse {
    do {
      #if canImport(Glibc)
        if let sockets, request.url.scheme?.lowercased() == "http",
          !Self.proxyApplies(to: request.url.host ?? "", environment: ProcessInfo.processInfo.environment)
        {
          return try await sockets.send(request, progress: progress, informational: informational)
        }
      #endif
      return try await urlSession.send(request, progress: progress, informational: informational)
    } catch {
      if Task.isCancelled || error is CancellationError { throw CancellationError() }
      throw failure(error, Self.hostDescription(request.url))
    }
  }

  /// Whether `environment` sends requests to `host` through a proxy (`http_proxy`/`all_proxy`, any case, minus
  /// `no_proxy`): such requests go through URLSession, which knows proxies.
  static func proxyApplies(to host: String, environment: [String: String]) -> Bool {
    let proxies = ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"].compactMap { environment[$0] }
    guard proxies.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return false }
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    let exclusions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    for exclusion in exclusions where !exclusion.isEmpty {
      if exclusion == "*" { return false }
      let domain = exclusion.hasPrefix(".") ? String(exclusion.dropFirst()) : exclusion
      if host == domain || host.hasSuffix("." + domain) { return false }
    }
    return true
  }

  /// `host:port` of `url`, without user info, path or query (a presigned query holds a signature).
  package static func hostDescription(_ url: URL?) -> String {
    guard let url, let host = url.host else { return "the server" }
    if let port = url.port { return "\(host):\(port)" }
    return host
  }

  /// The server's `{"message": …}` (or `{"detail": …}`), else the start of the body, as ``SecretRedactor``
  /// `serverText`: secrets redacted, printable, at most 300 characters.
  package func serverMessage(in body: Data) -> String {
    struct ErrorBody: Decodable {
      let message: String?
      let detail: String?
    }
    if let decoded = try? JSONDecoder().decode(ErrorBody.self, from: body),
      let message = decoded.message ?? decoded.detail
    {
      return redactor.serverText(message)
    }
    // The whole start of the body is redacted before it is cut, so a secret across the cut cannot leak in part.
    return redactor.serverText(String(decoding: body.prefix(64 * 1024), as: UTF8.self))
  }

  /// Whether `value` can go into an HTTP header unchanged (printable ASCII, no CR/LF).
  package static func isSafeHeaderValue(_ value: String) -> Bool {
    !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
  }
}
