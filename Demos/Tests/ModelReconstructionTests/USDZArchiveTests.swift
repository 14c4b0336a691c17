import Foundation
import ModelReconstruction
import XCTest

/// Reading and writing USDZ packages, and refusing what is not one.
final class USDZArchiveTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("usdz-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// An archive of three small files; returns its URL.
  private func writeArchive(named name: String = "a.usdz") throws -> URL {
    let url = folder.appendingPathComponent(name)
    let writer = try USDZWriter(url: url)
    try writer.add(name: "scene.usda", data: Data("#usda 1.0\n".utf8))
    try writer.add(name: "textures/a.png", data: Data(repeating: 7, count: 100))
    try writer.add(name: "textures/b.png", data: Data(repeating: 9, count: 1))
    try writer.finish()
    return url
  }

  private func assertInvalid(
    _ url: URL, verifying: Bool = false, _ reason: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try USDZArchive(contentsOf: url, verifyingChecksums: verifying), file: file, line: line) {
      XCTAssertEqual(
        $0 as? ModelReconstructionError, .invalidModelFile(path: url.path, reason: reason), file: file, line: line)
    }
  }

  func testWrittenEntriesReadBackAligned() throws {
    let url = try writeArchive()
    let archive = try USDZArchive(contentsOf: url, verifyingChecksums: true)
    XCTAssertEqual(archive.entries.map(\.name), ["scene.usda", "textures/a.png", "textures/b.png"])
    XCTAssertEqual(archive.entries.map(\.byteCount), [10, 100, 1])
    XCTAssertEqual(
      archive.entries.map(\.crc32),
      [Data("#usda 1.0\n".utf8), Data(repeating: 7, count: 100), Data([9])].map(CRC32.checksum))
    XCTAssertTrue(archive.entries.allSatisfy { $0.dataOffset % 64 == 0 })
  }

  func testTruncatedAndForeignFilesAreRefused() throws {
    let url = try writeArchive()
    let data = try Data(contentsOf: url)

    let truncated = folder.appendingPathComponent("truncated.usdz")
    try data.prefix(data.count - 30).write(to: truncated)
    assertInvalid(truncated, "it has no end-of-directory record")

    let tiny = folder.appendingPathComponent("tiny.usdz")
    try Data("PK".utf8).write(to: tiny)
    assertInvalid(tiny, "it is too short to be a ZIP archive")

    let text = folder.appendingPathComponent("text.usdz")
    try Data(repeating: UInt8(ascii: "x"), count: 500).write(to: text)
    assertInvalid(text, "it has no end-of-directory record")

    assertInvalid(folder.appendingPathComponent("missing.usdz"), "the file cannot be opened")
  }

  func testACorruptDirectoryOrPayloadIsRefused() throws {
    let url = try writeArchive()
    let data = try Data(contentsOf: url)
    let archive = try USDZArchive(contentsOf: url)

    // Flip a byte of a file's data: only a checksum check notices.
    var flipped = data
    flipped[Int(archive.entries[1].dataOffset) + 5] ^= 0xFF
    let flippedURL = folder.appendingPathComponent("flipped.usdz")
    try flipped.write(to: flippedURL)
    XCTAssertNoThrow(try USDZArchive(contentsOf: flippedURL))
    assertInvalid(flippedURL, verifying: true, "textures/a.png does not match its checksum")

    // Mark the first directory entry as deflated.
    guard let directory = data.range(of: Data([0x50, 0x4B, 0x01, 0x02]))?.lowerBound else {
      return XCTFail("no central directory")
    }
    var compressed = data
    compressed[directory + 10] = 8
    let compressedURL = folder.appendingPathComponent("compressed.usdz")
    try compressed.write(to: compressedURL)
    assertInvalid(compressedURL, "scene.usda is compressed; USDZ files are stored uncompressed")

    // Point the directory past the end of the file.
    var outside = data
    outside[outside.count - 6] = 0xFF
    outside[outside.count - 5] = 0xFF
    let outsideURL = folder.appendingPathComponent("outside.usdz")
    try outside.write(to: outsideURL)
    assertInvalid(outsideURL, "its directory lies outside the file")
  }

  func testUnsafeOrDuplicateNamesAreRefused() throws {
    let url = folder.appendingPathComponent("names.usdz")
    let writer = try USDZWriter(url: url)
    for name in ["../evil", "/abs", "a//b", "a\\b", "tab\there", "", "./x", "x/.."] {
      XCTAssertThrowsError(try writer.add(name: name, data: Data([1])), name.debugDescription) {
        XCTAssertEqual(
          $0 as? ModelReconstructionError,
          .cannotWrite(path: url.path, reason: "\(name.debugDescription) is not a safe file name in an archive"))
      }
    }
    try writer.add(name: "scene.usda", data: Data([1]))
    XCTAssertThrowsError(try writer.add(name: "scene.usda", data: Data([2]))) {
      XCTAssertEqual(
        $0 as? ModelReconstructionError,
        .cannotWrite(path: url.path, reason: "the archive already has a file named scene.usda"))
    }
    try writer.finish()
    XCTAssertEqual(try USDZArchive(contentsOf: url, verifyingChecksums: true).entries.map(\.name), ["scene.usda"])
    XCTAssertThrowsError(try writer.add(name: "late.png", data: Data([1])))
  }

  func testAnAbandonedArchiveLeavesNothing() throws {
    let url = folder.appendingPathComponent("gone.usdz")
    do {
      let writer = try USDZWriter(url: url)
      try writer.add(name: "scene.usda", data: Data([1]))
    }  // released without finish()
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }
}
