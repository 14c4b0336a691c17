import Foundation

@testable import HTTPClient

/// The body of `Scripts/fuzz socket-engine`, run by the corpus test over every committed input too: the input is
/// what a server on 127.0.0.1 (``LoopbackResponder``, in this process) answers to a `PUT` with a small body, read
/// through ``SocketHTTPEngine`` end to end — connection, request written, response read as it arrives — as an upload
/// to a LAN server reads it (the engine's exchange, run on this thread instead of one of its own).
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - the request ends in a response or an ``HTTPError``, never a trap, a hang or another error;
/// - it is what ``HTTPResponseParser`` makes of the same bytes in one read (the same status, headers, interim
///   responses and body; its error, or `connectionLost` when the server closed before a whole head), with every
///   interim response passed to the `informational` callback as it came.
///
/// ```swift
/// SocketEngineFuzz.fuzz(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n".utf8))
/// ```
enum SocketEngineFuzz {
  /// The response body limit here: small enough for an input to pass it.
  static let maxResponseBytes = 2_048

  static func fuzz(_ data: Data) {
    #if canImport(Glibc)
      let responder = LoopbackResponder.shared
      responder.answer = data
      guard let url = URL(string: "http://127.0.0.1:\(responder.port)/upload?X-Amz-Signature=fuzz") else {
        fuzzFailure("no URL for port \(responder.port)")
      }
      let request = HTTPRequest(
        method: "PUT", url: url, headers: [("Content-Type", "image/png")], body: .bytes(Data("0123456789".utf8)))
      let collected = LockedValue<[HTTPResponse.Informational]>([])
      // The exchange `SocketHTTPEngine.send` runs on a thread of its own, run here on this one: the input's work is
      // over when it returns (a thread still letting go of its exchange looked like a leak to LeakSanitizer).
      let result: Result<HTTPResponse, any Error>
      do {
        let exchange = try SocketExchange(
          request: request, idleTimeout: 5, totalTimeout: 10, maxResponseBytes: maxResponseBytes, progress: nil
        ) { interim in
          collected.withLock { $0.append(interim) }
        }
        result = exchange.run()
      } catch {
        fuzzFailure("the request cannot be made: \(error)")
      }
      check(result, interim: collected.value, against: expected(data))
    #endif
  }

  /// What the parser makes of `data` read at once, the connection closing after it.
  private static func expected(_ data: Data) -> Result<HTTPResponse, HTTPError> {
    var parser = HTTPResponseParser(requestMethod: "PUT", maxBodyBytes: maxResponseBytes)
    let host = "127.0.0.1:\(LoopbackResponder.shared.port)"
    do {
      try parser.consume(data)
      guard let head = parser.finalHead else { return .failure(.connectionLost(host: host)) }
      var body = try parser.body(atEndOfStream: false)
      if body == .incomplete { body = try parser.body(atEndOfStream: true) }
      guard case let .complete(bytes) = body else { return .failure(.connectionLost(host: host)) }
      return .success(
        HTTPResponse(
          status: head.status, headers: head.headers, body: bytes, url: URL(fileURLWithPath: "/"),
          informational: parser.informational, bodyBytesSent: 10, receivedWholeBody: true))
    } catch let error as HTTPError {
      return .failure(error)
    } catch {
      fuzzFailure("the parser threw \(error)")
    }
  }

  private static func check(
    _ result: Result<HTTPResponse, any Error>, interim: [HTTPResponse.Informational],
    against expected: Result<HTTPResponse, HTTPError>
  ) {
    switch (result, expected) {
    case let (.success(response), .success(wanted)):
      fuzzRequire(
        response.status == wanted.status && response.headers == wanted.headers && response.body == wanted.body,
        "HTTP \(response.status) with \(response.body.count) bytes where the parser read \(wanted.status)")
      fuzzRequire(response.informational == wanted.informational, "interim responses differ from the parser's")
      fuzzRequire(interim == wanted.informational, "interim responses passed on differ from the parser's")
      fuzzRequire(response.bodyBytesSent == 10 && response.receivedWholeBody, "the body was not all sent")
    case let (.failure(error), .failure(wanted)):
      fuzzRequire(error as? HTTPError == wanted, "\(error) where the parser threw \(wanted)")
    case let (.success(response), .failure(wanted)):
      fuzzFailure("HTTP \(response.status) where the parser threw \(wanted)")
    case let (.failure(error), .success(wanted)):
      fuzzFailure("\(error) where the parser read HTTP \(wanted.status)")
    }
  }
}
