import Foundation
import XCTest

extension XCTestCase {
  /// A fresh folder `prefix-<UUID>` under the temporary directory, removed when the test ends (call it from a test
  /// or from `setUpWithError()`).
  func makeScratchFolder(_ prefix: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }
}
