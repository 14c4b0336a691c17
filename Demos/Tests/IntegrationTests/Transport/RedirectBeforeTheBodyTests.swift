import Features
import Foundation
import XCTest

/// A server that answers a redirect as soon as the request's head is in and closes the connection without reading
/// the body — every time, not by chance of timing. Both engines must report the refusal, typed and at once; before,
/// FoundationNetworking (URLSession on Linux) sometimes sat on the reset connection until the request timeout and
/// the failure read "did not answer in time".
final class RedirectBeforeTheBodyTests: XCTestCase {
  private static let redirect =
    "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.2:9/elsewhere\r\nContent-Length: 0\r\n"
    + "Connection: close\r\n\r\n"

  /// Bodies of every kind the URLSession engine sends differently: bytes, a whole file, several parts (staged to a
  /// file), a streamed file range.
  private func bodies(in folder: URL) throws -> [(name: String, body: HTTPRequestBody)] {
    let file = folder.appendingPathComponent("body.bin")
    let size = 8 << 20
    try Data(repeating: 0x5A, count: size).write(to: file)
    return [
      ("bytes", HTTPRequestBody([.bytes(Data(repeating: 0x41, count: 4 << 20))])),
      ("file", HTTPRequestBody([.file(file, offset: 0, length: Int64(size))])),
      ("parts", HTTPRequestBody([.bytes(Data("--b\r\n".utf8)), .file(file, offset: 0, length: Int64(size))])),
    ]
  }

  /// The server answers right after the head, or 5 or 20 ms later (by then the client's body fills the
  /// connection's buffers), each way several times; or 1.2 s later, once each: past libcurl's 1 s wait for a
  /// `100 Continue`, so URLSession has started sending the body it held back (a slow or loaded server). Before,
  /// URLSession failed about one file upload in three with "the connection … was lost during the upload" (its write
  /// met the reset before it read the 307), or waited.
  func testARedirectAnsweredBeforeTheBodyIsReadIsRefusedAtOnceThroughEitherEngine() async throws {
    let folder = try makeScratchFolder("redirect-before-body")
    let bodies = try bodies(in: folder)
    for (delay, attempts) in [(0, 6), (0.005, 6), (0.02, 6), (1.2, 1)] {
      let server = try LoopbackStubServer(closesAfterAnswering: true, answerDelay: delay) { _ in Self.redirect }
      addTeardownBlock { server.stop() }
      let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/upload"))
      let expected = HTTPError.redirectRefused(
        status: 307, from: "127.0.0.1:\(server.port)", to: "127.0.0.2:9",
        reason: "another origin would receive the credentials and the file")

      for engine in [HTTPTransport.Engine.urlSession, .automatic] {
        let transport = HTTPTransport(
          HTTPTransport.Configuration(
            requestTimeout: 30, engine: engine, connections: .freshPerRequest, stagingDirectory: folder))
        for (name, body) in bodies {
          for attempt in 1...attempts {
            let context = "\(engine), \(name), answered after \(delay) s, #\(attempt)"
            let started = ContinuousClock.now
            do {
              _ = try await transport.send(
                HTTPRequest(method: "POST", url: url, body: body), redirects: .sameOrigin)
              XCTFail("\(context): expected the redirect to be refused")
            } catch {
              XCTAssertEqual(error as? HTTPError, expected, "\(context): \(error)")
            }
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "\(context): not the request timeout")
          }
        }
      }
    }
  }
}
