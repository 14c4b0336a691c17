import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
  /// - Parameter events: The upload resource once known, progress, resumptions; never called after this returns.
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
      let failure = ImageUploadError(error)
      if failure == .cancelled { throw CancellationError() }
      throw ResumableUploadError.transfer(failure)
    }
  }

  /// Deletes the upload on the server (`DELETE`); an upload the server no longer has counts as deleted.
  public func cancel(_ resource: ResumableUploadResource) async throws {
    let transport = ResumableUploadTransport(
      requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.requestTimeout)
    var request = transport.request("DELETE", resource.url)
    applyDraftFields(to: &request, version: resource.interopVersion)
    authorize(&request)
    do {
      let (data, response) = try await transport.send(request, body: .empty)
      guard (200..<300).contains(response.statusCode) || [404, 410].contains(response.statusCode) else {
        throw ResumableUploadError.transfer(
          .httpStatus(response.statusCode, message: serverMessage(in: data)))
      }
    } catch let error as ImageUploadError {
      throw ResumableUploadError.transfer(error)
    }
  }

  // MARK: Requests

  /// The server's `{"message": …}` (or `{"detail": …}`), else the start of the body, with the token redacted.
  func serverMessage(in body: Data) -> String {
    struct ErrorBody: Decodable {
      let message: String?
      let detail: String?
    }
    let redactor = configuration.token?.redactor ?? .none
    let decoded = try? JSONDecoder().decode(ErrorBody.self, from: body)
    return redactor.serverText(
      decoded.flatMap { $0.message ?? $0.detail } ?? String(decoding: body.prefix(64 * 1024), as: UTF8.self))
  }

  /// `Upload-Draft-Interop-Version`.
  func applyDraftFields(to request: inout URLRequest, version: Int) {
    request.setValue(String(version), forHTTPHeaderField: "Upload-Draft-Interop-Version")
  }

  /// The token and extra headers, when `request` goes to the endpoint's origin.
  func authorize(_ request: inout URLRequest) {
    guard let url = request.url, Self.origin(of: url) == Self.origin(of: configuration.endpoint) else { return }
    for (name, value) in configuration.additionalHeaders { request.setValue(value, forHTTPHeaderField: name) }
    if let token = configuration.token, !token.isEmpty {
      request.setValue(token.authorizationHeader, forHTTPHeaderField: "Authorization")
    }
  }

  /// Scheme, host and port (the scheme's default when absent), lowercased.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
  }
}

/// One call of ``ResumableUploader/upload(_:resuming:events:)``: the file checked once, one transport, the
/// progress and byte counts of every request.
struct ResumableUploadRun: Sendable {
  let uploader: ResumableUploader
  let file: ResumableUploadFile
  let events: @Sendable (ResumableUploadEvent) -> Void
  let size: Int64
  let modificationDate: Date?
  let transport: ResumableUploadTransport
  let reporter: MonotonicProgress
  let counters = LockedValue(Counters())

  struct Counters {
    var bytesSent: Int64 = 0
    var resumptions = 0
    var restarted = false
  }

  var configuration: ResumableUploadConfiguration { uploader.configuration }

  init(uploader: ResumableUploader, file: ResumableUploadFile, events: @escaping @Sendable (ResumableUploadEvent) -> Void)
    throws
  {
    self.uploader = uploader
    self.file = file
    self.events = events
    self.size = try UploadFile.byteCount(of: file.url)
    self.modificationDate = Self.modificationDate(of: file.url)
    guard HTTPTransport.isSafeHeaderValue(file.contentType) else {
      throw ImageUploadError.invalidRequest("the content type \(file.contentType.debugDescription) is not valid")
    }
    let configuration = uploader.configuration
    self.transport = ResumableUploadTransport(
      requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.resourceTimeout)
    self.reporter = MonotonicProgress(total: size) { events(.progress($0)) }
  }

  func run(resuming resource: ResumableUploadResource?) async throws -> ResumableUploadReceipt {
    defer { reporter.close() }
    guard let resource else { return try await start() }
    guard resource.fileSize == size,
      resource.fileModificationDate == nil || modificationDate == nil
        || resource.fileModificationDate == modificationDate
    else {
      throw ResumableUploadError.fileChanged(path: file.url.path)
    }
    return try await resume(resource)
  }

  // MARK: Discovery and creation

  private func start() async throws -> ResumableUploadReceipt {
    guard let (version, limits) = try await discover() else {
      events(.plainUpload)
      return try await plainUpload()
    }
    if let maxSize = limits.maxSize, size > maxSize {
      throw ResumableUploadError.tooLarge(size: size, maxSize: maxSize)
    }
    return try await create(version: version, limits: limits)
  }

  /// The interop version and limits to use, or nil when the server offers no resumable uploads we can speak.
  private func discover() async throws -> (Int, UploadLimits)? {
    let ours = configuration.interopVersions.filter { ResumableUploadConfiguration.supportedInteropVersions.contains($0) }
    var tried: Set<Int> = []
    var next = ours.first
    while let version = next {
      tried.insert(version)
      next = nil
      var request = transport.request("OPTIONS", configuration.endpoint)
      uploader.applyDraftFields(to: &request, version: version)
      uploader.authorize(&request)
      let (data, response) = try await withRetries(isRetryable: { $0.isRetryable }) { _ in
        try await transport.send(request, body: .empty)
      }
      let status = response.statusCode
      if (200..<300).contains(status) {
        guard let field = response.value(forHTTPHeaderField: "Upload-Limit") else { return nil }
        return (version, UploadLimits(fieldValue: field) ?? UploadLimits())
      }
      if status == 400,
        let named = StructuredField.integer(response.value(forHTTPHeaderField: "Upload-Draft-Interop-Version")),
        ours.contains(Int(named)), !tried.contains(Int(named))
      {
        next = Int(named)
        continue
      }
      if status == 401 || status == 403 {
        throw ImageUploadError.httpStatus(status, message: uploader.serverMessage(in: data))
      }
      if (500..<600).contains(status) {
        throw ImageUploadError.httpStatus(status, message: uploader.serverMessage(in: data))
      }
    }
    return nil
  }

  private func create(version: Int, limits: UploadLimits) async throws -> ResumableUploadReceipt {
    let endpoint = configuration.endpoint
    let firstLength = Self.appendLength(from: 0, size: size, limits: limits)
    var request = transport.request(configuration.method, endpoint)
    uploader.applyDraftFields(to: &request, version: version)
    request.setValue(firstLength == size ? "?1" : "?0", forHTTPHeaderField: "Upload-Complete")
    request.setValue(String(size), forHTTPHeaderField: "Upload-Length")
    request.setValue(file.contentType, forHTTPHeaderField: "Content-Type")
    if let disposition = Self.contentDisposition(file.filename) {
      request.setValue(disposition, forHTTPHeaderField: "Content-Disposition")
    }
    uploader.authorize(&request)

    let announced = LockedValue<ResumableUploadResource?>(nil)
    let events = events
    let informational: @Sendable (HTTPURLResponse) -> Void = { response in
      // The draft: ignore a 104 without our interop version.
      guard response.statusCode == 104,
        response.value(forHTTPHeaderField: "Upload-Draft-Interop-Version") == String(version),
        let url = Self.location(in: response, relativeTo: endpoint)
      else { return }
      let resource = makeResource(url: url, version: version, limits: Self.limits(in: response) ?? limits)
      let isNew = announced.withLock { current -> Bool in
        guard current == nil else { return false }
        current = resource
        return true
      }
      if isNew { events(.created(resource)) }
    }

    let data: Data
    let response: HTTPURLResponse
    do {
      (data, response) = try await send(
        request, body: .fileRange(file.url, offset: 0, length: firstLength, fileSize: size), from: 0,
        informational: informational)
    } catch let error as ImageUploadError where Self.isInterruption(error) {
      guard let resource = announced.value else { throw error }
      return try await resume(resource)
    }
    let status = response.statusCode
    if Self.isCompletion(response) {
      return try receipt(data, response, mode: .resumable(interopVersion: version))
    }
    let finalLocation = Self.location(in: response, relativeTo: endpoint)
    if let known = announced.value?.url, let finalLocation, known != finalLocation {
      // The draft: interim and final responses must agree; a client that sees otherwise cancels the upload.
      await cancelQuietly(makeResource(url: known, version: version, limits: limits))
      throw ImageUploadError.invalidResponse("the server named two different upload resources")
    }
    let resource =
      announced.value
      ?? finalLocation.map { makeResource(url: $0, version: version, limits: Self.limits(in: response) ?? limits) }
    if (200..<300).contains(status), StructuredField.boolean(response.value(forHTTPHeaderField: "Upload-Complete")) == false,
      let resource
    {
      if announced.value == nil { events(.created(resource)) }
      let offset = StructuredField.integer(response.value(forHTTPHeaderField: "Upload-Offset")) ?? firstLength
      return try await resume(resource, confirmedOffset: offset)
    }
    if (200..<300).contains(status), firstLength == size {
      // Answered without the draft's fields: the server took it as a plain upload.
      return try receipt(data, response, mode: .plain)
    }
    if (500..<600).contains(status), let resource {
      return try await resume(resource)
    }
    throw failure(status: status, data: data)
  }

  // MARK: Resumption

  /// Continues the upload at `resource`: offset, then appends, until complete or out of attempts.
  ///
  /// - Parameter confirmedOffset: An offset the server just confirmed (no `HEAD` needed before the first append).
  private func resume(_ resource: ResumableUploadResource, confirmedOffset: Int64? = nil) async throws
    -> ResumableUploadReceipt
  {
    var known = confirmedOffset
    while true {
      let fatal = LockedValue<ResumableUploadError?>(nil)
      let progress = LockedValue((start: Int64(-1), latest: Int64(-1)))
      do {
        return try await withRetries { _ in
          do {
            return try await appendAll(resource, knownOffset: known, progress: progress)
          } catch let error as ResumableUploadError {
            fatal.setValue(error)
            throw ImageUploadError.invalidRequest("stopped")
          }
        }
      } catch {
        if let fatal = fatal.value {
          if case .uploadGone = fatal, configuration.restartWhenGone, restartOnce() {
            return try await start()
          }
          throw fatal
        }
        // A fresh budget when the server's offset moved forward during the attempts that failed and the last one
        // broke off (a dropped connection, a 5xx). Not after a timeout: a server that takes bytes and never
        // answers (Apple's reference server does so with an expired upload) would otherwise be fed forever.
        let moved = progress.value
        guard !(error is CancellationError), !Task.isCancelled, moved.latest > moved.start, moved.start >= 0,
          let failure = error as? ImageUploadError, Self.isResumable(failure.lastFailure),
          !failure.lastFailure.isTimeout
        else { throw error }
        known = nil
      }
    }
  }

  /// One attempt: the offset (asked, unless just confirmed), then appends until the upload is complete.
  private func appendAll(
    _ resource: ResumableUploadResource, knownOffset: Int64?, progress: LockedValue<(start: Int64, latest: Int64)>
  ) async throws -> ResumableUploadReceipt {
    var offset: Int64
    if let knownOffset {
      offset = knownOffset
    } else {
      let (serverOffset, complete) = try await queryOffset(resource)
      if complete { return try await confirmCompletion(resource, offset: serverOffset) }
      offset = serverOffset
      reporter.update(offset)
      let resumption = counters.withLock { counters -> Int in
        counters.resumptions += 1
        return counters.resumptions
      }
      events(.resuming(offset: offset, attempt: resumption))
    }
    guard offset <= size else {
      await cancelQuietly(resource)
      throw ResumableUploadError.serverAheadOfFile(serverOffset: offset, fileSize: size)
    }
    progress.withLock {
      if $0.start < 0 { $0.start = offset }
      $0.latest = max($0.latest, offset)
    }
    while true {
      await uploader.willAppend?(resource, offset)
      let length = Self.appendLength(from: offset, size: size, limits: resource.limits)
      var request = transport.request("PATCH", resource.url)
      uploader.applyDraftFields(to: &request, version: resource.interopVersion)
      request.setValue("application/partial-upload", forHTTPHeaderField: "Content-Type")
      request.setValue(String(offset), forHTTPHeaderField: "Upload-Offset")
      request.setValue(offset + length == size ? "?1" : "?0", forHTTPHeaderField: "Upload-Complete")
      request.setValue(String(size), forHTTPHeaderField: "Upload-Length")
      uploader.authorize(&request)
      let (data, response) = try await send(
        request, body: .fileRange(file.url, offset: offset, length: length, fileSize: size), from: offset)
      let status = response.statusCode
      if Self.isCompletion(response) {
        return try receipt(data, response, mode: .resumable(interopVersion: resource.interopVersion))
      }
      switch status {
      case 200..<300:
        let next = StructuredField.integer(response.value(forHTTPHeaderField: "Upload-Offset")) ?? offset + length
        guard next > offset, next <= size else {
          throw ImageUploadError.invalidResponse("an append moved the upload's offset from \(offset) to \(next)")
        }
        offset = next
        progress.withLock { $0.latest = max($0.latest, offset) }
      case 409:
        // The server's offset is not ours: ask again (the next attempt starts with HEAD), never guess.
        throw ImageUploadError.httpStatus(409, message: "the upload's offset on the server differs from \(offset)")
      case 404, 410:
        throw ResumableUploadError.uploadGone(host: HTTPTransport.hostDescription(resource.url))
      default:
        throw failure(status: status, data: data)
      }
    }
  }

  /// `HEAD` on the upload resource: its offset and whether it is complete.
  private func queryOffset(_ resource: ResumableUploadResource) async throws -> (Int64, Bool) {
    var request = transport.request("HEAD", resource.url)
    uploader.applyDraftFields(to: &request, version: resource.interopVersion)
    uploader.authorize(&request)
    let (data, response) = try await transport.send(request, body: .empty)
    let status = response.statusCode
    if status == 404 || status == 410 {
      throw ResumableUploadError.uploadGone(host: HTTPTransport.hostDescription(resource.url))
    }
    guard (200..<300).contains(status) else { throw failure(status: status, data: data) }
    guard let offset = StructuredField.integer(response.value(forHTTPHeaderField: "Upload-Offset")) else {
      throw ImageUploadError.invalidResponse("the upload's HEAD has no Upload-Offset")
    }
    return (offset, Self.isCompletion(response))
  }

  /// The server says the upload is complete but we have no final response: an empty completing append asks it to
  /// answer again (the draft allows a replay); otherwise the outcome is unconfirmed.
  private func confirmCompletion(_ resource: ResumableUploadResource, offset: Int64) async throws
    -> ResumableUploadReceipt
  {
    let host = HTTPTransport.hostDescription(resource.url)
    guard offset == size else { throw ResumableUploadError.serverAheadOfFile(serverOffset: offset, fileSize: size) }
    var request = transport.request("PATCH", resource.url)
    uploader.applyDraftFields(to: &request, version: resource.interopVersion)
    request.setValue("application/partial-upload", forHTTPHeaderField: "Content-Type")
    request.setValue(String(offset), forHTTPHeaderField: "Upload-Offset")
    request.setValue("?1", forHTTPHeaderField: "Upload-Complete")
    uploader.authorize(&request)
    guard let (data, response) = try? await transport.send(request, body: .empty), Self.isCompletion(response),
      (200..<300).contains(response.statusCode)
    else {
      throw ResumableUploadError.completionUnconfirmed(host: host)
    }
    return try receipt(data, response, mode: .resumable(interopVersion: resource.interopVersion))
  }

  // MARK: Plain upload

  private func plainUpload() async throws -> ResumableUploadReceipt {
    var request = transport.request(configuration.method, configuration.endpoint)
    request.setValue(file.contentType, forHTTPHeaderField: "Content-Type")
    if let disposition = Self.contentDisposition(file.filename) {
      request.setValue(disposition, forHTTPHeaderField: "Content-Disposition")
    }
    uploader.authorize(&request)
    let request0 = request
    // Only an idempotent method may be repeated.
    let policy = configuration.method.uppercased() == "PUT" ? configuration.retryPolicy : .never
    let (data, response) = try await withRetries(policy: policy) { _ in
      let (data, response) = try await send(
        request0, body: .wholeFile(file.url), from: 0)
      if (500..<600).contains(response.statusCode) {
        throw ImageUploadError.httpStatus(response.statusCode, message: uploader.serverMessage(in: data))
      }
      return (data, response)
    }
    guard (200..<300).contains(response.statusCode) else {
      throw failure(status: response.statusCode, data: data)
    }
    return try receipt(data, response, mode: .plain)
  }

  // MARK: Parts

  /// Sends `request`; its body's bytes count towards progress from `offset` and towards the bytes sent.
  private func send(
    _ request: URLRequest,
    body: ResumableUploadTransport.Body,
    from offset: Int64,
    informational: (@Sendable (HTTPURLResponse) -> Void)? = nil
  ) async throws -> (Data, HTTPURLResponse) {
    let sentInRequest = LockedValue<Int64>(0)
    defer { counters.withLock { $0.bytesSent += sentInRequest.value } }
    let reporter = reporter
    let (data, response) = try await transport.send(request, body: body, informational: informational) { total in
      sentInRequest.withLock { $0 = max($0, total) }
      reporter.update(offset + total)
    }
    // A 2xx answer acknowledges the whole body. Count it so: FoundationNetworking can deliver the last
    // `didSendBodyData` after the response (seen under load: 265 KB of 10 MB missing from `bytesSent`).
    if (200..<300).contains(response.statusCode) {
      let length = body.length ?? size
      sentInRequest.withLock { $0 = max($0, length) }
    }
    return (data, response)
  }

  /// The receipt for a final 2xx response, once every size it states matches the file.
  private func receipt(_ data: Data, _ response: HTTPURLResponse, mode: ResumableUploadReceipt.Mode) throws
    -> ResumableUploadReceipt
  {
    let status = response.statusCode
    guard (200..<300).contains(status) else { throw failure(status: status, data: data) }
    let host = HTTPTransport.hostDescription(response.url)
    if let offset = StructuredField.integer(response.value(forHTTPHeaderField: "Upload-Offset")), offset != size {
      throw ImageUploadError.incompleteUpload(host: host, detail: "the server confirmed \(offset) of \(size) bytes")
    }
    struct Answer: Decodable {
      let fileId: String?
      let size: Int64?
      let sha256: String?
    }
    let answer = try? JSONDecoder().decode(Answer.self, from: data)
    if let stated = answer?.size, stated != size {
      throw ImageUploadError.incompleteUpload(host: host, detail: "the server stored \(stated) of \(size) bytes")
    }
    reporter.update(size)
    let counters = counters.value
    return ResumableUploadReceipt(
      mode: mode, status: status, body: data, fileID: answer?.fileId, sha256: answer?.sha256?.lowercased(),
      size: size, bytesSent: counters.bytesSent, resumptions: counters.resumptions)
  }

  /// Runs `operation` under the configuration's retry policy (or `policy`), retrying interruptions (lost or
  /// refused connections: a server restarting), timeouts, 5xx answers and offset conflicts by default.
  private func withRetries<Value: Sendable>(
    policy: RetryPolicy? = nil,
    isRetryable: (ImageUploadError) -> Bool = Self.isResumable,
    _ operation: (_ attempt: Int) async throws -> Value
  ) async throws -> Value {
    try await (policy ?? configuration.retryPolicy).run(
      clock: uploader.clock, jitter: uploader.jitter, isRetryable: isRetryable, operation)
  }

  private func makeResource(url: URL, version: Int, limits: UploadLimits) -> ResumableUploadResource {
    ResumableUploadResource(
      url: url, interopVersion: version, limits: limits, fileSize: size, fileModificationDate: modificationDate)
  }

  private func cancelQuietly(_ resource: ResumableUploadResource) async {
    try? await uploader.cancel(resource)
  }

  /// True the first time only: a run starts afresh at most once.
  private func restartOnce() -> Bool {
    counters.withLock { counters in
      guard !counters.restarted else { return false }
      counters.restarted = true
      return true
    }
  }

  static func isInterruption(_ error: ImageUploadError) -> Bool {
    switch error {
    case .connectionLost, .timedOut, .network, .cannotConnect: return true
    default: return false
    }
  }

  /// Worth another attempt of a resumption: an interruption, a 5xx, an offset conflict.
  static func isResumable(_ error: ImageUploadError) -> Bool {
    if case let .httpStatus(status, _) = error, status == 409 { return true }
    return isInterruption(error) || error.isRetryable
  }

  /// `Upload-Complete: ?1`, or `Upload-Incomplete: ?0` (interop versions 3 to 6 of Apple's server).
  static func isCompletion(_ response: HTTPURLResponse) -> Bool {
    StructuredField.boolean(response.value(forHTTPHeaderField: "Upload-Complete")) == true
      || StructuredField.boolean(response.value(forHTTPHeaderField: "Upload-Incomplete")) == false
  }

  static func location(in response: HTTPURLResponse, relativeTo base: URL) -> URL? {
    guard let value = response.value(forHTTPHeaderField: "Location"),
      let url = URL(string: value, relativeTo: base)?.absoluteURL,
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
    else { return nil }
    return url
  }

  static func limits(in response: HTTPURLResponse) -> UploadLimits? {
    response.value(forHTTPHeaderField: "Upload-Limit").flatMap(UploadLimits.init(fieldValue:))
  }

  /// The next request's body length: the rest, or `max-append-size` of it.
  static func appendLength(from offset: Int64, size: Int64, limits: UploadLimits) -> Int64 {
    let rest = size - offset
    guard let maxAppend = limits.maxAppendSize, maxAppend > 0 else { return rest }
    return min(rest, maxAppend)
  }

  private func failure(status: Int, data: Data) -> any Error {
    ImageUploadError.httpStatus(status, message: uploader.serverMessage(in: data))
  }

  /// `inline; filename="…"` for a plain ASCII name, `inline; filename*=UTF-8''…` otherwise.
  static func contentDisposition(_ filename: String?) -> String? {
    guard let filename, !filename.isEmpty else { return nil }
    let plain = filename.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }
    if plain { return "inline; filename=\"\(filename)\"" }
    var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(0x80)))
    allowed.insert(charactersIn: "!#$&+-.^_`|~")
    let encoded = filename.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    return encoded.isEmpty ? nil : "inline; filename*=UTF-8''\(encoded)"
  }

  static func modificationDate(of url: URL) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
  }
}

extension ImageUploadError {
  fileprivate var isTimeout: Bool {
    if case .timedOut = self { return true }
    return false
  }

  /// The failure itself, or the last one of ``attemptsFailed(count:last:)``.
  fileprivate var lastFailure: ImageUploadError {
    if case let .attemptsFailed(_, last) = self { return last.lastFailure }
    return self
  }
}

/// The progress of one upload across its requests: never goes backwards (after an interruption it holds until the
/// re-sent bytes pass it), reports whole-percent steps only, and nothing after ``close()``.
final class MonotonicProgress: Sendable {
  private struct Counters {
    var completed: Int64 = 0
    var lastPercent = -1
    var isClosed = false
  }

  private let total: Int64
  private let handler: @Sendable (UploadProgress) -> Void
  private let counters = LockedValue(Counters())

  init(total: Int64, handler: @escaping @Sendable (UploadProgress) -> Void) {
    self.total = total
    self.handler = handler
  }

  /// The upload has `bytes` of the file on the way or at the server (clamped to the file's size).
  func update(_ bytes: Int64) {
    counters.withLock { counters in
      guard !counters.isClosed else { return }
      let clamped = min(max(bytes, 0), total)
      guard clamped > counters.completed || counters.lastPercent < 0 else { return }
      counters.completed = max(clamped, counters.completed)
      let progress = UploadProgress(completedBytes: counters.completed, totalBytes: total)
      guard progress.percent > counters.lastPercent else { return }
      counters.lastPercent = progress.percent
      // Under the lock, so that no report can follow `close()`.
      handler(progress)
    }
  }

  /// Stops reporting; later updates are dropped.
  func close() {
    counters.withLock { $0.isClosed = true }
  }
}
