import Foundation

extension ResumableUploadRun {
  // MARK: Resumption

  /// Continues the upload at `resource`: offset, then appends, until complete or out of attempts.
  ///
  /// - Parameter confirmedOffset: An offset the server just confirmed (no `HEAD` needed before the first append).
  ///   Only the first attempt uses it: after a failed append (a lost answer, a timeout, a 409) the server may have
  ///   taken bytes the client never saw acknowledged, and the draft takes the offset of an append from the
  ///   immediately previous response, so every later attempt asks for it again.
  func resume(_ resource: ResumableUploadResource, confirmedOffset: Int64? = nil) async throws
    -> ResumableUploadReceipt
  {
    var known = confirmedOffset
    while true {
      let fatal = LockedValue<ResumableUploadError?>(nil)
      let progress = LockedValue((start: Int64(-1), latest: Int64(-1)))
      do {
        return try await withRetries { attempt in
          do {
            return try await appendAll(resource, knownOffset: attempt == 1 ? known : nil, progress: progress)
          } catch let error as ResumableUploadError {
            fatal.setValue(error)
            throw HTTPError.invalidRequest("stopped")
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
          let failure = error as? HTTPError, Self.isResumable(failure.lastFailure),
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
      var request = HTTPRequest(method: "PATCH", url: resource.url)
      uploader.applyDraftFields(to: &request, version: resource.interopVersion)
      request.setHeader("Content-Type", "application/partial-upload")
      request.setHeader("Upload-Offset", String(offset))
      request.setHeader("Upload-Complete", offset + length == size ? "?1" : "?0")
      request.setHeader("Upload-Length", String(size))
      uploader.authorize(&request)
      request.body = HTTPRequestBody([.file(file.url, offset: offset, length: length)])
      request.streamsBody = true
      let response = try await send(request, from: offset)
      let status = response.status
      if Self.isCompletion(response.headers) {
        return try receipt(response, mode: .resumable(interopVersion: resource.interopVersion))
      }
      switch status {
      case 200..<300:
        let next = StructuredField.integer(response.header("Upload-Offset")) ?? offset + length
        guard next > offset, next <= size else {
          throw HTTPError.invalidResponse("an append moved the upload's offset from \(offset) to \(next)")
        }
        offset = next
        progress.withLock { $0.latest = max($0.latest, offset) }
      case 409:
        // The server's offset is not ours: ask again (the next attempt starts with HEAD), never guess.
        throw HTTPError.httpStatus(409, message: "the upload's offset on the server differs from \(offset)")
      case 404, 410:
        throw ResumableUploadError.uploadGone(host: HTTPTransport.hostDescription(resource.url))
      default:
        throw failure(response)
      }
    }
  }

  /// `HEAD` on the upload resource: its offset and whether it is complete.
  private func queryOffset(_ resource: ResumableUploadResource) async throws -> (Int64, Bool) {
    var request = HTTPRequest(method: "HEAD", url: resource.url)
    uploader.applyDraftFields(to: &request, version: resource.interopVersion)
    uploader.authorize(&request)
    let response = try await transport.send(request, redirects: ResumableUploader.redirects)
    let status = response.status
    if status == 404 || status == 410 {
      throw ResumableUploadError.uploadGone(host: HTTPTransport.hostDescription(resource.url))
    }
    guard (200..<300).contains(status) else { throw failure(response) }
    guard let offset = StructuredField.integer(response.header("Upload-Offset")) else {
      throw HTTPError.invalidResponse("the upload's HEAD has no Upload-Offset")
    }
    return (offset, Self.isCompletion(response.headers))
  }

  /// The server says the upload is complete but we have no final response: an empty completing append asks it to
  /// answer again (the draft allows a replay); otherwise the outcome is unconfirmed.
  private func confirmCompletion(_ resource: ResumableUploadResource, offset: Int64) async throws
    -> ResumableUploadReceipt
  {
    let host = HTTPTransport.hostDescription(resource.url)
    guard offset == size else { throw ResumableUploadError.serverAheadOfFile(serverOffset: offset, fileSize: size) }
    var request = HTTPRequest(method: "PATCH", url: resource.url)
    uploader.applyDraftFields(to: &request, version: resource.interopVersion)
    request.setHeader("Content-Type", "application/partial-upload")
    request.setHeader("Upload-Offset", String(offset))
    request.setHeader("Upload-Complete", "?1")
    uploader.authorize(&request)
    guard let response = try? await transport.send(request, redirects: ResumableUploader.redirects),
      Self.isCompletion(response.headers), (200..<300).contains(response.status)
    else {
      throw ResumableUploadError.completionUnconfirmed(host: host)
    }
    return try receipt(response, mode: .resumable(interopVersion: resource.interopVersion))
  }
}

extension HTTPError {
  fileprivate var isTimeout: Bool {
    if case .timedOut = self { return true }
    return false
  }

  /// The failure itself, or the last one of ``attemptsFailed(count:last:)``.
  fileprivate var lastFailure: HTTPError {
    if case let .attemptsFailed(_, last) = self { return last.lastFailure }
    return self
  }
}
