import Foundation
import HTTPClient
import ImageUpload
import Images
import XCTest

/// The live image loader on real files in a temporary folder.
final class ImageLoaderClientTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("image-loader-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func file(_ name: String, _ bytes: [UInt8]) throws -> PickedImage {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return PickedImage(fileURL: url)
  }

  func testImagesAreRecognisedByTheirBytesInPickOrder() async throws {
    let png = try file("b.dat", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    let jpeg = try file("a.png", [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
    let heic = try file("c", [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0])
    let gif = try file("d.gif", Array("GIF89a".utf8) + [1, 0, 1, 0])
    let webp = try file("e.webp", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8))
    let loaded = try await ImageLoaderClient.live.load([png, jpeg, heic, gif, webp])
    XCTAssertEqual(
      loaded,
      [
        LoadedImage(fileURL: png.fileURL, contentType: "image/png", byteCount: 12),
        LoadedImage(fileURL: jpeg.fileURL, contentType: "image/jpeg", byteCount: 7),
        LoadedImage(fileURL: heic.fileURL, contentType: "image/heic", byteCount: 16),
        LoadedImage(fileURL: gif.fileURL, contentType: "image/gif", byteCount: 10),
        LoadedImage(fileURL: webp.fileURL, contentType: "image/webp", byteCount: 12),
      ])
    XCTAssertEqual(loaded.map(UploadItem.init).map(\.fileExtension), ["png", "jpg", "heic", "gif", "webp"])
  }

  func testFilesThatCannotBeUsedGiveTypedErrors() async throws {
    let good = try file("ok.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let missing = PickedImage(fileURL: folder.appendingPathComponent("missing.jpg"))
    let empty = try file("empty.jpg", [])
    let text = try file("notes.jpg", Array("just some text".utf8))
    let directory = PickedImage(fileURL: folder)
    let cases: [(PickedImage, ImageUploadError)] = [
      (missing, .unreadableFile(path: missing.fileURL.path, reason: "the file does not exist")),
      (empty, .unreadableFile(path: empty.fileURL.path, reason: "the file is empty")),
      (text, .unsupportedImage(path: text.fileURL.path)),
      (directory, .unreadableFile(path: folder.path, reason: "it is a folder")),
    ]
    for (bad, expected) in cases {
      do {
        _ = try await ImageLoaderClient.live.load([good, bad])
        XCTFail("expected \(expected)")
      } catch {
        XCTAssertEqual(error as? ImageUploadError, expected)
      }
    }
    XCTAssertEqual(
      ImageUploadError.unsupportedImage(path: text.fileURL.path).description,
      "notes.jpg is not a supported image (JPEG, PNG, GIF, WebP, HEIC, AVIF, TIFF, BMP).")
  }
}
