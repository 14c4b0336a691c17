import Foundation
import Features
import XCTest

/// Every secret is resolved in one order: the explicit option, the environment (names in order), the local config
/// file, the home config file.
final class SecretSourcesTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("secret-sources-\(UUID().uuidString)")
  private let names = ["UNIDIRECTIONAL_API_TOKEN", "UPLOAD_API_TOKEN"]

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testEachSourceWinsOverTheOnesAfterIt() throws {
    let local = try write(#"{"UPLOAD_API_TOKEN": "local-2", "UNIDIRECTIONAL_API_TOKEN": "local-1"}"#, "local.json")
    let home = try write(#"{"UNIDIRECTIONAL_API_TOKEN": "home-1"}"#, "home.json")
    let environment = ["UNIDIRECTIONAL_API_TOKEN": "env-1", "UPLOAD_API_TOKEN": "env-2"]
    let explicit = (value: Optional("flag"), option: "--token")

    func resolve(_ environment: [String: String], _ files: [URL], _ explicit: (value: String?, option: String)?)
      throws -> SecretSources.Found?
    {
      try SecretSources(environment: environment, configFiles: files).value(for: names, explicit: explicit)
    }
    XCTAssertEqual(try resolve(environment, [local, home], explicit), .init(value: "flag", source: "--token"))
    XCTAssertEqual(
      try resolve(environment, [local, home], nil),
      .init(value: "env-1", source: "UNIDIRECTIONAL_API_TOKEN in the environment"))
    XCTAssertEqual(
      try resolve(["UPLOAD_API_TOKEN": "env-2"], [local, home], (nil, "--token")),
      .init(value: "env-2", source: "UPLOAD_API_TOKEN in the environment"))
    XCTAssertEqual(
      try resolve([:], [local, home], nil),
      .init(value: "local-1", source: "\"UNIDIRECTIONAL_API_TOKEN\" in \(local.path)"),
      "the first name is looked for first within a file too")
    XCTAssertEqual(
      try resolve([:], [folder.appendingPathComponent("absent.json"), home], nil),
      .init(value: "home-1", source: "\"UNIDIRECTIONAL_API_TOKEN\" in \(home.path)"))
    XCTAssertNil(try resolve([:], [], nil))
  }

  func testBlankValuesCountAsMissing() throws {
    let local = try write(#"{"UNIDIRECTIONAL_API_TOKEN": "  ", "UPLOAD_API_TOKEN": "from-file"}"#, "local.json")
    let found = try SecretSources(environment: ["UNIDIRECTIONAL_API_TOKEN": "\n"], configFiles: [local])
      .value(for: names, explicit: (" ", "--token"))
    XCTAssertEqual(found, .init(value: "from-file", source: "\"UPLOAD_API_TOKEN\" in \(local.path)"))
  }

  func testAFileIsReadOnlyWhenTheSourcesBeforeItHaveNoValue() throws {
    let secret = "sk-\(UUID().uuidString)"
    let broken = try write(#"{"UPLOAD_API_TOKEN": "\#(secret)""#, "broken.json")
    let good = try write(#"{"UPLOAD_API_TOKEN": "good"}"#, "good.json")
    let sources = SecretSources(environment: [:], configFiles: [good, broken])
    XCTAssertEqual(try sources.value(for: names)?.value, "good")

    let brokenFirst = SecretSources(environment: [:], configFiles: [broken, good])
    XCTAssertThrowsError(try brokenFirst.value(for: names)) { error in
      XCTAssertEqual(error as? SecretSourceError, .notAJSONObject(path: broken.path))
      XCTAssertFalse("\(error)".contains(secret), "the message never quotes the file")
    }
    let notAString = try write(#"{"UPLOAD_API_TOKEN": ["\#(secret)"]}"#, "array.json")
    XCTAssertThrowsError(try SecretSources(environment: [:], configFiles: [notAString]).value(for: names)) {
      XCTAssertEqual("\($0)", "\"UPLOAD_API_TOKEN\" in \(notAString.path) is not a string")
    }
  }

  func testThePlacesListedForAMissingSecretFollowTheOrder() {
    let sources = SecretSources(environment: [:], configFiles: [URL(fileURLWithPath: "/a.json")])
    XCTAssertEqual(
      sources.places(for: names, explicitOption: "--token"),
      [
        "pass --token", "UNIDIRECTIONAL_API_TOKEN in the environment", "UPLOAD_API_TOKEN in the environment",
        "\"UNIDIRECTIONAL_API_TOKEN\" in /a.json", "\"UPLOAD_API_TOKEN\" in /a.json",
      ])
  }

  func testTheDefaultFilesAreTheLocalThenTheHomeFile() throws {
    let files = SecretSources.defaultConfigFiles
    XCTAssertEqual(files.map(\.lastPathComponent), [".unidirectional.local.json", "keys.json"])
    XCTAssertEqual(files[0].deletingLastPathComponent().path, FileManager.default.currentDirectoryPath)
    XCTAssertTrue(files[1].path.hasSuffix("/.config/unidirectional/keys.json"), files[1].path)
  }

  func testTheUploadConfigurationUsesTheSameOrder() throws {
    let local = try write(#"{"UPLOAD_API_URL": "http://127.0.0.1:8000", "UPLOAD_API_TOKEN": "from-file"}"#, "l.json")
    let fromFile = try UploadServerConfiguration.fromEnvironment([:], configFiles: [local])
    XCTAssertEqual(fromFile.apiBaseURL.absoluteString, "http://127.0.0.1:8000")
    XCTAssertEqual(fromFile.token, BearerToken("from-file"))
    let fromEnvironment = try UploadServerConfiguration.fromEnvironment(
      ["UNIDIRECTIONAL_API_TOKEN": "first", "UPLOAD_API_TOKEN": "second"], configFiles: [local])
    XCTAssertEqual(fromEnvironment.token, BearerToken("first"))
  }

  // MARK: Helpers

  private func write(_ contents: String, _ name: String) throws -> URL {
    let file = folder.appendingPathComponent(name)
    try Data(contents.utf8).write(to: file)
    return file
  }
}
