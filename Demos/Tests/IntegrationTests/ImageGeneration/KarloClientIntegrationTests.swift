import Features
import Foundation
import Unidirectional
import XCTest

/// The live Karlo client against the loopback mock of `POST /v2/inference/karlo/t2i`.
final class KarloClientIntegrationTests: XCTestCase {
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
    key: ImageAPIKey? = nil,
    timeout: Duration = .seconds(10)
  ) throws -> ImageGenerationClient {
    let server = try self.server
    return .live(
      ImageGenerationConfiguration(
        backend: .karlo, apiKey: key ?? server.karloKey, baseURL: server.base(run: run, options), timeout: timeout,
        delivery: delivery))
  }

  // MARK: Success

  func testBase64ImagesArriveAsCheckedPNGsAndTheBodyFollowsTheDocs() async throws {
    let run = UUID().uuidString
    let images = try await client(run: run).generate(
      ImageGenerationRequest(prompt: " a lighthouse ", negativePrompt: "blurry", width: 384, height: 512, samples: 2))
    XCTAssertEqual(images.count, 2)
    for image in images {
      XCTAssertEqual(image.format, .png)
      XCTAssertNotNil(image.seed)
      XCTAssertEqual(pngSize(image.data)?.width, 384)
      XCTAssertEqual(pngSize(image.data)?.height, 512)
    }
    let log = try await server.requests(run: run)
    XCTAssertEqual(log.count, 1)
    XCTAssertEqual(log.first?["authorized"] as? Bool, true)
    XCTAssertEqual(log.first?["contentType"] as? String, "application/json")
    XCTAssertEqual(
      jsonObject(log.first?["body"]),
      [
        "version": "v2.1", "prompt": "a lighthouse", "negative_prompt": "blurry", "width": 384, "height": 512,
        "samples": 2, "image_format": "png", "return_type": "base64_string",
      ] as NSDictionary)
  }

  func testBase64WithLineBreaksAndSeedsIsAccepted() async throws {
    let run = UUID().uuidString
    let images = try await client(run: run, ["b64-lines": "1"]).generate(
      ImageGenerationRequest(prompt: "a kite", width: 512, height: 512, samples: 2, seeds: [11, 4_294_967_295]))
    XCTAssertEqual(images.map(\.seed), [11, 4_294_967_295])
    XCTAssertEqual(images.map(\.format), [.png, .png])
    let body = try await server.requests(run: run).first?["body"] as? [String: Any]
    XCTAssertEqual(body?["seed"] as? [Int], [11, 4_294_967_295])
    XCTAssertNil(body?["negative_prompt"], "an empty negative prompt is left out")
  }

  func testImageURLsAreDownloadedWithoutTheKey() async throws {
    let run = UUID().uuidString
    let images = try await client(run: run, delivery: .url).generate(
      ImageGenerationRequest(prompt: "a kite", width: 640, height: 384, samples: 3))
    XCTAssertEqual(images.count, 3)
    XCTAssertEqual(images.compactMap { pngSize($0.data)?.width }, [640, 640, 640])
    let log = try await server.requests(run: run)
    XCTAssertEqual((log.first?["body"] as? [String: Any])?["return_type"] as? String, "url")
    let downloads = log.filter { $0["api"] as? String == "image" }
    XCTAssertEqual(downloads.count, 3)
    XCTAssertTrue(downloads.allSatisfy { $0["hasAuthorization"] as? Bool == false }, "\(downloads)")
  }

  // MARK: Refused before sending

  func testInvalidRequestsAreRefusedBeforeAnythingIsSent() async throws {
    let run = UUID().uuidString
    let client = try client(run: run)
    await assertImageGenerationError(.invalidRequest("Karlo generates 1 to 8 images per request, not 9.")) {
      try await client.generate(ImageGenerationRequest(prompt: "kite", samples: 9))
    }
    await assertImageGenerationError(
      .invalidRequest("The width 500 is not supported: Karlo needs a multiple of 8 from 384 to 1280 pixels.")
    ) {
      try await client.generate(ImageGenerationRequest(prompt: "kite", width: 500))
    }
    await assertImageGenerationError(.invalidRequest("The prompt is empty.")) {
      try await client.generate(ImageGenerationRequest(prompt: "  "))
    }
    let log = try await server.requests(run: run)
    XCTAssertTrue(log.isEmpty, "\(log)")
  }

  // MARK: Errors

  func testAWrongKeyIsRefusedByTheServer() async throws {
    let run = UUID().uuidString
    await assertImageGenerationError(.unauthorized(status: 401, message: "invalid or missing API key")) {
      try await client(run: run, key: ImageAPIKey("not-the-key")).generate(ImageGenerationRequest(prompt: "kite"))
    }
    let log = try await server.requests(run: run)
    XCTAssertEqual(log.first?["authorized"] as? Bool, false)
  }

  func testEveryServiceFailureBecomesATypedError() async throws {
    let cases: [([String: String], ImageGenerationConfiguration.ImageDelivery, ImageGenerationError)] = [
      (
        ["fault": "bad-request", "message": "prompt has banned words"], .base64,
        .rejected(message: "prompt has banned words")
      ),
      (["fault": "unauthorized"], .base64, .unauthorized(status: 401, message: "invalid API key")),
      (["fault": "forbidden"], .base64, .unauthorized(status: 403, message: "this key may not use the API")),
      (["fault": "rate-limit", "retry-after": "7"], .base64, .rateLimited(retryAfterSeconds: 7)),
      (["fault": "rate-limit"], .base64, .rateLimited(retryAfterSeconds: nil)),
      (["fault": "server-error"], .base64, .serverError(status: 500, message: "internal error")),
      (["fault": "server-error", "status": "503"], .base64, .serverError(status: 503, message: "internal error")),
      (["fault": "malformed-json"], .base64, .malformedResponse("the body is not valid JSON")),
      (["fault": "wrong-shape"], .base64, .malformedResponse("the field \"images\" is missing")),
      (["fault": "bad-base64"], .base64, .invalidImage("image 1 is not valid base64")),
      (["fault": "not-an-image"], .base64, .invalidImage("image 1 is not a PNG, JPEG or WebP")),
      (["fault": "image-url-404"], .url, .imageDownloadFailed("HTTP 404 from 127.0.0.1")),
      (["fault": "image-url-html"], .url, .invalidImage("the downloaded file is not a PNG, JPEG or WebP")),
    ]
    for (options, delivery, expected) in cases {
      await assertImageGenerationError(expected) {
        try await client(run: UUID().uuidString, options, delivery: delivery).generate(
          ImageGenerationRequest(prompt: "a kite"))
      }
    }
  }

  func testARetryAfterDateBecomesSecondsFromNow() async throws {
    let options = ["fault": "rate-limit", "retry-after": "Fri, 01 Jan 2100 00:00:00 GMT"]
    do {
      _ = try await client(run: UUID().uuidString, options).generate(ImageGenerationRequest(prompt: "a kite"))
      XCTFail("expected rate limiting")
    } catch {
      guard case let .rateLimited(seconds?) = error as? ImageGenerationError else {
        return XCTFail("unexpected \(error)")
      }
      let expected = Date(timeIntervalSince1970: 4_102_444_800).timeIntervalSinceNow
      XCTAssertEqual(Double(seconds), expected, accuracy: 120)
    }
  }

  func testAWrongBaseURLIsAnUnexpectedStatusWithTheServersMessage() async throws {
    let run = UUID().uuidString
    let configuration = try ImageGenerationConfiguration(
      backend: .karlo, apiKey: server.karloKey, baseURL: server.base(run: run).appendingPathComponent("wrong"))
    do {
      _ = try await ImageGenerationClient.live(configuration).generate(ImageGenerationRequest(prompt: "a kite"))
      XCTFail("expected a 404")
    } catch {
      guard case let .unexpectedStatus(404, message?) = error as? ImageGenerationError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(message.hasPrefix("no route for POST"), message)
    }
  }

  func testASlowServiceTimesOutAndTheConnectionIsClosed() async throws {
    let run = UUID().uuidString
    await assertImageGenerationError(.timedOut) {
      try await client(run: run, ["delay-ms": "20000"], timeout: .seconds(2)).generate(
        ImageGenerationRequest(prompt: "a kite"))
    }
    // On a loaded machine the client's clock can run out before its request even left (the timeout counts from
    // the start of the task); when the server did get it, it must see the client hang up rather than be left
    // holding the connection for 20 s.
    if try await !server.requests(run: run).isEmpty {
      _ = try await server.waitForRequests(run: run) { log in
        log.contains { $0["event"] as? String == "client-disconnected" }
      }
    }
  }

  func testAnUnreachableServiceIsAConnectionFailure() async throws {
    let port = try closedLoopbackPort()
    let configuration = try ImageGenerationConfiguration(
      backend: .karlo, apiKey: server.karloKey, baseURL: URL(string: "http://127.0.0.1:\(port)"))
    do {
      _ = try await ImageGenerationClient.live(configuration).generate(ImageGenerationRequest(prompt: "a kite"))
      XCTFail("expected a connection failure")
    } catch {
      guard case .connectionFailed = error as? ImageGenerationError else { return XCTFail("unexpected \(error)") }
    }
  }

  // MARK: Cancellation and secrets

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

  func testAKeyEchoedByTheServerNeverReachesErrorsOrState() async throws {
    let secret = "echoed-\(UUID().uuidString)"
    let run = UUID().uuidString
    let client = try client(run: run, ["fault": "echo-key"], key: ImageAPIKey(secret))
    await assertImageGenerationError(.unauthorized(status: 401, message: "Incorrect API key provided: <redacted>")) {
      try await client.generate(ImageGenerationRequest(prompt: "a kite"))
    }

    // The same failure through the feature: nothing in its state, actions or dumps mentions the key.
    let store = Store(initialState: ImageGenerationFeature.State(saveFolder: URL(fileURLWithPath: "/tmp"))) {
      ImageGenerationFeature()
    } withDependencies: {
      $0.imageGeneration = client
    }
    let before = store.state
    store.send(.promptChanged("a kite"))
    await store.send(.generateTapped).finish()
    guard case let .failed(message) = store.status else { return XCTFail("unexpected \(store.status)") }
    let renderings = [
      message, customDump(store.state), String(describing: store.state), diff(before, store.state) ?? "",
      describe(store.state),
    ]
    for rendering in renderings {
      XCTAssertFalse(rendering.contains(secret), "the key leaked: \(rendering)")
    }
    XCTAssertTrue(message.contains("<redacted>"), message)
  }
}
