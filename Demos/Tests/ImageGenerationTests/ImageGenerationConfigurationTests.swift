import Foundation
import ImageGeneration
import Unidirectional
import XCTest

final class ImageGenerationConfigurationTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("generation-config-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: The key never shows

  func testTheKeyRendersAsRedactedEverywhere() {
    let secret = "kakao-\(UUID().uuidString)"
    let key = ImageAPIKey(secret)
    let configuration = ImageGenerationConfiguration(backend: .karlo, apiKey: key)
    var dumped = ""
    dump(configuration, to: &dumped)
    let renderings = [
      key.description, key.debugDescription, "\(key)", String(reflecting: key), String(describing: configuration),
      String(reflecting: configuration), dumped, customDump(key), customDump(configuration),
      describe(configuration),
      diff(configuration, ImageGenerationConfiguration(backend: .karlo, apiKey: ImageAPIKey("other"))) ?? "",
      Mirror(reflecting: key).children.map { "\($0.value)" }.joined(),
    ]
    for rendering in renderings {
      XCTAssertFalse(rendering.contains(secret), "the key leaked: \(rendering)")
    }
    XCTAssertEqual("\(key)", "<redacted>")
    XCTAssertEqual(customDump(key), "<redacted>")
    XCTAssertTrue(customDump(configuration).contains("apiKey: <redacted>"), customDump(configuration))
  }

  func testTheKeyIsTrimmedAndAnEmptyKeyCountsAsMissing() throws {
    XCTAssertEqual(ImageAPIKey("  abc\n"), ImageAPIKey("abc"))
    XCTAssertTrue(ImageAPIKey(" \n").isEmpty)
    XCTAssertThrowsError(try ImageGenerationConfiguration(backend: .openAI, apiKey: ImageAPIKey("")).validate()) {
      XCTAssertEqual(
        $0 as? ImageGenerationError,
        .missingAPIKey(backend: "the OpenAI-compatible service", sources: ["a non-empty OPENAI_API_KEY"]))
    }
  }

  // MARK: Loading

  func testTheEnvironmentComesBeforeConfigFiles() throws {
    let file = try write(#"{"KARLO_API_KEY": "from-file", "KARLO_BASE_URL": "http://127.0.0.1:9/prefix"}"#)
    let configuration = try ImageGenerationConfiguration.load(
      backend: .karlo, environment: ["KARLO_API_KEY": "from-env"], configFiles: [file])
    XCTAssertEqual(configuration.apiKey, ImageAPIKey("from-env"))
    XCTAssertEqual(configuration.baseURL.absoluteString, "http://127.0.0.1:9/prefix")
    XCTAssertEqual(configuration.backend, .karlo)
  }

  func testTheFirstConfigFileWithTheKeyWins() throws {
    let local = try write(#"{"OPENAI_API_KEY": "", "OPENAI_IMAGE_MODEL": "dall-e-3"}"#, name: "local.json")
    let home = try write(#"{"OPENAI_API_KEY": "from-home"}"#, name: "home.json")
    let missing = folder.appendingPathComponent("absent.json")
    let configuration = try ImageGenerationConfiguration.load(
      backend: .openAI, environment: ["OPENAI_API_KEY": "   "], configFiles: [missing, local, home])
    XCTAssertEqual(configuration.apiKey, ImageAPIKey("from-home"))
    XCTAssertEqual(configuration.openAIModel, "dall-e-3")
    XCTAssertEqual(configuration.baseURL, URL(string: "https://api.openai.com"))
  }

  func testAMissingKeyNamesWhereItWasLookedFor() {
    let file = folder.appendingPathComponent("keys.json")
    XCTAssertThrowsError(
      try ImageGenerationConfiguration.load(backend: .karlo, environment: [:], configFiles: [file])
    ) { error in
      XCTAssertEqual(
        error as? ImageGenerationError,
        .missingAPIKey(
          backend: "Karlo", sources: ["KARLO_API_KEY in the environment", "\"KARLO_API_KEY\" in \(file.path)"]))
      XCTAssertEqual(
        "\(error)",
        "No API key for Karlo: set KARLO_API_KEY in the environment or \"KARLO_API_KEY\" in \(file.path).")
    }
  }

  func testABrokenConfigFileIsReportedWithoutQuotingIt() throws {
    let secret = "sk-\(UUID().uuidString)"
    for contents in [#"{"OPENAI_API_KEY": "\#(secret)""#, #"["\#(secret)"]"#, #"{"OPENAI_API_KEY": ["\#(secret)"]}"#] {
      let file = try write(contents)
      XCTAssertThrowsError(
        try ImageGenerationConfiguration.load(backend: .openAI, environment: [:], configFiles: [file])
      ) { error in
        guard case .invalidConfiguration = error as? ImageGenerationError else {
          return XCTFail("unexpected \(error)")
        }
        XCTAssertTrue("\(error)".contains(file.path))
        XCTAssertFalse("\(error)".contains(secret), "\(error)")
      }
    }
  }

  func testTheBaseURLMustBeHTTP() {
    for text in ["ftp://127.0.0.1/x", "file:///etc", "not a url"] {
      XCTAssertThrowsError(
        try ImageGenerationConfiguration.load(
          backend: .karlo, environment: ["KARLO_API_KEY": "k", "KARLO_BASE_URL": text], configFiles: [])
      ) { error in
        guard case .invalidConfiguration = error as? ImageGenerationError else {
          return XCTFail("unexpected \(error) for \(text)")
        }
      }
    }
  }

  func testTheLiveClientReportsAMissingKeyAndAnUnknownBackend() async {
    let absent = folder.appendingPathComponent("absent.json")
    let client = ImageGenerationClient.live(
      environment: { ["IMAGE_GENERATION_BACKEND": "openai"] }, configFiles: { [absent] })
    do {
      _ = try await client.generate(ImageGenerationRequest(prompt: "kite"))
      XCTFail("expected a missing key")
    } catch {
      guard case .missingAPIKey(backend: "the OpenAI-compatible service", _) = error as? ImageGenerationError else {
        return XCTFail("unexpected \(error)")
      }
    }
    let unknown = ImageGenerationClient.live(
      environment: { ["IMAGE_GENERATION_BACKEND": "midjourney"] }, configFiles: { [] })
    do {
      _ = try await unknown.generate(ImageGenerationRequest(prompt: "kite"))
      XCTFail("expected an invalid configuration")
    } catch {
      XCTAssertEqual(
        error as? ImageGenerationError,
        .invalidConfiguration("IMAGE_GENERATION_BACKEND must be karlo or openai, not \"midjourney\""))
    }
  }

  // MARK: Helpers

  private func write(_ contents: String, name: String = "keys-\(UUID().uuidString).json") throws -> URL {
    let file = folder.appendingPathComponent(name)
    try Data(contents.utf8).write(to: file)
    return file
  }
}
