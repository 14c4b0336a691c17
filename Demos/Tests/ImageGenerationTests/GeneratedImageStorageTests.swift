import Foundation
import ImageGeneration
import Images
import XCTest

final class GeneratedImageStorageTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("generation-storage-\(UUID().uuidString)")

  override func setUpWithError() throws {
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testSavingCreatesTheFolderAndWritesTheFile() async throws {
    let file = folder.appendingPathComponent("nested/deeper/a.png")
    let data = try PNGEncoder.encode(width: 1, height: 1, rgb: [1, 2, 3])
    try await GeneratedImageStorage.live.save(data, file)
    XCTAssertEqual(try Data(contentsOf: file), data)
  }

  func testSavingNeverOverwritesAFile() async throws {
    let file = folder.appendingPathComponent("a.png")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: file)
    do {
      try await GeneratedImageStorage.live.save(Data("new".utf8), file)
      XCTFail("expected fileExists")
    } catch {
      XCTAssertEqual(error as? ImageSaveError, .fileExists(path: file.path))
      XCTAssertEqual("\(error)", "\(file.path) already exists; nothing was overwritten.")
    }
    XCTAssertEqual(try Data(contentsOf: file), Data("keep me".utf8))
  }

  func testAFileWhereTheFolderShouldBeIsReported() async throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let blocker = folder.appendingPathComponent("out")
    try Data().write(to: blocker)
    do {
      try await GeneratedImageStorage.live.save(Data("x".utf8), blocker.appendingPathComponent("a.png"))
      XCTFail("expected folderUnavailable")
    } catch {
      XCTAssertEqual(
        error as? ImageSaveError,
        .folderUnavailable(path: blocker.path, reason: "\(blocker.path) is a file, not a folder"))
    }
  }
}
