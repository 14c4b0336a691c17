import Foundation

@testable import HTTPClient

/// The body of `Scripts/fuzz http-response`, run by the corpus test over every committed input too: the input is
/// what a server sends back, read by ``HTTPResponseParser`` (and, as a chunked body on its own, by
/// ``ChunkedBodyDecoder``) whole, a byte at a time and in reads of 7 bytes, for a `GET` and a `HEAD`.
///
/// What must hold for every input (a broken property ends the process through `fuzzRequire`):
/// - reading ends in a response or an ``HTTPError/invalidResponse(_:)``;
/// - how the reads cut the bytes changes nothing: the same heads, interim responses, body or error;
/// - a body is never larger than the limit given, and a response without a body (`HEAD`, 204, 304) has none;
/// - the decoder looks at each byte once, and the head's end is searched for in time linear in its length.
///
/// ```swift
/// HTTPResponseFuzz.fuzz(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n".utf8))
/// ```
enum HTTPResponseFuzz {
  /// The body limit here: small enough for an input to pass it.
  static let maxBodyBytes = 2_048

  /// What reading one response came to.
  private struct Outcome: Equatable {
    var interim: [HTTPResponse.Informational] = []
    var head: HTTPResponseParser.Head?
    var framing = HTTPResponseParser.Framing.none
    /// The body before the connection's end, and at it.
    var body: [Result<HTTPResponseParser.Body, HTTPError>] = []
    var error: HTTPError?
  }

  static func fuzz(_ data: Data) {
    for method in ["GET", "HEAD"] {
      let whole = read(data, method: method, pieces: max(1, data.count))
      let bytewise = read(data, method: method, pieces: 1)
      fuzzRequire(read(data, method: method, pieces: 7) == whole, "\(method): reads of 7 bytes differ from one read")
      fuzzRequire(bytewise == whole, "\(method): a byte at a time differs from one read")
      for case let .success(.complete(body)) in whole.body {
        fuzzRequire(body.count <= maxBodyBytes, "\(method): a body of \(body.count) bytes past \(maxBodyBytes)")
        if method == "HEAD" || [204, 304].contains(whole.head?.status) {
          fuzzRequire(body.isEmpty, "\(method): \(whole.head?.status ?? 0) with a body")
        }
      }
    }
    decodeChunked(data)
  }

  private static func read(_ data: Data, method: String, pieces size: Int) -> Outcome {
    var parser = HTTPResponseParser(requestMethod: method, maxBodyBytes: maxBodyBytes)
    var outcome = Outcome()
    var start = data.startIndex
    do {
      while start < data.endIndex {
        let end = min(start + size, data.endIndex)
        try parser.consume(data[start..<end])
        start = end
      }
    } catch {
      outcome.error = typed(error)
    }
    if size == 1 {
      // Each byte is searched once, and the last two again after every read: linear, not quadratic.
      fuzzRequire(parser.headBytesScanned <= 3 * data.count, "\(parser.headBytesScanned) head bytes scanned")
    }
    fuzzRequire(parser.chunkedBytesScanned <= data.count, "\(parser.chunkedBytesScanned) chunked bytes scanned")
    outcome.interim = parser.informational
    outcome.head = parser.finalHead
    outcome.framing = parser.framing
    guard outcome.error == nil else { return outcome }
    for atEnd in [false, true] {
      outcome.body.append(Result { () throws(HTTPError) in try typed { try parser.body(atEndOfStream: atEnd) } })
    }
    return outcome
  }

  /// The input as a chunked body on its own: the same body or error whole and a byte at a time.
  private static func decodeChunked(_ data: Data) {
    func decode(pieces size: Int) -> Result<Data?, HTTPError> {
      var decoder = ChunkedBodyDecoder(maxBodyBytes: maxBodyBytes)
      var start = data.startIndex
      do {
        while start < data.endIndex {
          let end = min(start + size, data.endIndex)
          try decoder.feed(data[start..<end])
          start = end
        }
      } catch {
        return .failure(typed(error))
      }
      fuzzRequire(decoder.scannedBytes <= data.count, "\(decoder.scannedBytes) of \(data.count) bytes scanned")
      fuzzRequire((decoder.body?.count ?? 0) <= maxBodyBytes, "a decoded body past the limit")
      return .success(decoder.body)
    }
    fuzzRequire(decode(pieces: 1) == decode(pieces: max(1, data.count)), "a chunked body decodes differently by bytes")
  }

  private static func typed<T>(_ body: () throws -> T) throws(HTTPError) -> T {
    do {
      return try body()
    } catch {
      throw typed(error)
    }
  }

  private static func typed(_ error: any Error) -> HTTPError {
    guard let error = error as? HTTPError, case .invalidResponse = error else {
      fuzzFailure("not an invalidResponse: \(error)")
    }
    return error
  }
}
