import Foundation

/// The HTTP layer the live upload clients share per client.
///
/// - **Engines**: plain `http://` peers on Linux go through ``SocketHTTPEngine`` (bodies written straight from
///   memory and files, no staging; see its notes for why); `https`, hosts behind an `http_proxy`, Apple platforms
///   and ``Engine/urlSession`` go through ``URLSessionHTTPEngine``.
/// - **Redirects** are never followed by URLSession; ``send(_:redirects:progress:)`` follows or refuses each one by
///   the caller's ``RedirectPolicy``, re-sending the whole body.
/// - **Progress** is coalesced here, for every engine: at most one report per percent of the body (and one at 0 when
///   a request starts, so a re-sent body restarts from 0).
/// - Every request carries `User-Agent: Unidirectional/<version>` (``UserAgent``).
/// - Failures are ``ImageUploadError``s naming servers by host and port only; text from a server goes through the
///   ``SecretRedactor`` before it is kept anywhere.
///
/// ```swift
/// let transport = HTTPTransport(configuration: configuration)
/// let response = try await transport.send(request, redirects: .sameOrigin) { sent in … }
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

  /// Removes the configuration's secrets from server text.
  package let redactor: SecretRedactor
  private let urlSession: URLSessionHTTPEngine
  #if canImport(Glibc)
    private let sockets: SocketHTTPEngine?
  #endif

  package init(
    requestTimeout: TimeInterval,
    resourceTimeout: TimeInterval,
    maxConnectionsPerHost: Int,
    transport: Engine = .automatic,
    stagingDirectory: URL = FileManager.default.temporaryDirectory,
    redactor: SecretRedactor = .none
  ) {
    self.redactor = redactor
    self.urlSession = URLSessionHTTPEngine(
      requestTimeout: requestTimeout, resourceTimeout: resourceTimeout, maxConnectionsPerHost: maxConnectionsPerHost,
      stagingDirectory: stagingDirectory)
    #if canImport(Glibc)
      self.sockets =
        transport == .automatic ? SocketHTTPEngine(idleTimeout: requestTimeout, totalTimeout: resourceTimeout) : nil
    #endif
  }

  /// Sends `request` and returns the final response, following the redirects `redirects` allows.
  ///
  /// - Parameter progress: Body bytes sent by the request in flight, at most once per percent; it restarts at 0
  ///   when a redirect re-sends the body.
  /// - Throws: ``ImageUploadError`` (``ImageUploadError/redirectRefused(status:from:to:reason:)`` for a redirect the
  ///   policy refuses), or `CancellationError`.
  package func send(
    _ request: HTTPTransferRequest,
    redirects: RedirectPolicy,
    progress: (@Sendable (Int64) -> Void)? = nil
  ) async throws -> HTTPTransferResponse {
    var original = request
    original.setHeader("User-Agent", UserAgent.value)
    var current = original
    var followed = 0
    while true {
      let throttle = progress.map { ProgressThrottle(total: current.body.length, report: $0) }
      let onSent = throttle.map { throttle in { @Sendable (sent: Int64) in throttle.sent(sent) } }
      let response = try await send(current, progress: onSent)
      let next: HTTPTransferRequest?
      do {
        next = try redirects.follow(
          status: response.status, location: response.header("Location"), after: current, original: original,
          redirects: followed)
      } catch let ImageUploadError.redirectRefused(status, from, to, reason) {
        throw ImageUploadError.redirectRefused(
          status: status, from: redactor.serverText(from), to: redactor.serverText(to), reason: reason)
      }
      guard let next else { return response }
      current = next
      followed += 1
    }
  }

  /// One request through the engine for its URL, no redirect followed.
  private func send(
    _ request: HTTPTransferRequest, progress: (@Sendable (Int64) -> Void)?
  ) async throws -> HTTPTransferResponse {
    do {
      #if canImport(Glibc)
        if let sockets, request.url.scheme?.lowercased() == "http",
          !Self.proxyApplies(to: request.url.host ?? "", environment: ProcessInfo.processInfo.environment)
        {
          return try await sockets.send(request, progress: progress)
        }
      #endif
      return try await urlSession.send(request, progress: progress)
    } catch {
      if Task.isCancelled || error is CancellationError { throw CancellationError() }
      throw ImageUploadError(error, host: Self.hostDescription(request.url))
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
