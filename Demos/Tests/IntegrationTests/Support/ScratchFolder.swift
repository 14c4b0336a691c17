import Foundation
import XCTest

/// A fresh path `prefix-<UUID>` under the temporary directory, not created yet. A test case keeps it in a stored
/// `let`, so nothing is left nil (and nothing traps in tear-down) when set-up fails before creating it.
func scratchFolderPath(_ prefix: String) -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
}

extension XCTestCase {
  /// A fresh folder `prefix-<UUID>` under the temporary directory, removed when the test ends (call it from a test
  /// or from `setUpWithError()`).
  func makeScratchFolder(_ prefix: String) throws -> URL {
    let folder = scratchFolderPath(prefix)
    try createScratchFolder(folder)
    return folder
  }

  /// Creates `folder` (from ``scratchFolderPath(_:)``) and removes it when the test ends.
  func createScratchFolder(_ folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
  }
}
