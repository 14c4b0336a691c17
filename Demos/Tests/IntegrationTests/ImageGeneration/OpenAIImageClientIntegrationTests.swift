import Features
import Foundation
import XCTest

/// The live OpenAI-compatible client against the loopback mock of `POST /v1/images/generations`.
final class OpenAIImageClientIntegrationTests: XCTestCase {
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
    run: String,
    _ options: [String: String] = [:],
    delivery: ImageGenerationConfiguration.ImageDelivery = .base64,
    key: ImageAPIKey? = nil
  ) throws -> ImageGenerationClient {
    let server = try self.server
    return .live(
      ImageGenerationConfiguration(
        backend: .openAI, apiKey: key ?? server.openAIKey, baseURL: server.base(run: run, options),
        timeout: .seconds(10), delivery: delivery))
  }

  func testBase64ImagesAndTheDocumentedBody() async throws {
    let run = UUID().uuidString
    let images = try await client(run: run).generate(
      ImageGenerationRequest(prompt: "a kite", negativePrompt: "blurry", width: 256, height: 256, samples: 2))
    XCTAssertEqual(images.count, 2)
    XCTAssertEqual(images.compactMap { pngSize($0.data)?.height }, [256, 256])
    let log = try await server.requests(run: run)
    XCTAssertEqual(log.count, 1)
    XCTAssertEqual(log.first?["authorized"] as? Bool, true)
    XCTAssertEqual(
      jsonObject(log.first?["body"]),
      [
        "model": "dall-e-2", "prompt": "a kite\nAvoid: blurry", "n": 2, "size": "256x256",
        "response_format": "b64_json",
      ] as NSDictionary)
  }

  func testImageURLsAreDownloadedWithoutTheKey() async throws {
    let run = UUID().uuidString
    let images = try await client(run: run, delivery: .url).generate(
      ImageGenerationRequest(prompt: "a kite", width: 512, height: 512, samples: 1))
    XCTAssertEqual(images.map(\.format), [.png])
    let log = try await server.requests(run: run)
    XCTAssertEqual((log.first?["body"] as? [String: Any])?["response_format"] as? String, "url")
    let downloads = log.filter { $0["api"] as? String == "image" }
    XCTAssertEqual(downloads.count, 1)
    XCTAssertEqual(downloads.first?["hasAuthorization"] as? Bool, false)
  }

  func testAKarloKeyIsNotAnOpenAIKey() async {
    await assertImageGenerationError(.unauthorized(status: 401, message: "invalid or missing API key")) {
      try await client(run: UUID().uuidString, key: server.karloKey).generate(ImageGenerationRequest(prompt: "kite"))
    }
  }

  func testEveryServiceFailureBecomesATypedError() async {
    let cases: [([String: String], ImageGenerationConfiguration.ImageDelivery, ImageGenerationError)] = [
      (
        ["fault": "bad-request", "message": "Your request was rejected by the safety system"], .base64,
        .rejected(message: "Your request was rejected by the safety system")
      ),
      (["fault": "unauthorized"], .base64, .unauthorized(status: 401, message: "invalid API key")),
      (["fault": "forbidden"], .base64, .unauthorized(status: 403, message: "this key may not use the API")),
      (["fault": "rate-limit", "retry-after": "20"], .base64, .rateLimited(retryAfterSeconds: 20)),
      (["fault": "server-error", "status": "502"], .base64, .serverError(status: 502, message: "internal error")),
      (["fault": "malformed-json"], .base64, .malformedResponse("the body is not valid JSON")),
      (["fault": "wrong-shape"], .base64, .malformedResponse("the field \"data\" is missing")),
      (["fault": "bad-base64"], .base64, .invalidImage("image 1 is not valid base64")),
      (["fault": "not-an-image"], .base64, .invalidImage("image 1 is not a PNG, JPEG or WebP")),
      (["fault": "image-url-404"], .url, .imageDownloadFailed("HTTP 404 from 127.0.0.1")),
    ]
    for (options, delivery, expected) in cases {
      await assertImageGenerationError(expected) {
        try await client(run: UUID().uuidString, options, delivery: delivery).generate(
          ImageGenerationRequest(prompt: "a kite"))
      }
    }
  }

  func testAnEchoedKeyIsRedacted() async {
    let secret = "sk-echo-\(UUID().uuidString)"
    await assertImageGenerationError(.unauthorized(status: 401, message: "Incorrect API key provided: <redacted>")) {
      try await client(run: UUID().uuidString, ["fault": "echo-key"], key: ImageAPIKey(secret)).generate(
        ImageGenerationRequest(prompt: "a kite"))
    }
  }

  func testCancellingTheTaskAbortsTheRequest() async throws {
    let run = UUID().uuidString
    let client = try client(run: run, ["delay-ms": "20000"])
    let task = Task { try await client.generate(ImageGenerationRequest(prompt: "a kite")) }
    _ = try await server.waitForRequests(run: run) { $0.contains { $0["method"] as? String == "POST" } }
    task.cancel()
    do {
      _ = try await task.value
      XCTFail("expected cancellation")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    _ = try await server.waitForRequests(run: run) { log in
      log.contains { $0["event"] as? String == "client-disconnected" }
    }
  }
}
