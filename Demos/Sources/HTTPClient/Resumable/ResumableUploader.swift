import Foundation

/// Uploads a file with the IETF httpbis draft "Resumable Uploads for HTTP" (interop versions 8 and 6): an
/// interrupted upload continues where the server's bytes end instead of starting again.
///
/// 1. `OPTIONS` on the endpoint with `Upload-Draft-Interop-Version` finds out whether the server speaks the draft
///    and its `Upload-Limit`. A `400` naming another version we speak (Apple's reference server names 6) is tried
///    again in that version. No support (or none of our versions): the file goes in one plain request
///    (``ResumableUploadEvent/plainUpload``).
/// 2. The creation request carries the file (or its first `max-append-size` bytes) with `Upload-Complete`; the
///    server's `104 Upload Resumption Supported` (or its `201`) names the upload resource
///    (``ResumableUploadEvent/created(_:)``).
/// 3. A dropped connection, a timeout or a 5xx: `HEAD` asks the server's offset, and a `PATCH` sends only the
///    rest (``ResumableUploadEvent/resuming(offset:attempt:)``). A `409` (the offsets disagree) is asked again,
///    never guessed. Resumptions are bounded by ``ResumableUploadConfiguration/retryPolicy`` (its backoff sleeps
///    on the clock given here); attempts that moved the server's offset forward and then broke off start a fresh
///    budget (not after a timeout).
/// 4. Success only when the final response says the upload is complete (`Upload-Complete: ?1`, or
///    `Upload-Incomplete: ?0` from servers of version 5/6) with a 2xx status, and every size it states is the
///    file's size.
///
/// Pausing is cancelling the task that runs ``upload(_:resuming:events:)``; resuming is calling it again with the
/// ``ResumableUploadResource`` from ``ResumableUploadEvent/created(_:)``. ``cancel(_:)`` deletes the upload on the
/// server. The bearer token and extra headers go to the endpoint's origin only.
///
/// ```swift
/// let uploader = ResumableUploader(configuration: ResumableUploadConfiguration(endpoint: api, token: token))
/// let receipt = try await uploader.upload(ResumableUploadFile(url: file, filename: "scan.usdz")) { event in
///   print(event)
/// }
/// ```
public struct ResumableUploader: Sendable {
  /// Where and how to upload.
  public let configuration: ResumableUploadConfiguration
  /// What the retry policy's backoff sleeps on.
  let clock: any Clock<Duration>
  /// Draws the backoff's jitter (0…1).
  let jitter: @Sendable () -> Double
  /// Runs before each append with the upload and the offset it starts at (tests make a second writer race the
  /// client here).
  var willAppend: (@Sendable (ResumableUploadResource, Int64) async -> Void)?

  /// An uploader for `configuration` whose backoff sleeps on `clock` (pass `@Dependency(\.clock)` in features).
  public init(configuration: ResumableUploadConfiguration, clock: any Clock<Duration> = ContinuousClock()) {
    self.configuration = configuration
    self.clock = clock
    self.jitter = { Double.random(in: 0...1) }
    self.willAppend = nil
  }

  /// Uploads `file`, or continues the upload at `resource` (after a pause or from an earlier process).
  ///
  /// - Parameters:
  ///   - file: The file to upload, with the name the server is told.
  ///   - resource: An upload the server already has (from `.created(resource)` or an earlier receipt); nil for a
  ///     new upload.
  ///   - events: The upload resource once known, progress, resumptions; never called after this returns.
  /// - Throws: ``ResumableUploadError``; `CancellationError` when the task is cancelled (a pause: the server keeps
  ///   what it has, resume with the resource).
  public func upload(
    _ file: ResumableUploadFile,
    resuming resource: ResumableUploadResource? = nil,
    events: @escaping @Sendable (ResumableUploadEvent) -> Void = { _ in }
  ) async throws -> ResumableUploadReceipt {
    do {
      return try await ResumableUploadRun(uploader: self, file: file, events: events).run(resuming: resource)
    } catch let error as ResumableUploadError {
      throw error
    } catch {
      if error is CancellationError || Task.isCancelled { throw CancellationError() }
      let failure = HTTPError(error)
      if failure == .cancelled { throw CancellationError() }
      throw ResumableUploadError.http(failure)
    }
  }

  /// Deletes the upload on the server (`DELETE`); an upload the server no longer has counts as deleted. A busy
  /// server (5xx), a lost connection or a timeout is retried under the configuration's retry policy.
  public func cancel(_ resource: ResumableUploadResource) async throws {
    let transport = makeTransport(resourceTimeout: configuration.requestTimeout)
    var request = HTTPRequest(method: "DELETE", url: resource.url)
    applyDraftFields(to: &request, version: resource.interopVersion)
    authorize(&request)
    do {
      // A DELETE is idempotent: a 5xx (a server still holding the interrupted append's lease answers 503), a lost
      // connection or a timeout is retried under the configuration's policy, as appends are.
      try await delete(request, through: transport, backingOffOn: self.clock)
    } catch let error as HTTPError {
      throw ResumableUploadError.http(error)
    }
  }

  /// Sends the DELETE under the retry policy, its backoff sleeping on `clock`.
  private func delete<C: Clock<Duration>>(
    _ request: HTTPRequest, through transport: HTTPTransport, backingOffOn clock: C
  ) async throws {
    try await configuration.retryPolicy.run(clock: clock, jitter: jitter) { _ in
      let response = try await transport.send(request, redirects: Self.redirects)
      guard (200..<300).contains(response.status) || [404, 410].contains(response.status) else {
        throw HTTPError.httpStatus(response.status, message: transport.serverMessage(in: response.body))
      }
    }
  }

  // MARK: Requests

  /// The draft's requests go where the server said (the upload resource); a redirect would re-send a body and
  /// credentials elsewhere.
  static let redirects = RedirectPolicy.refused(reason: "resumable upload requests are not redirected")

  /// A transport through URLSession (bodies streamed, 104s as they arrive) with a fresh connection per request,
  /// the token redacted from whatever a server says.
  func makeTransport(resourceTimeout: TimeInterval) -> HTTPTransport {
    HTTPTransport(
      HTTPTransport.Configuration(
        requestTimeout: configuration.requestTimeout, resourceTimeout: resourceTimeout, engine: .urlSession,
        connections: .freshPerRequest, redactor: configuration.token?.redactor ?? .none))
  }

  /// `Upload-Draft-Interop-Version`.
  func applyDraftFields(to request: inout HTTPRequest, version: Int) {
    request.setHeader("Upload-Draft-Interop-Version", String(version))
  }

  /// The token and extra headers, when `request` goes to the endpoint's origin.
  func authorize(_ request: inout HTTPRequest) {
    guard Origin(request.url) == Origin(configuration.endpoint) else { return }
    for (name, value) in configuration.additionalHeaders { request.setHeader(name, value) }
    if let token = configuration.token, !token.isEmpty {
      request.setHeader("Authorization", token.authorizationHeader)
    }
  }
}
