import Features
import Foundation
import XCTest

@testable import HTTPClient

/// A server answers with a chunked body whose first chunk size is "-1". Before, the socket engine's chunk decoder
/// took the sign (`Int("-1", radix: 16)`), its index arithmetic trapped and the whole client process died (SIGILL);
/// now the request fails with a typed error and the process goes on.
final class SignedChunkSizeTests: XCTestCase {
  #if canImport(Glibc)
    func testANegativeChunkSizeFromAServerIsATypedErrorAndTheClientLivesOn() async throws {
      let server = try LoopbackStubServer { _ in "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n" }
      addTeardownBlock { server.stop() }
      let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/answer"))
      let engine = SocketHTTPEngine(idleTimeout: 10, totalTimeout: 30)
      for attempt in 1...2 {
        do {
          let response = try await engine.send(
            HTTPRequest(method: "GET", url: url), progress: nil, informational: nil)
          XCTFail("#\(attempt): expected an error, got HTTP \(response.status)")
        } catch {
          XCTAssertEqual(error as? HTTPError, .invalidResponse("an invalid chunk size"), "#\(attempt): \(error)")
        }
      }
    }
  #endif
}
