import Features
import Foundation
import XCTest

/// Runs `demo gallery` as a person would: the whole navigation tour on drawn images, on a folder of images, and
/// with bad options.
final class DemoGalleryCommandTests: XCTestCase {
  /// Every navigation change, in order: the sheet presented, uploading, dismissed by itself; a detail pushed,
  /// its information, the "delete?" dialog, the pop on confirming; a detail closing itself; a sheet swiped away
  /// mid-upload taking the upload with it. Exit 0.
  func testTheTourPrintsEveryNavigationChange() throws {
    let folder = try makeScratchFolder("demo-gallery")
    let result = try DemoProcess.run(["gallery", "--out", folder.path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(result.errors, "")
    assertLinesInOrder(
      result,
      [
        "gallery: kite.png, cat.png, simulated upload", "list: empty",
        "→ Upload", "sheet: upload (up to 10 images)",
        "→ pick kite.png, cat.png", "sheet: Uploading to server...", "sheet: Uploading to server... 100%",
        "sheet dismissed", "list: kite.png (preview-",
        "→ open kite.png", "push #0: detail of kite.png",
        "→ detail appears", "detail #0: image/png, ",
        "→ Delete", "dialog: Delete “kite.png”? [Delete | Cancel]",
        "→ confirm Delete", "dialog dismissed", "pop #0: detail of kite.png", "list: cat.png (preview-",
        "→ open cat.png", "push #1: detail of cat.png",
        "→ Close (the detail dismisses itself)", "pop #1: detail of cat.png",
        "→ Upload", "sheet: upload (up to 10 images)", "→ pick kite.png", "→ swipe the sheet away", "sheet dismissed",
        "the upload went with the sheet: 0 effects left running",
        "done: 1 item left; every effect finished or cancelled",
      ])
    XCTAssertTrue(
      result.lines.contains { $0.hasPrefix("list: kite.png (preview-") && $0.contains(", cat.png (preview-") })
    XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("kite.png").path))
  }

  func testItUploadsTheFirstTwoImagesOfAFolder() throws {
    let folder = try makeScratchFolder("demo-gallery-images")
    let images = folder.appendingPathComponent("images", isDirectory: true)
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    let png = try PNGEncoder.encode(width: 2, height: 2, rgb: Array(repeating: 200, count: 12))
    for name in ["b-boat.png", "a-apple.png", "c-cloud.png"] { try png.write(to: images.appendingPathComponent(name)) }
    try Data("not an image".utf8).write(to: images.appendingPathComponent("0-notes.txt"))

    let result = try DemoProcess.run(["gallery", "--images", images.path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    assertLinesInOrder(
      result,
      [
        "gallery: a-apple.png, b-boat.png, simulated upload", "→ pick a-apple.png, b-boat.png",
        "push #0: detail of a-apple.png", "detail #0: image/png, ", "pop #1: detail of b-boat.png",
        "done: 1 item left",
      ])
  }

  func testBadOptionsPrintTheUsageAndExit2() throws {
    let folder = try makeScratchFolder("demo-gallery-usage")
    let unknown = try DemoProcess.run(["gallery", "--colour", "red"], in: folder)
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(unknown.errors.contains("demo gallery: unknown option --colour"), unknown.errors)
    XCTAssertTrue(unknown.errors.contains("usage: demo gallery [OPTIONS]"), unknown.errors)

    let tooFew = try DemoProcess.run(["gallery", "--images", folder.path], in: folder)
    XCTAssertEqual(tooFew.status, 2)
    XCTAssertTrue(tooFew.errors.contains("--images needs a folder with at least two images"), tooFew.errors)
  }
}
