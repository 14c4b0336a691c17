import Foundation
import LocalFiles
import XCTest

/// File errors reach the user in words with the path, never as "NSCocoaErrorDomain error 512".
final class FileErrorReasonTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("file-errors-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testFoundationAndSystemErrorsBecomeWords() {
    let cases: [(any Error, String)] = [
      (CocoaError(.fileWriteUnknown), "the file could not be written (no further reason given)"),
      (NSError(domain: NSCocoaErrorDomain, code: 256), "the file could not be read (no further reason given)"),
      (CocoaError(.fileWriteOutOfSpace), "no space left on device"),
      (CocoaError(.fileReadNoPermission), "permission denied"),
      (
        NSError(
          domain: NSCocoaErrorDomain, code: 512,
          userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))]),
        "no space left on device"
      ),
      (POSIXError(.EACCES), "permission denied"),
    ]
    for (error, words) in cases {
      XCTAssertEqual(FileErrorReason.words(for: error), words, "\(error)")
      XCTAssertFalse(FileErrorReason.words(for: error).contains("Domain"))
    }
    XCTAssertEqual(FileErrorReason.words(forErrno: ENOENT), "no such file or directory")
    XCTAssertEqual(FileErrorReason.words(forErrno: EIO), "input/output error")
  }

  func testAFolderIsCheckedBeforeAnythingIsWritten() throws {
    XCTAssertNil(FolderAccess.problem(writingInto: folder))
    XCTAssertNil(FolderAccess.problem(writingInto: folder.appendingPathComponent("new/deeper")), "can be created")
    let file = folder.appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    XCTAssertEqual(FolderAccess.problem(writingInto: file), "\(file.path) is a file, not a folder")
    XCTAssertEqual(
      FolderAccess.problem(writingInto: file.appendingPathComponent("a/b")), "\(file.path) is a file, not a folder")

    XCTAssertThrowsError(try FolderAccess.create(file.appendingPathComponent("a"))) { error in
      XCTAssertEqual(
        "\(error)",
        "Could not create the folder \(file.appendingPathComponent("a").path): \(file.path) is a file, not a folder")
    }
    let made = folder.appendingPathComponent("made/here")
    try FolderAccess.create(made)
    try FolderAccess.create(made)
    var isFolder: ObjCBool = false
    XCTAssertTrue(FileManager.default.fileExists(atPath: made.path, isDirectory: &isFolder) && isFolder.boolValue)
  }
}
