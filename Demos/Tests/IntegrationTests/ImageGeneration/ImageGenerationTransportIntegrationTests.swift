import Features
import Foundation
import Unidirectional
import XCTest

/// What both image-generation clients send, whatever the service: an honest `User-Agent`, and never their key (or
/// an empty body) to another origin behind a redirect. Against the loopback mock.
final class ImageGenerationTransportIntegrationTests: XCTestCase {
  private var startedServer: ImageAPIMockServer?

  override func setUp() async throws {
    let server = try await ImageAPIMockServer.start()
    addTeardownBlock { server.stop() }
    startedServer = server
  }

  /// The mock set-up started. Throws (failing the test with set-up's own error already reported) instead of trapping
  /// when set-up could not start it, e.g. without the project's Python environment.
  private var server: ImageAPIMockServer {
    get throws { try XCTUnwrap(startedServer, "set-up did not start the image API mock") }
  }

  private func client(
    _ backend: ImageGenerationConfiguration.Backend, run: String, _ options: [String: String] = [:],
    delivery: ImageGenerationConfiguration.ImageDelivery = .base64
  ) throws -> ImageGenerationClient {
    let server = try self.server
    return .live(
      ImageGenerationConfiguration(
        backend: backend, apiKey: backend == .karlo ? server.karloKey : server.openAIKey,
        baseURL: server.base(run: run, options), timeout: .seconds(10), delivery: delivery))
  }

  func testEveryRequestSaysUnidirectionalAsItsUserAgent() async throws {
    for backend in [ImageGenerationConfiguration.Backend.karlo, .openAI] {
      let run = UUID().uuidString
      let images = try await client(backend, run: run, delivery: .url).generate(
        ImageGenerationRequest(prompt: "a kite", width: 512, height: 512, samples: 2))
      XCTAssertEqual(images.count, 2)
      let log = try await server.requests(run: run)
      XCTAssertEqual(log.count, 3, "the generation and two image downloads: \(log)")
      XCTAssertEqual(log.compactMap { $0["userAgent"] as? String }, Array(repeating: "Unidirectional/0.1.0", count: 3))
    }
  }

  func testARedirectToAnotherOriginIsNotFollowedSoTheKeyStaysHome() async throws {
    for backend in [ImageGenerationConfiguration.Backend.karlo, .openAI] {
      let run = UUID().uuidString
      do {
        _ = try await client(backend, run: run, ["fault": "redirect-foreign"]).generate(
          ImageGenerationRequest(prompt: "a kite"))
        XCTFail("\(backend): expected the redirect to come back as a failure")
      } catch {
        guard case .unexpectedStatus(307, _)? = error as? ImageGenerationError else {
          return XCTFail("\(backend): \(error)")
        }
      }
      let log = try await server.requests(run: run)
      XCTAssertEqual(log.filter { $0["api"] as? String == "foreign" }.count, 0, "\(backend): nothing reached \(log)")
    }
  }
}
