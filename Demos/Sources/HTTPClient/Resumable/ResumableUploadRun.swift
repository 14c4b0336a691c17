import Foundation

/// One call of ``ResumableUploader/upload(_:resuming:events:)``: the file checked once, one transport, the
/// progress and byte counts of every request.
struct ResumableUploadRun: Sendable {
  let uploader: ResumableUploader
  let file: ResumableUploadFile
  let events: @Sendable (ResumableUploadEvent) -> Void
  let size: Int64
  let modificationDate: Date?
  let transport: HTTPTransport
  let reporter: MonotonicProgress
  let counters = LockedValue(Counters())

  struct Counters {
    var bytesSent: Int64 = 0
    var resumptions = 0
    var restarted = false
  }

  var configuration: ResumableUploadConfiguration { uploader.configuration }

  init(
    uploader: ResumableUploader, file: ResumableUploadFile, events: @escaping @Sendable (ResumableUploadEvent) -> Void
  )
    throws
  {
    self.uploader = uploader
    self.file = file
    self.events = events
    self.size = try UploadFile.byteCount(of: file.url)
    self.modificationDate = Self.modificationDate(of: file.url)
    guard HTTPTransport.isSafeHeaderValue(file.contentType) else {
      throw HTTPError.invalidRequest("the content type \(file.contentType.debugDescription) is not valid")
    }
    let configuration = uploader.configuration
    self.transport = uploader.makeTransport(resourceTimeout: configuration.resourceTimeout)
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

  func start() async throws -> ResumableUploadReceipt {
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
    let ours = configuration.interopVersions.filter {
      ResumableUploadConfiguration.supportedInteropVersions.contains($0)
    }
    var tried: Set<Int> = []
    var next = ours.first
    while let version = next {
      tried.insert(version)
      next = nil
      var request = HTTPRequest(method: "OPTIONS", url: configuration.endpoint)
      uploader.applyDraftFields(to: &request, version: version)
      uploader.authorize(&request)
      let response = try await withRetries(isRetryable: { $0.isRetryable }) { _ in
        try await transport.send(request, redirects: ResumableUploader.redirects)
      }
      let status = response.status
      if (200..<300).contains(status) {
        guard let field = response.header("Upload-Limit") else { return nil }
        return (version, UploadLimits(fieldValue: field) ?? UploadLimits())
      }
      if status == 400,
        let named = StructuredField.integer(response.header("Upload-Draft-Interop-Version")),
        ours.contains(Int(named)), !tried.contains(Int(named))
      {
        next = Int(named)
        continue
      }
      if status == 401 || status == 403 || (500..<600).contains(status) {
        throw failure(response)
      }
    }
    return nil
  }

  private func create(version: Int, limits: UploadLimits) async throws -> ResumableUploadReceipt {
    let endpoint = configuration.endpoint
    let firstLength = Self.appendLength(from: 0, size: size, limits: limits)
    var request = HTTPRequest(method: configuration.method, url: endpoint)
    uploader.applyDraftFields(to: &request, version: version)
    request.setHeader("Upload-Complete", firstLength == size ? "?1" : "?0")
    request.setHeader("Upload-Length", String(size))
    request.setHeader("Content-Type", file.contentType)
    if let disposition = Self.contentDisposition(file.filename) {
      request.setHeader("Content-Disposition", disposition)
    }
    uploader.authorize(&request)

    let announced = LockedValue<ResumableUploadResource?>(nil)
    let events = events
    let informational: @Sendable (HTTPResponse.Informational) -> Void = { response in
      // The draft: ignore a 104 without our interop version.
      guard response.status == 104,
        response.headers["Upload-Draft-Interop-Version"] == String(version),
        let url = Self.location(in: response.headers, relativeTo: endpoint)
      else { return }
      let resource = makeResource(url: url, version: version, limits: Self.limits(in: response.headers) ?? limits)
      let isNew = announced.withLock { current -> Bool in
        guard current == nil else { return false }
        current = resource
        return true
      }
      if isNew { events(.created(resource)) }
    }

    request.body = HTTPRequestBody([.file(file.url, offset: 0, length: firstLength)])
    request.streamsBody = true
    let response: HTTPResponse
    do {
      response = try await send(request, from: 0, informational: informational)
    } catch let error as HTTPError where Self.isInterruption(error) {
      guard let resource = announced.value else { throw error }
      return try await resume(resource)
    }
    let status = response.status
    if Self.isCompletion(response.headers) {
      return try receipt(response, mode: .resumable(interopVersion: version))
    }
    let finalLocation = Self.location(in: response.headers, relativeTo: endpoint)
    if let known = announced.value?.url, let finalLocation, known != finalLocation {
      // The draft: interim and final responses must agree; a client that sees otherwise cancels the upload.
      await cancelQuietly(makeResource(url: known, version: version, limits: limits))
      throw HTTPError.invalidResponse("the server named two different upload resources")
    }
    let resource =
      announced.value
      ?? finalLocation.map {
        makeResource(url: $0, version: version, limits: Self.limits(in: response.headers) ?? limits)
      }
    if (200..<300).contains(status), StructuredField.boolean(response.header("Upload-Complete")) == false,
      let resource
    {
      if announced.value == nil { events(.created(resource)) }
      let offset = StructuredField.integer(response.header("Upload-Offset")) ?? firstLength
      return try await resume(resource, confirmedOffset: offset)
    }
    if (200..<300).contains(status), firstLength == size {
      // Answered without the draft's fields: the server took it as a plain upload.
      return try receipt(response, mode: .plain)
    }
    if (500..<600).contains(status), let resource {
      return try await resume(resource)
    }
    throw failure(response)
  }

  // MARK: Plain upload

  private func plainUpload() async throws -> ResumableUploadReceipt {
    var request = HTTPRequest(method: configuration.method, url: configuration.endpoint)
    request.setHeader("Content-Type", file.contentType)
    if let disposition = Self.contentDisposition(file.filename) {
      request.setHeader("Content-Disposition", disposition)
    }
    uploader.authorize(&request)
    // The whole file with a `Content-Length`, for servers that need one.
    request.body = try .file(file.url)
    let request0 = request
    // Only an idempotent method may be repeated.
    let policy = configuration.method.uppercased() == "PUT" ? configuration.retryPolicy : .never
    let response = try await withRetries(policy: policy) { _ in
      let response = try await send(request0, from: 0)
      if (500..<600).contains(response.status) { throw failure(response) }
      return response
    }
    guard (200..<300).contains(response.status) else { throw failure(response) }
    return try receipt(response, mode: .plain)
  }

  // MARK: Parts

  /// Sends `request`; its body's bytes count towards progress from `offset` and towards the bytes sent.
  func send(
    _ request: HTTPRequest,
    from offset: Int64,
    informational: (@Sendable (HTTPResponse.Informational) -> Void)? = nil
  ) async throws -> HTTPResponse {
    let sentInRequest = LockedValue<Int64>(0)
    defer { counters.withLock { $0.bytesSent += sentInRequest.value } }
    let reporter = reporter
    let progress = HTTPTransport.Progress.everyWrite { total in
      sentInRequest.withLock { $0 = max($0, total) }
      reporter.update(offset + total)
    }
    let response = try await transport.send(
      request, redirects: ResumableUploader.redirects, progress: progress, informational: informational)
    // A 2xx answer acknowledges the whole body. Count it so: FoundationNetworking can deliver the last
    // `didSendBodyData` after the response (seen under load: 265 KB of 10 MB missing from `bytesSent`).
    if (200..<300).contains(response.status) {
      sentInRequest.withLock { $0 = max($0, request.body.length) }
    }
    return response
  }

  /// The receipt for a final 2xx response, once every size it states matches the file.
  func receipt(_ response: HTTPResponse, mode: ResumableUploadReceipt.Mode) throws -> ResumableUploadReceipt {
    let status = response.status
    guard (200..<300).contains(status) else { throw failure(response) }
    let host = HTTPTransport.hostDescription(response.url)
    if let offset = StructuredField.integer(response.header("Upload-Offset")), offset != size {
      throw HTTPError.incompleteUpload(host: host, detail: "the server confirmed \(offset) of \(size) bytes")
    }
    struct Answer: Decodable {
      let fileId: String?
      let size: Int64?
      let sha256: String?
    }
    let answer = try? JSONDecoder().decode(Answer.self, from: response.body)
    if let stated = answer?.size, stated != size {
      throw HTTPError.incompleteUpload(host: host, detail: "the server stored \(stated) of \(size) bytes")
    }
    reporter.update(size)
    let counters = counters.value
    return ResumableUploadReceipt(
      mode: mode, status: status, body: response.body, fileID: answer?.fileId, sha256: answer?.sha256?.lowercased(),
      size: size, bytesSent: counters.bytesSent, resumptions: counters.resumptions)
  }

  /// Runs `operation` under the configuration's retry policy (or `policy`), retrying interruptions (lost or
  /// refused connections: a server restarting), timeouts, 5xx answers and offset conflicts by default.
  func withRetries<Value: Sendable>(
    policy: RetryPolicy? = nil,
    isRetryable: (HTTPError) -> Bool = Self.isResumable,
    _ operation: (_ attempt: Int) async throws -> Value
  ) async throws -> Value {
    try await (policy ?? configuration.retryPolicy).run(
      clock: uploader.clock, jitter: uploader.jitter, isRetryable: isRetryable, operation)
  }

  func makeResource(url: URL, version: Int, limits: UploadLimits) -> ResumableUploadResource {
    ResumableUploadResource(
      url: url, interopVersion: version, limits: limits, fileSize: size, fileModificationDate: modificationDate)
  }

  func cancelQuietly(_ resource: ResumableUploadResource) async {
    try? await uploader.cancel(resource)
  }

  /// True the first time only: a run starts afresh at most once.
  func restartOnce() -> Bool {
    counters.withLock { counters in
      guard !counters.restarted else { return false }
      counters.restarted = true
      return true
    }
  }
}
