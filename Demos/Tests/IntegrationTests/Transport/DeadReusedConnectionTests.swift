import Features
import Foundation
import XCTest

/// A server drops a kept-alive connection in the middle of the next request's body, without answering, as a server
/// does that closes an idle connection just as the client reuses it. The request must still arrive, whole, on a
/// new connection. Before, URLSession on Linux sent a body request on the pooled connection and failed ("network
/// error -1", "connection lost") or, for a staged multi-part body, went on from where the dead connection had left
/// the file (FoundationNetworking rewinds only a stream the delegate hands back), sent fewer bytes than its
/// `Content-Length` and waited with the server until the request timeout: "did not answer in time", the failure of
/// the backend's same-origin redirect tests under load (2 of ~30 full runs).
final class DeadReusedConnectionTests: XCTestCase {
  func testABodyRequestAfterAKeptAliveConnectionDiesArrivesWholeThroughEitherEngine() async throws {
    let folder = try makeScratchFolder("dead-reused-connection")
    let size = 4_000_000
    let file = folder.appendingPathComponent("body.bin")
    try Data(repeating: 0x5A, count: size).write(to: file)
    let bodies = [
      ("file", HTTPRequestBody([.file(file, offset: 0, length: Int64(size))])),
      ("bytes", HTTPRequestBody([.bytes(Data(repeating: 0x41, count: size))])),
      (
        "parts",
        HTTPRequestBody([.bytes(Data(repeating: 0x42, count: 1_000)), .file(file, offset: 0, length: 999_000)])
      ),
    ]
    for engine in [HTTPTransport.Engine.urlSession, .automatic] {
      for (name, body) in bodies {
        for dropAfter in [0, 100_000] {
          let context = "\(engine), \(name), dropped after \(dropAfter) body bytes"
          let server = try DroppingKeepAliveServer(dropAfter: dropAfter)
          addTeardownBlock { server.stop() }
          let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/upload"))
          let transport = HTTPTransport(
            HTTPTransport.Configuration(
              requestTimeout: 10, engine: engine, connections: .pooled(maxPerHost: 1), stagingDirectory: folder))

          let warmUp = try await transport.send(HTTPRequest(method: "GET", url: url), redirects: .sameOrigin)
          XCTAssertEqual(warmUp.status, 200, context)
          let started = ContinuousClock.now
          do {
            let response = try await transport.send(
              HTTPRequest(method: "POST", url: url, body: body), redirects: .sameOrigin)
            XCTAssertEqual(response.status, 200, context)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "received \(body.length)", context)
          } catch {
            XCTFail("\(context): \(error)")
          }
          XCTAssertLessThan(ContinuousClock.now - started, .seconds(8), "\(context): not the request timeout")
          XCTAssertEqual(server.completeBodies, [Int(body.length)], context)
        }
      }
    }
  }
}
