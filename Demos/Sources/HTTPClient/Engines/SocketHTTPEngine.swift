#if canImport(Glibc)
  import Foundation
  import Glibc

  /// A small HTTP/1.1 client on POSIX sockets for **plain `http://` peers on Linux** (a LAN upload server, a local
  /// S3): one connection per request (`Connection: close`), a `Content-Length` body written from memory and from
  /// files in 1 MiB reads, the response read while the body is still going out (a server may refuse early), no
  /// redirects followed, no proxy, no TLS — `https` and proxied hosts always go through URLSession.
  ///
  /// Why: FoundationNetworking spends ~1.2 s of CPU (0.23 s user, 1.06 s system) and ~100,000 context switches per
  /// 100 MB uploaded from a file, handing each ~40 KB between libcurl's thread, a dispatch body source and the
  /// delegate queue; `curl -F` needs 0.08 s and ~230 switches. This engine writes the same bytes from one thread.
  ///
  /// Each request runs on a thread of its own (blocking in `poll`, never on the cooperative pool); cancelling the
  /// calling task wakes it through a pipe and the request ends with `CancellationError`.
  ///
  /// ```swift
  /// let engine = SocketHTTPEngine(idleTimeout: 60, totalTimeout: 3600)
  /// let response = try await engine.send(request) { sent in print(sent) }
  /// ```
  final class SocketHTTPEngine: Sendable {
    let idleTimeout: TimeInterval
    let totalTimeout: TimeInterval
    let maxResponseBytes: Int

    /// An engine whose requests fail after `idleTimeout` seconds without a byte sent or received, or after
    /// `totalTimeout` seconds in all; response bodies larger than `maxResponseBytes` are refused.
    init(idleTimeout: TimeInterval, totalTimeout: TimeInterval, maxResponseBytes: Int = 8 << 20) {
      self.idleTimeout = max(idleTimeout, 0.001)
      self.totalTimeout = max(totalTimeout, 0.001)
      self.maxResponseBytes = maxResponseBytes
    }

    /// Sends `request` (an `http` URL) and returns the final response; `progress` gets the body bytes written to the
    /// connection so far and `informational` each 1xx response as it is read, from the exchange's thread.
    func send(
      _ request: HTTPRequest,
      progress: (@Sendable (Int64) -> Void)?,
      informational: (@Sendable (HTTPResponse.Informational) -> Void)?
    ) async throws -> HTTPResponse {
      let exchange = try SocketExchange(
        request: request, idleTimeout: idleTimeout, totalTimeout: totalTimeout, maxResponseBytes: maxResponseBytes,
        progress: progress, informational: informational)
      try Task.checkCancellation()
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation {
          (continuation: CheckedContinuation<HTTPResponse, any Error>) in
          let thread = Thread { continuation.resume(with: exchange.run()) }
          thread.name = "Unidirectional.SocketHTTPEngine"
          thread.start()
        }
      } onCancel: {
        exchange.cancel()
      }
    }
  }
#endif
