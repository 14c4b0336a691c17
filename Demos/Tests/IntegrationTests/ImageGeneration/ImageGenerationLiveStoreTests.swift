import Features
import Foundation
import Unidirectional
import XCTest

/// The feature in a live `Store` with live clients: the mock service, real files, real cancellation.
final class ImageGenerationLiveStoreTests: XCTestCase {
  private var startedServer: ImageAPIMockServer?
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("generation-live-\(UUID().uuidString)")

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

  override func tearDown() async throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func store(run: String, _ options: [String: String] = [:], backend: ImageGenerationConfiguration.Backend)
    throws -> Store<ImageGenerationFeature.State, ImageGenerationFeature.Action>
  {
    let server = try self.server
    let key = backend == .karlo ? server.karloKey : server.openAIKey
    let configuration = ImageGenerationConfiguration(
      backend: backend, apiKey: key, baseURL: server.base(run: run, options), timeout: .seconds(30), delivery: .url)
    return Store(initialState: ImageGenerationFeature.State(saveFolder: folder)) {
      ImageGenerationFeature()
    } withDependencies: {
      $0.imageGeneration = .live(configuration)
      $0.generatedImageStorage = .live
      $0.uuid = .incrementing
    }
  }

  func testGenerateAndSaveWritesRealPNGFiles() async throws {
    for backend in ImageGenerationConfiguration.Backend.allCases {
      let store = try store(run: UUID().uuidString, backend: backend)
      store.send(.promptChanged("a lighthouse"))
      store.send(.tagAdded("watercolor"))
      store.send(.sampleCountChanged(2))
      await store.send(.generateTapped).finish()
      XCTAssertEqual(store.images.count, 2, "\(backend): \(store.status)")
      await store.send(.saveTapped).finish()
      XCTAssertEqual(
        store.savedFiles.map(\.lastPathComponent),
        ["00000000-0000-0000-0000-000000000000.png", "00000000-0000-0000-0000-000000000001.png"])
      for file in store.savedFiles {
        XCTAssertEqual(pngSize(try Data(contentsOf: file))?.width, 512)
        try FileManager.default.removeItem(at: file)
      }
      XCTAssertNil(store.saveErrorMessage)
    }
  }

  func testEditingThePromptAbortsTheLiveRequest() async throws {
    for backend in ImageGenerationConfiguration.Backend.allCases {
      let run = UUID().uuidString
      let store = try store(run: run, ["delay-ms": "20000"], backend: backend)
      store.send(.promptChanged("a kite"))
      let generation = store.send(.generateTapped)
      XCTAssertEqual(store.status, .generating)
      _ = try await server.waitForRequests(run: run) { $0.contains { $0["method"] as? String == "POST" } }
      store.send(.promptChanged("a red kite"))
      XCTAssertEqual(store.status, .idle)
      await generation.finish()
      XCTAssertEqual(store.status, .idle, "the cancelled request fed nothing back")
      _ = try await server.waitForRequests(run: run) { log in
        log.contains { $0["event"] as? String == "client-disconnected" }
      }
    }
  }

  func testLeavingAbortsTheLiveRequest() async throws {
    let run = UUID().uuidString
    let store = try store(run: run, ["delay-ms": "20000"], backend: .karlo)
    store.send(.promptChanged("a kite"))
    let generation = store.send(.generateTapped)
    _ = try await server.waitForRequests(run: run) { $0.contains { $0["method"] as? String == "POST" } }
    store.send(.leave)
    await generation.finish()
    XCTAssertEqual(store.status, .idle)
    _ = try await server.waitForRequests(run: run) { log in
      log.contains { $0["event"] as? String == "client-disconnected" }
    }
  }

  func testAServiceFailureIsShownAndNothingIsSaved() async throws {
    let store = try store(run: UUID().uuidString, ["fault": "rate-limit", "retry-after": "30"], backend: .karlo)
    store.send(.promptChanged("a kite"))
    await store.send(.generateTapped).finish()
    XCTAssertEqual(store.status, .failed("Rate limited by the service: try again in 30 seconds."))
    await store.send(.saveTapped).finish()
    XCTAssertEqual(store.validationMessage, "Nothing to save yet: generate images first.")
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
  }
}
